package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/views"
)

// footerLine is the last line of the frame: the command or filter prompt.
func footerLine(m Model) string {
	lines := strings.Split(m.Render(), "\n")
	return lines[len(lines)-1]
}

// TestCommandLineKeepsIDsExactAndShowsThemInert: tab completion and ↑
// history put a tenant id with a bidi override, a zero-width space, an ESC
// sequence and a space into the command line. The line shows escapes (no
// live character reaches the terminal) and keeps the real value, so the
// command finds the session.
func TestCommandLineKeepsIDsExactAndShowsThemInert(t *testing.T) {
	w := newActWorld(t)
	id := "sess_\u202egnp\u200b\x1b[2J x"
	w.session(id, "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)

	m, _ = press(t, m, ":")
	m = typeText(t, m, "session sess_")
	m, _ = press(t, m, "tab")
	foot := footerLine(m)
	assertInert(t, "completed command line", foot)
	if got := stripANSI(foot); !strings.Contains(got, `session "sess_\u202egnp\u200b\x1b[2J x"`) {
		t.Fatalf("completion not shown escaped and quoted: %q", got)
	}
	m, _ = press(t, m, "enter")
	p := m.slotOf(views.PaneSessions)
	if st := p.Status(); st.Err != "" || st.Rows != 1 {
		t.Fatalf("the completed command did not find the session (rows %d, err %q, flash %q)", st.Rows, st.Err, m.Flash())
	}
	if it, _ := p.sel.Selected(); attr(it, "sessionId") != id {
		t.Fatalf("selected %q, want %q", attr(it, "sessionId"), id)
	}

	// The same line from history.
	m, _ = runLine(t, m, "sessions "+w.tenant)
	m, _ = press(t, m, ":", "up", "up")
	foot = footerLine(m)
	assertInert(t, "recalled command line", foot)
	if !strings.Contains(stripANSI(foot), `sess_\u202egnp`) {
		t.Fatalf("history not shown escaped: %q", stripANSI(foot))
	}
	m, _ = press(t, m, "enter")
	if it, _ := p.sel.Selected(); attr(it, "sessionId") != id || p.Status().Rows != 1 {
		t.Fatalf("the recalled command did not find the session: %q", attr(it, "sessionId"))
	}
}

// TestPasteIntoTheFilterKeepsItInert: a pasted filter with control and
// bidi characters narrows by the real text and is drawn as escapes.
func TestPasteIntoTheFilterKeepsItInert(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_plain", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.session("sess_\u202eevil", "RUNNING", "READY", fixedNow.Add(-2*time.Hour))
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "/")
	nm, cmd := m.Update(tea.PasteMsg{Content: "\u202eevil"})
	m, _ = settle(t, nm.(Model), cmd)
	assertInert(t, "filter line", m.Render())
	if got := stripANSI(footerLine(m)); !strings.Contains(got, `/\u202eevil`) {
		t.Fatalf("filter not shown escaped: %q", got)
	}
	if st := m.slotOf(views.PaneSessions).Status(); st.Visible != 1 {
		t.Fatalf("filter by the pasted text shows %d rows, want 1", st.Visible)
	}
}

// A consumer DID that cannot be typed (a bidi override and a clear-screen
// sequence) is reachable by completion: after a scan of the consumers
// table shows it, :consumers <tab> offers it and finds its row.
func TestUntypeableConsumerIsCompleted(t *testing.T) {
	w := seeded(t)
	hostile := w.rep.Hostile.Consumer
	m := start(t, w.options(), 120, 40)
	m, _ = runLine(t, m, "scan consumers")
	m, _ = press(t, m, "y")
	if m.Active() != views.PaneDelegations || m.slotOf(views.PaneDelegations).Status().Rows == 0 {
		t.Fatalf("the scan of consumers shows nothing:\n%s", screen(m, w.prefix))
	}
	m, _ = press(t, m, ":")
	m = typeText(t, m, "consumers ")
	found := false
	for i := 0; i < 60 && !found; i++ {
		m, _ = press(t, m, "tab")
		found = m.input.Value() == "consumers "+hostile
	}
	if !found {
		t.Fatalf("tab never offered %q (line %q)", hostile, m.input.Value())
	}
	m, _ = press(t, m, "enter")
	if st := m.slotOf(views.PaneDelegations).Status(); st.Err != "" || st.Rows == 0 {
		t.Fatalf("the completed consumer found %d rows (%q):\n%s", st.Rows, st.Err, screen(m, w.prefix))
	}
}
