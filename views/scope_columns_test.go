package views

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// shownColumns are the keys of the columns the active list draws.
func shownColumns(p orderPane) []string {
	tb := p.active().table
	cols := tb.Columns()
	var keys []string
	for _, i := range tb.VisibleColumns() {
		keys = append(keys, cols[i].Key)
	}
	return keys
}

// TestScopeHidesFixedColumn: a column whose value the scope fixes (and the
// title names) is not drawn; in scopes where it varies it is, and switching
// scope brings it back.
func TestScopeHidesFixedColumn(t *testing.T) {
	c := orderCtx()
	cases := []struct {
		name  string
		pane  orderPane
		col   string
		shown bool
		then  func(orderPane) // moves to a scope where the value varies
	}{
		{"sessions by project", NewSessions(c, "p-1", ""), "project", false,
			func(p orderPane) { p.(*Sessions).ShowStatus("RUNNING") }},
		{"sessions by status", NewSessions(c, "", "RUNNING"), "project", true, nil},
		{"runs by user", NewRuns(c, "u-1", ""), "user", false,
			func(p orderPane) { p.(*Runs).ShowRun("r-1") }},
		{"run by id", NewRuns(c, "", "r-1"), "user", true, nil},
		{"sandboxes by track", NewSandboxes(c, "track", "t-1"), "track", false,
			func(p orderPane) { p.(*Sandboxes).Show("status", "allocated") }},
		{"sandboxes by status", NewSandboxes(c, "status", "allocated"), "status", true, nil},
		{"delegations by audience", NewDelegations(c, "did:a", "", ""), "audience", false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.pane.SetSize(200, 10) // wide: nothing is dropped for lack of room
			if got := slices.Contains(shownColumns(tc.pane), tc.col); got != tc.shown {
				t.Fatalf("%s shown=%v, want %v (columns %v)", tc.col, got, tc.shown, shownColumns(tc.pane))
			}
			if tc.then != nil {
				tc.then(tc.pane)
				if !slices.Contains(shownColumns(tc.pane), tc.col) {
					t.Fatalf("after leaving the scope %s is still hidden: %v", tc.col, shownColumns(tc.pane))
				}
			}
		})
	}
	t.Run("project contexts", func(t *testing.T) {
		p := NewSessions(c, "p-1", "")
		p.SetSize(200, 10)
		p.show(subContexts)
		if slices.Contains(shownColumns(p), "project") {
			t.Fatalf("contexts of one project still show PROJECT: %v", shownColumns(p))
		}
	})
}

// TestSessionIDWholeAt80: at 80 columns a project's sessions show their
// whole 19-character ids (they were cut to 14 + "…" while PROJECT repeated
// the title on every row).
func TestSessionIDWholeAt80(t *testing.T) {
	const id = "sess_CMdknWmQ2Vz6t1"
	for _, p := range []*Sessions{NewSessions(orderCtx(), "proj_acme_scraper", ""), NewSessions(orderCtx(), "", "RUNNING")} {
		rec := sessionAt(id, 0, 0)
		loadFirstPage(t, p, rec)
		p.SetSize(80, 6)
		view := ansi.Strip(p.View())
		if !strings.Contains(view, id) {
			t.Fatalf("%s: id %s not whole at 80 columns:\n%s", p.Title(), id, view)
		}
	}
}
