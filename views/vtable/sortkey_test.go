package vtable

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// keyed is a row whose third cell shows text but sorts by n (or last, when
// n is NaN), the way a pane builds an age column.
func keyed(id, shown string, n float64) Row {
	r := row(id, "X", shown)
	if math.IsNaN(n) {
		r.Cells[2] = r.Cells[2].SortLast()
	} else {
		r.Cells[2] = r.Cells[2].SortNum(n)
	}
	return r
}

func TestSortKeyOverridesText(t *testing.T) {
	// The texts sort "1h ago" < "2m ago" < "30s ago" < "5d ago"; the keys
	// (unix seconds) say 5d is oldest, 30s newest.
	rows := []Row{
		keyed("a", "2m ago", 1000-120),
		keyed("b", "-", math.NaN()),
		keyed("c", "5d ago", 1000-5*86400),
		keyed("d", "30s ago", 1000-30),
		keyed("e", "1h ago", 1000-3600),
		keyed("f", "in 3m", 1000+180),
	}
	m := newTable(rows, 60, 10)
	m.SortBy(2, false)
	if got := visibleIDs(m); !slices.Equal(got, []string{"c", "e", "a", "d", "f", "b"}) {
		t.Fatalf("asc by time: %v", got)
	}
	m.SortBy(2, true)
	if got := visibleIDs(m); !slices.Equal(got, []string{"f", "d", "a", "e", "c", "b"}) {
		t.Fatalf("desc by time (missing still last): %v", got)
	}
	// Rendering shows the text, never the key.
	if v := m.View(); !strings.Contains(v, "2m a") || strings.Contains(v, "880") {
		t.Fatalf("rendered keys instead of text:\n%s", v)
	}
	// Pages appended later and live upserts are placed by key too.
	m.Append([]Row{keyed("g", "1m ago", 1000-60)})
	m.Upsert(keyed("h", "3d ago", 1000-3*86400))
	if got := visibleIDs(m); !slices.Equal(got, []string{"f", "d", "g", "a", "e", "h", "c", "b"}) {
		t.Fatalf("desc after append/upsert: %v", got)
	}
}

func TestSortKeyRoundTrip(t *testing.T) {
	for _, n := range []float64{0, math.Copysign(0, -1), 1, -1, 1.7e9, -1e300, math.Inf(1), math.Inf(-1), 5e-324} {
		c := Cell{Text: "x"}.SortNum(n)
		got, ok := c.SortKey()
		if !ok || got != n {
			t.Fatalf("SortNum(%v) → %v, %v", n, got, ok)
		}
	}
	if _, ok := (Cell{Text: "1"}).SortKey(); ok {
		t.Fatalf("a plain cell claims a key")
	}
	if _, ok := (Cell{}).SortNum(math.NaN()).SortKey(); ok {
		t.Fatalf("NaN stored as a key")
	}
	if _, ok := (Cell{}).SortLast().SortKey(); ok {
		t.Fatalf("SortLast reports a key")
	}
}
