package ui

import (
	"strings"
	"testing"

	"opsdeck/data"
	"opsdeck/views"
)

// TestJumpSessionToProjectAndBack: o on a session shows its project
// (sessions, quota; API keys and contexts a v away), b returns to the
// sessions by status, on the same scope.
func TestJumpSessionToProjectAndBack(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.Scopes.ProjectID = ""
	m := start(t, o, 120, 40)
	before := m.slotOf(views.PaneSessions).scope.CurrentScope()
	if before != data.SessionsByStatus(data.SessionRunning) {
		t.Fatalf("start scope %s", before)
	}
	_, it, ok := m.slotOf(views.PaneSessions).sel.SelectedRecord()
	if !ok {
		t.Fatal("no session selected")
	}
	project := data.DecodeSession(it).ProjectID
	m, _ = press(t, m, "o")
	if got := m.slotOf(views.PaneSessions).scope.CurrentScope(); m.Active() != views.PaneSessions || got != data.SessionsByProject(project) {
		t.Fatalf("after o: %v %s, want sessions of project %s (flash %q)", m.Active(), got, project, m.Flash())
	}
	if st := m.slotOf(views.PaneSessions).Status(); st.Rows == 0 || st.Err != "" {
		t.Fatalf("the project's sessions did not load: %+v", st)
	}
	m, _ = press(t, m, "b")
	if got := m.slotOf(views.PaneSessions).scope.CurrentScope(); got != before {
		t.Fatalf("after b: %s, want %s", got, before)
	}
}

// TestJumpSandboxToTrackAndEventToType: a sandbox opens the sandboxes of
// its track, an event its user's inbox narrowed to its type.
func TestJumpSandboxToTrackAndEventToType(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.Scopes.SandboxStatus = data.SandboxAllocated
	m := start(t, o, 120, 40)
	m, _ = press(t, m, "5")
	_, it, ok := m.slotOf(views.PaneSandboxes).sel.SelectedRecord()
	if !ok {
		t.Fatal("no sandbox selected")
	}
	track := data.DecodeSandbox(it).AllocatedToTrack
	m, _ = press(t, m, "o")
	if got := m.slotOf(views.PaneSandboxes).scope.CurrentScope(); got != data.SandboxesByTrack(track) {
		t.Fatalf("after o on a sandbox: %s, want track %s (flash %q)", got, track, m.Flash())
	}

	m, _ = press(t, m, "3")
	_, it, ok = m.slotOf(views.PaneInbox).sel.SelectedRecord()
	if !ok {
		t.Fatal("no event selected")
	}
	ev := data.DecodeEvent(it)
	m, _ = press(t, m, "o")
	if got := m.slotOf(views.PaneInbox).scope.CurrentScope(); got != data.EventsByType(ev.UserID, ev.EventType+"#") {
		t.Fatalf("after o on an event: %s (flash %q)", got, m.Flash())
	}
	m, _ = press(t, m, "b")
	if m.Active() != views.PaneInbox || m.slotOf(views.PaneInbox).scope.CurrentScope() != data.EventsFor(w.rep.Defaults.InboxUser, "", "") {
		t.Fatalf("b did not return to the inbox: %v %s", m.Active(), m.slotOf(views.PaneInbox).scope.CurrentScope())
	}
}

// TestGotoCommand: :goto does what the keys do, and refuses a word it does
// not know.
func TestGotoCommand(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.Scopes.ProjectID = ""
	m := start(t, o, 120, 40)
	_, it, _ := m.slotOf(views.PaneSessions).sel.SelectedRecord()
	m, _ = press(t, m, append(append([]string{":"}, strings.Split("goto related", "")...), "enter")...)
	if got := m.slotOf(views.PaneSessions).scope.CurrentScope(); got != data.SessionsByProject(data.DecodeSession(it).ProjectID) {
		t.Fatalf(":goto related: %s (flash %q)", got, m.Flash())
	}
	m, _ = press(t, m, append(append([]string{":"}, strings.Split("goto nowhere", "")...), "enter")...)
	if !strings.Contains(m.Flash(), "related, context or back") {
		t.Fatalf("a bad :goto: flash %q", m.Flash())
	}
}
