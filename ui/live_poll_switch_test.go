package ui

import (
	"strings"
	"testing"
	"time"

	"opsdeck/views"
)

// TestSwitchPollsAtOnce: with a fallback interval far longer than the
// test, a write to a polled table shows up when the operator switches back
// to its pane — only an immediate poll on switch can bring it.
func TestSwitchPollsAtOnce(t *testing.T) {
	r := newPollRig(t, "ps")
	r.putSandbox(t, sandbox("a", "sw-a", "available"))
	tm, frames := r.start(t, time.Hour)
	tm.Type("5")
	waitFor(t, frames, "the Sandboxes pane to list sw-a and say polling", func(f frame) bool {
		return f.active == views.PaneSandboxes && f.status.Rows == 1 && !f.status.Loading &&
			titleOf(f).contains("polling every")
	})
	tm.Type("1")
	waitFor(t, frames, "the Sessions pane", func(f frame) bool { return f.active == views.PaneSessions })
	r.putSandbox(t, sandbox("b", "sw-b", "available"))
	tm.Type("5")
	waitFor(t, frames, "switching back to poll at once and show sw-b", func(f frame) bool {
		return f.active == views.PaneSandboxes && f.status.Rows == 2 && strings.Contains(stripANSI(f.screen), "sw-b")
	})
}
