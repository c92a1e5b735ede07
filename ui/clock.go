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

type clockTickMsg struct{}

// armClock starts the tick when the shown pane has live times and none is
// on its way.
func (m *Model) armClock() tea.Cmd {
	if m.clockArmed || m.quitting || !m.liveTimesShown() && !m.panes[m.active].Status().Loading {
		return nil
	}
	m.clockArmed = true
	return m.ctx.After(clockEvery, clockTickMsg{})
}

// onClockTick re-renders the shown rows and re-arms while times are shown
// or a load runs (whose wait is counted on screen).
func (m Model) onClockTick() (tea.Model, tea.Cmd) {
	m.clockArmed = false
	if m.mode != modeHelp {
		m.panes[m.active].Retime()
	}
	return m, m.armClock()
}

func (m Model) liveTimesShown() bool {
	return m.mode != modeHelp && m.panes[m.active].LiveTimes()
}
