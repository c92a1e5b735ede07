package vtable

import (
	"slices"
	"testing"

	"opsdeck/themes"
)

func viewIDs(m Model) []string {
	out := make([]string, 0, m.VisibleLen())
	for _, e := range m.view {
		out = append(out, e.ID)
	}
	return out
}

// TestNaturalOrderPlacesInserts: with a natural order (newest first by the
// n column) and no explicit sort, a row upserted later lands where the
// source would have listed it, the cursor stays on its row, an explicit
// sort wins, and undoing it returns to the natural order.
func TestNaturalOrderPlacesInserts(t *testing.T) {
	m := New(cols3(), themes.Dark())
	m.SetSize(60, 10)
	if !m.SetNaturalOrderByKey("n", true) {
		t.Fatal("no column n")
	}
	m.SetRows([]Row{row("c", "x", "30"), row("b", "x", "20"), row("a", "x", "10")})
	m.Select("b")
	m.Upsert(row("new", "x", "40"))      // newest: top
	m.Upsert(row("mid", "x", "25"))      // between c and b
	m.Upsert(row("old", "x", "5"))       // oldest: bottom
	m.Append([]Row{row("p2", "x", "1")}) // a next page: still in order
	want := []string{"new", "c", "mid", "b", "a", "old", "p2"}
	if got := viewIDs(m); !slices.Equal(got, want) {
		t.Fatalf("view order %v, want %v", got, want)
	}
	if m.SelectedID() != "b" {
		t.Fatalf("cursor on %q, want b", m.SelectedID())
	}
	if col, _ := m.SortState(); col != -1 {
		t.Fatalf("natural order shows as sort column %d", col)
	}
	m.SortBy(0, false) // explicit: by id
	m.Upsert(row("aa", "x", "50"))
	if got := viewIDs(m); got[0] != "a" || got[1] != "aa" {
		t.Fatalf("explicit sort lost to the natural order: %v", got)
	}
	m.SortBy(-1, false)
	want = []string{"aa", "new", "c", "mid", "b", "a", "old", "p2"}
	if got := viewIDs(m); !slices.Equal(got, want) {
		t.Fatalf("back to natural order: %v, want %v", got, want)
	}
}

// TestNoNaturalOrderAppends: without one, an insert goes after the rest
// (insertion order), as before.
func TestNoNaturalOrderAppends(t *testing.T) {
	m := New(cols3(), themes.Dark())
	m.SetRows([]Row{row("c", "x", "30"), row("a", "x", "10")})
	m.Upsert(row("new", "x", "40"))
	if got := viewIDs(m); !slices.Equal(got, []string{"c", "a", "new"}) {
		t.Fatalf("view order %v", got)
	}
}
