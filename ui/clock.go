package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Relative times ("5s ago", "in 7m") are formatted when drawn, so they are
// right whenever a frame is drawn; the clock makes sure one is drawn about
// once a second while such a column is on screen, and re-renders the shown
// rows so that styling tied to the clock (an expiry passing) follows. It
// also ticks while the shown pane waits for a read, whose elapsed time is
// on screen. It does not tick otherwise: an idle console with no times on
// screen stays idle.

// clockEvery is how often live times are redrawn.
const clockEvery = time.Second

// clockTickMsg: gen is the arming it answers; a tick that a sooner one
// replaced is ignored.
type clockTickMsg struct{ gen uint64 }

// clockSlack is how long after a label's change the tick comes, so the
// clock it reads has certainly passed the change.
const clockSlack = 10 * time.Millisecond

// armClock arms the tick for the next moment the screen changes by the
// clock: the next label change of the shown pane's rows (views.Retimer),
// or within a second while a load runs. Nothing is armed when nothing
// will change; a tick already armed early enough is kept.
func (m *Model) armClock() tea.Cmd {
	if m.quitting {
		return nil
	}
	p := m.panes[m.active]
	now := m.ctx.Now()
	var at time.Time
	if p.Status().Loading {
		at = now.Add(clockEvery)
	}
	if m.liveTimesShown() {
		n := p.retime.NextRetime()
		if !n.IsZero() && !n.After(now) {
			// Labels out of date on the frame about to be drawn (the pane
			// was just shown again, say): brought to the clock now, not a
			// frame later.
			p.retime.Retime()
			n = p.retime.NextRetime()
		}
		if !n.IsZero() && (at.IsZero() || n.Add(clockSlack).Before(at)) {
			at = n.Add(clockSlack)
		}
	}
	if at.IsZero() || m.clockArmed && !m.clockAt.After(at) {
		return nil
	}
	m.clockGen++
	m.clockArmed, m.clockAt = true, at
	return m.ctx.After(max(at.Sub(now), 0), clockTickMsg{gen: m.clockGen})
}

// onClockTick re-renders the shown rows the clock changed and arms the
// next tick.
func (m Model) onClockTick(t clockTickMsg) (tea.Model, tea.Cmd) {
	if t.gen != m.clockGen {
		return m, nil
	}
	m.clockArmed = false
	if r := m.panes[m.active].retime; m.mode != modeHelp && r != nil {
		r.Retime()
	}
	return m, m.armClock()
}

func (m Model) liveTimesShown() bool {
	r := m.panes[m.active].retime
	return m.mode != modeHelp && r != nil && r.LiveTimes()
}
