package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"opsdeck/views"
)

// pageIn runs cmd (and the commands it batches) until one of them answers
// with a page of the pipeline.
func pageIn(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if p := pageIn(t, c); p != nil {
				return p
			}
		}
	default:
		if views.IsPage(msg) {
			return msg
		}
	}
	return nil
}

// While the shown pane loads all, a page's answer holds the frame whatever
// is open over the pane: drawing the help screen again for every page is
// work nobody reads. The tick that follows draws what was held.
func TestPagesHoldTheFrameUnderTheHelpScreen(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.PageSize = 5
	m := start(t, o, 120, 40)
	nm, load := m.Update(keyMsg("L"))
	nm, _ = nm.(Model).Update(keyMsg("?"))
	m = nm.(Model)
	if m.Mode() != "help" || m.slotOf(views.PaneSessions).Status().Progress < 0 {
		t.Fatalf("mode %s, status %+v: want help open over a load-all", m.Mode(), m.slotOf(views.PaneSessions).Status())
	}
	m.View()
	page := pageIn(t, load)
	if page == nil {
		t.Fatal("the load-all asked for no page")
	}
	nm, tick := m.Update(page)
	m = nm.(Model)
	if !m.frames.held || tick == nil {
		t.Fatalf("a page under the help screen: held %v, tick armed %v; want the frame held until the tick", m.frames.held, tick != nil)
	}
	nm, _ = m.Update(frameTickMsg{})
	if nm.(Model).frames.held {
		t.Error("the frame tick did not release the held frame")
	}
}
