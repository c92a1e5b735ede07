package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/uitest"
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
	step(tea.WindowSizeMsg{Width: 120, Height: 40})
	created := s(fixedNow.Add(-time.Minute).Format(time.RFC3339))
	if !step(changesMsg([]views.Change{{Table: data.TableSessions, Event: "INSERT", New: data.Item{
		"sessionId": s("sess_a"), "status": s("RUNNING"), "projectId": s("proj_a"), "createdAt": created,
		"expiresAt": n(strconv.FormatInt(fixedNow.Add(time.Hour).Unix(), 10)),
	}}})).clockArmed {
		t.Fatal("no clock with the Sessions pane (CREATED, EXPIRES) on screen")
	}
	tick := func() tea.Msg { return clockTickMsg{gen: m.(Model).clockGen} }
	if !step(tick()).clockArmed {
		t.Fatal("the clock did not re-arm while times are on screen")
	}
	step(tea.KeyPressMsg{Code: '6', Text: "6"})
	if got := step(tick()); got.Active() != views.PaneStream || got.clockArmed {
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
				m.slotOf(views.PaneSessions).Update(keyMsg("j"))
			}
			b.ResetTimer()
			for b.Loop() {
				nm, _ := m.Update(clockTickMsg{gen: m.clockGen})
				m = nm.(Model)
			}
		})
	}
}

// TestClockSleepsUntilALabelChanges: with rows whose labels change only at
// known moments, the clock is armed for them (not every second); changes
// of minute labels, each at a second of its own, are drawn together on the
// next whole minute; the screen between two wakes is the same frame, and
// the wake draws every label that changed.
func TestClockSleepsUntilALabelChanges(t *testing.T) {
	now := fixedNow // a whole minute
	m := New(Options{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }, Timer: uitest.Timer})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = nm.(Model)
	// sess_a: created 10m30s ago ("10m ago" for 30 s more), expiring in
	// 2h00m20s ("in 2h" for 20 s more); sess_b: created 3m10s ago (50 s
	// more), expiring in 5h00m40s (40 s more).
	row := func(id string, created time.Duration, expires time.Duration) views.Change {
		return views.Change{Table: data.TableSessions, Event: "INSERT", New: data.Item{
			"sessionId": s(id), "status": s("RUNNING"), "internalStatus": s("READY"), "projectId": s("proj_a"),
			"createdAt": s(now.Add(-created).Format(time.RFC3339)),
			"expiresAt": n(strconv.FormatInt(now.Add(expires).Unix(), 10)),
		}}
	}
	nm, cmd := m.Update(changesMsg([]views.Change{row("sess_a", 10*time.Minute+30*time.Second, 2*time.Hour+20*time.Second), row("sess_b", 3*time.Minute+10*time.Second, 5*time.Hour+40*time.Second)}))
	m, res := uitest.Settle(t, nm.(Model), cmd)
	// Rows arrived: the window is rendered against the clock within a
	// second once; after that the clock waits for labels.
	m, res = uitest.Fire(t, m, res.Timers)
	clockAfter := func() []time.Duration {
		var after []time.Duration
		for _, tm := range res.Timers {
			if _, ok := tm.Msg.(clockTickMsg); ok {
				after = append(after, tm.After)
			}
		}
		return after
	}
	// The four labels change at 20, 30, 40 and 50 s: one wake, on the
	// minute.
	if after := clockAfter(); len(after) != 1 || after[0] != time.Minute+clockSlack {
		t.Fatalf("clock timers armed: %v, want one at %v (the next whole minute)", after, time.Minute+clockSlack)
	}
	start := now
	now = start.Add(views.HighlightFor + time.Second) // the new rows' highlight is gone
	before := m.Render()
	now = start.Add(19 * time.Second) // no label has changed yet
	if got := m.Render(); got != before {
		t.Fatalf("the screen changed although no label did:\n%s\n---\n%s", before, got)
	}
	now = start.Add(time.Minute + clockSlack)
	m, res = uitest.Fire(t, m, res.Timers)
	got := m.Render()
	for _, label := range []string{"in 1h59m", "11m ago", "in 4h59m", "4m ago"} {
		if !strings.Contains(got, label) {
			t.Fatalf("the wake on the minute did not draw %q:\n%s", label, got)
		}
	}
	// Then the next minute: every label changes once in it again.
	if after := clockAfter(); len(after) != 1 || after[0] != time.Minute {
		t.Fatalf("next tick after %v, want 1m (the next whole minute)", after)
	}
}

// TestClockKeepsSecondsExact: a label counted in seconds and an expiry
// passing are drawn at their own moment, not on the minute.
func TestClockKeepsSecondsExact(t *testing.T) {
	now := fixedNow
	m := New(Options{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }, Timer: uitest.Timer})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = nm.(Model)
	// Created 2h ago, expiring in 1m00.5s: "in 1m" turns "in 59s" in
	// 0.5 s; then every second.
	nm, cmd := m.Update(changesMsg([]views.Change{{Table: data.TableSessions, Event: "INSERT", New: data.Item{
		"sessionId": s("sess_x"), "status": s("RUNNING"), "internalStatus": s("READY"), "projectId": s("proj_a"),
		"createdAt": s(now.Add(-2 * time.Hour).Format(time.RFC3339)),
		"expiresAt": n(strconv.FormatInt(now.Add(61*time.Second).Unix(), 10)),
	}}}))
	m, res := uitest.Settle(t, nm.(Model), cmd)
	m, res = uitest.Fire(t, m, res.Timers)
	for _, tm := range res.Timers {
		if _, ok := tm.Msg.(clockTickMsg); ok && tm.After > time.Second+clockSlack {
			t.Fatalf("clock armed for %v: a label entering the seconds range waits for the minute", tm.After)
		}
	}
}

// TestLabelsAreCurrentWhenThePaneComesBack: labels are held between clock
// ticks, but a pane shown again after a while draws them against the clock
// in its first frame, not a tick later.
func TestLabelsAreCurrentWhenThePaneComesBack(t *testing.T) {
	now := fixedNow
	m := New(Options{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }, Timer: uitest.Timer})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	nm, cmd := nm.(Model).Update(changesMsg([]views.Change{{Table: data.TableSessions, Event: "INSERT", New: data.Item{
		"sessionId": s("sess_a"), "status": s("RUNNING"), "internalStatus": s("READY"), "projectId": s("proj_a"),
		"createdAt": s(now.Add(-3 * time.Minute).Format(time.RFC3339)),
		"expiresAt": n(strconv.FormatInt(now.Add(2*time.Hour).Unix(), 10)),
	}}}))
	m, _ = uitest.Settle(t, nm.(Model), cmd)
	if !strings.Contains(m.Render(), "3m ago") {
		t.Fatalf("first frame:\n%s", m.Render())
	}
	nm, _ = m.Update(tea.KeyPressMsg{Code: '6', Text: "6"})
	now = now.Add(10 * time.Minute)
	nm, _ = nm.(Model).Update(tea.KeyPressMsg{Code: '1', Text: "1"})
	if got := nm.(Model).Render(); !strings.Contains(got, "13m ago") || !strings.Contains(got, "in 1h50m") {
		t.Fatalf("the pane shown again draws labels of ten minutes ago:\n%s", got)
	}
}
