package vtable

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"opsdeck/themes"
)

// TestHiddenColumnGivesItsWidthAway: a Hidden column is left out of the
// layout at every width, its header and cells are not drawn, and the next
// column takes its place.
func TestHiddenColumnGivesItsWidthAway(t *testing.T) {
	cols := cols3()
	m := New(cols, themes.Dark())
	m.SetSize(60, 4)
	m.SetRows([]Row{row("r1", "RUNNING", "7")})

	cols[1].Hidden = true
	m.SetColumns(cols)
	if got := m.VisibleColumns(); !slices.Equal(got, []int{0, 2}) {
		t.Fatalf("visible %v, want [0 2]", got)
	}
	if sp := spans(m); sp[1].x0 != sp[0].x1+1 {
		t.Fatalf("N drawn at %v after ID at %v: a gap where the hidden column was", sp[1], sp[0])
	}
	view := m.View()
	checkFrame(t, view, 60, 4)
	bare := ansi.Strip(view)
	if strings.Contains(bare, "STATUS") || strings.Contains(bare, "RUNNING") {
		t.Fatalf("hidden column drawn:\n%s", bare)
	}
	if !strings.Contains(bare, "r1") || !strings.Contains(bare, "7") {
		t.Fatalf("shown columns missing:\n%s", bare)
	}
	// Still found by the filter: the row holds the value.
	m.SetFilter("running")
	if m.VisibleLen() != 1 {
		t.Fatalf("filter on a hidden column's text lost the row")
	}

	cols[1].Hidden = false
	m.SetColumns(cols)
	if got := m.VisibleColumns(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("unhidden: visible %v", got)
	}
}

// TestCycleSortSkipsHiddenColumn: sorting by a column nobody sees would
// look like a broken order, so the cycle passes over it, and hiding the
// sorted column drops the sort.
func TestCycleSortSkipsHiddenColumn(t *testing.T) {
	cols := cols3()
	cols[1].Hidden = true
	m := New(cols, themes.Dark())
	m.SetSize(60, 6)
	m.SetRows(numbered(4))
	var seen []int
	for i := 0; i < 3; i++ {
		m.CycleSort()
		c, _ := m.SortState()
		seen = append(seen, c)
	}
	if !slices.Equal(seen, []int{0, 2, -1}) {
		t.Fatalf("cycle went through %v, want [0 2 -1]", seen)
	}

	cols[1].Hidden = false
	m.SetColumns(cols)
	m.SortBy(1, false)
	cols[1].Hidden = true
	m.SetColumns(cols)
	if c, _ := m.SortState(); c != -1 {
		t.Fatalf("sort stayed on hidden column %d", c)
	}
}
