package ui

import (
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views"
)

// TestClockTicksOnlyWithTimesOnScreen: the root ticks while the shown pane
// has a live time column and stops when it has none (the Stream pane, the
// help screen), starting again when one is shown.
func TestClockTicksOnlyWithTimesOnScreen(t *testing.T) {
	var m tea.Model = New(Options{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow }})
	step := func(msg tea.Msg) Model {
		t.Helper()
		m, _ = m.Update(msg)
		return m.(Model)
	}
	if !step(tea.WindowSizeMsg{Width: 120, Height: 40}).clockArmed {
		t.Fatal("no clock with the Sessions pane (CREATED, EXPIRES) on screen")
	}
	if !step(clockTickMsg{}).clockArmed {
		t.Fatal("the clock did not re-arm while times are on screen")
	}
	step(tea.KeyPressMsg{Code: '6', Text: "6"})
	if got := step(clockTickMsg{}); got.Active() != views.PaneStream || got.clockArmed {
		t.Fatalf("the clock keeps ticking on the Stream pane (active %v)", got.Active())
	}
	if !step(tea.KeyPressMsg{Code: '1', Text: "1"}).clockArmed {
		t.Fatal("the clock did not start again on the Sessions pane")
	}
}

// BenchmarkClockTick is one clock tick (re-rendering the shown rows against
// the clock) with the cursor in the middle of n rows: it touches the window
// only, so it must not grow with n.
func BenchmarkClockTick(b *testing.B) {
	for _, rows := range benchSizes {
		b.Run(strconv.Itoa(rows), func(b *testing.B) {
			m := benchModel(b, rows)
			for range rows / 2 {
				m.Pane(views.PaneSessions).Update(keyMsg("j"))
			}
			b.ResetTimer()
			for b.Loop() {
				nm, _ := m.Update(clockTickMsg{})
				m = nm.(Model)
			}
		})
	}
}
