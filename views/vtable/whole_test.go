package vtable

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"opsdeck/themes"
)

// TestWholeColumnsNeverShowAnotherNumber: a number wider than its column's
// width widens the column and is shown whole, whatever way its row came
// (a page, one live row, a refresh); one wider than a number column may
// grow is drawn as ### — never its first digits.
func TestWholeColumnsNeverShowAnotherNumber(t *testing.T) {
	cols := cols3()
	cols[2].Whole = true
	big := "92233720368" // 11 digits: wider than the column's 5, within numberMax
	huge := "9223372036854775808"
	for _, how := range []string{"SetRows", "Append", "Upsert", "Refresh"} {
		m := New(cols, themes.Plain())
		m.SetSize(80, 6)
		m.SetRows([]Row{row("a", "ok", "1")})
		r := row("b", "ok", big)
		switch how {
		case "SetRows":
			m.SetRows([]Row{row("a", "ok", "1"), r})
		case "Append":
			m.Append([]Row{r})
		case "Upsert":
			m.Upsert(r)
		case "Refresh":
			m.Upsert(row("b", "ok", "2"))
			m.Refresh(r)
		}
		out := plainView(m)
		if !strings.Contains(out, big) || strings.Contains(out, "9223…") {
			t.Errorf("%s: %s not shown whole:\n%s", how, big, out)
		}
		m.Upsert(row("c", "ok", huge))
		out = plainView(m)
		if strings.Contains(out, "9223372036854") || !strings.Contains(out, "###") {
			t.Errorf("%s: a number wider than any column is not marked:\n%s", how, out)
		}
	}
	// Too narrow for the widened column: the column is dropped or marked,
	// never cut to its first digits.
	m := New(cols, themes.Plain())
	m.SetSize(24, 6)
	m.SetRows([]Row{row("a", "ok", big)})
	if out := plainView(m); strings.Contains(out, "9223") && !strings.Contains(out, big) {
		t.Errorf("narrow: cut number shown:\n%s", out)
	}
}

func plainView(m Model) string { return ansi.Strip(m.View()) }
