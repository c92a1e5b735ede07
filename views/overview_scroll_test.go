package views

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"opsdeck/internal/termcells"
)

// onTerminal draws s into a real terminal emulator w×h and returns its
// rows as the terminal shows them.
func onTerminal(t *testing.T, s string, w, h int) []string {
	t.Helper()
	rows := termcells.Draw(s, w, h).Lines()
	for y, r := range rows {
		rows[y] = strings.TrimRight(r, " ")
	}
	return rows
}

// At 80×24 (a 20-line pane) the Overview of six watched users does not
// fit: its last line says how much is below, the blocks past the fold can
// be reached with the cursor or pgdn, and at the bottom the legend shows
// and the line says what is above.
func TestOverviewSaysMoreBelowAndScrolls(t *testing.T) {
	users := []string{"u-1", "u-2", "u-3", "u-4", "u-5", "u-6"}
	p := countedOverview(t, OverviewOptions{Users: users, Alerts: ovAlerts})
	p.SetSize(80, 20)
	rows := onTerminal(t, p.View(), 80, 20)
	if last := rows[19]; !strings.Contains(last, "more lines below") || !strings.Contains(last, "pgdn") {
		t.Fatalf("the last line does not say what is below:\n%s", strings.Join(rows, "\n"))
	}
	if strings.Contains(strings.Join(rows, "\n"), "enter opens the rows") {
		t.Fatalf("the legend fits: this test needs a taller overview")
	}
	for range 5 {
		p.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	rows = onTerminal(t, p.View(), 80, 20)
	screen := strings.Join(rows, "\n")
	if !strings.Contains(screen, "enter opens the rows") || !strings.Contains(rows[19], "above") || strings.Contains(rows[19], "below") {
		t.Fatalf("pgdn did not reach the legend:\n%s", screen)
	}
	if !strings.Contains(screen, "u-6") {
		t.Fatalf("the last user's row is not reachable:\n%s", screen)
	}
	// The cursor's next move brings the view back to it.
	p.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	for range 3 {
		p.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	}
	rows = onTerminal(t, p.View(), 80, 20)
	if !strings.Contains(rows[0], "Sandbox pool") {
		t.Fatalf("pgup did not come back to the top:\n%s", strings.Join(rows, "\n"))
	}
	// A pane tall enough has no such line.
	p.SetSize(80, 60)
	if v := p.View(); strings.Contains(v, "more lines below") || strings.Contains(v, " above") {
		t.Fatalf("a fitting overview says it does not fit:\n%s", v)
	}
}
