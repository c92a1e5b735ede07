package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/views"
)

// During a load-all, pages arrive tens of times a second and each one
// changes the row count: drawing every one is work nobody reads, and
// under load it is CPU taken from the load itself. While the shown pane
// loads all, a page's answer does not draw a frame by itself, whatever is
// open over the pane (help, a dialog): frames come at most every
// frameEvery, and the last page's state is drawn when the load ends.
// Anything else — a key above all — draws at once.

// frameEvery is the shortest time between frames caused by pages: five
// a second keep the count moving for the eye, and against 100k rows they
// cost 0.3 CPU-seconds less than ten (BENCHMARKS.md, issue 13's fourth
// pass). Keys are not held.
const frameEvery = 200 * time.Millisecond

// frameHold is shared by the Model's copies (View has a value receiver).
type frameHold struct {
	last  string
	at    time.Time
	held  bool // the message just handled was a page: keep the last frame
	armed bool // a frameTickMsg is on its way
}

type frameTickMsg struct{}

// holdFrame decides, after msg was handled, whether the next View may
// reuse the last frame, and arms the tick that draws what a held frame
// left out.
func (m Model) holdFrame(msg tea.Msg) tea.Cmd {
	f := m.frames
	if f == nil {
		return nil
	}
	if _, tick := msg.(frameTickMsg); tick {
		f.armed, f.held = false, false
		return nil
	}
	f.held = views.IsPage(msg) && m.panes[m.active].Status().Progress >= 0
	if !f.held || f.armed {
		return nil
	}
	f.armed = true
	return m.ctx.After(frameEvery, frameTickMsg{})
}

// frame is the content of the next View: the last frame while held and
// recent, else a fresh one.
func (m Model) frame() string {
	f := m.frames
	if f != nil && f.held && f.last != "" && time.Since(f.at) < frameEvery {
		return f.last
	}
	s := m.Render()
	if f != nil {
		f.last, f.at = s, time.Now()
	}
	return s
}
