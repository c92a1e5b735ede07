package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
	"opsdeck/themes"
)

// ctrl+l and ctrl+z are the terminal's keys: they reach the screen in every
// mode, the command line and the help screen included, and type nothing.
func TestCtrlLAndCtrlZReachTheTerminalInEveryMode(t *testing.T) {
	var repaints, suspends int
	m := New(Options{Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow }})
	m.ControlTerminal(TerminalControl{Repaint: func() { repaints++ }, Suspend: func() { suspends++ }})
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	run := func(cmd tea.Cmd) {
		if cmd != nil {
			cmd()
		}
	}
	for _, into := range []struct {
		mode string
		keys []tea.KeyPressMsg
	}{
		{"normal", nil},
		{"command", []tea.KeyPressMsg{{Code: ':', Text: ":"}}},
		{"help", []tea.KeyPressMsg{{Code: tea.KeyEscape}, {Code: '?', Text: "?"}}},
	} {
		for _, k := range into.keys {
			tm, _ = tm.Update(k)
		}
		if got := tm.(Model).Mode(); got != into.mode {
			t.Fatalf("mode %q, want %q", got, into.mode)
		}
		r, s := repaints, suspends
		var cmd tea.Cmd
		tm, cmd = tm.Update(tea.KeyPressMsg{Code: 'l', Mod: tea.ModCtrl})
		run(cmd)
		tm, cmd = tm.Update(tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
		run(cmd)
		if repaints != r+1 || suspends != s+1 {
			t.Errorf("in %s mode: %d repaints and %d suspends, want one each", into.mode, repaints-r, suspends-s)
		}
		if got := tm.(Model).Mode(); got != into.mode {
			t.Errorf("ctrl+l / ctrl+z left %s mode for %s", into.mode, got)
		}
	}
	if v := tm.(Model).input.Value(); v != "" {
		t.Errorf("the command line took %q from the keys", v)
	}
}
