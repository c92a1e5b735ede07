package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Quitting with a write in flight. The write was confirmed and sent: if the
// console went at once, the write could land after it with no audit line,
// and a release's StopTask would never be sent. So a quit — q, :q, or
// SIGTERM/SIGHUP/SIGINT from outside (main sends QuitMsg) — first finishes
// the write: its answer, its read-back, its step after the write and its
// audit lines, each within its own deadline. ctrl+c (or a second signal)
// gives it up knowingly instead: each write still in flight gets an audit
// line saying its outcome is unknown, abandoned at quit, with its attempt
// token, and the console goes. A marked-rows run stops after the current
// row, as esc stops it.

// QuitMsg asks the console to quit. main sends it on SIGTERM, SIGHUP and
// SIGINT, and when the terminal goes away; Signal names the cause.
type QuitMsg struct{ Signal string }

// SignalGrace is how long a quit by signal waits for a write in flight
// before abandoning it: whoever sent the signal expects the console gone
// within seconds, and may follow up with SIGKILL, which no line survives.
const SignalGrace = 5 * time.Second

// quitDrain is the state of a quit waiting for writes.
type quitDrain struct {
	signal string // "" for q / :q
}

// abandonWritesMsg: the signal's grace is over.
type abandonWritesMsg struct{}

// abandonedMsg: the abandoned writes are on record (msgs: their lines'
// messages); the console goes.
type abandonedMsg struct{ msgs []string }

// drainHint is the status bar's line while a quit waits.
func drainHint(n int, signal string) string {
	w := "write"
	if n != 1 {
		w = "writes"
	}
	s := fmt.Sprintf("finishing %d %s… (ctrl+c again to abandon)", n, w)
	if signal != "" {
		s = fmt.Sprintf("%s: finishing %d %s… (ctrl+c again to abandon; abandoned in %s)", signal, n, w, SignalGrace)
	}
	return s
}

// writesInFlight is how many writes a quit must wait for: actions run one
// write at a time (a bulk run too, row after row).
func (a *actionState) writesInFlight() int {
	if a.busy != 0 {
		return 1
	}
	return 0
}

// requestQuit quits, or waits for the write in flight first.
func (a *actionState) requestQuit(r *Model, signal string) tea.Cmd {
	n := a.writesInFlight()
	if n == 0 {
		r.quitting = true
		return tea.Quit
	}
	if a.drain != nil {
		if signal != "" {
			// A second signal: the sender insists.
			return a.abandonWrites(r)
		}
		a.showDrain(r, n)
		return nil
	}
	a.drain = &quitDrain{signal: signal}
	if d, ok := r.dialog.(*bulkDialog); ok && d.Running() {
		d.stopping = true // no row after the current one
	}
	a.showDrain(r, n)
	if signal == "" {
		return nil
	}
	return r.ctx.After(SignalGrace, abandonWritesMsg{})
}

// drainKey is every key while a quit waits: ctrl+c abandons; the rest only
// repeat what is going on.
func (a *actionState) drainKey(r *Model, k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, r.ctx.Keys.Cancel) {
		return a.abandonWrites(r)
	}
	a.showDrain(r, max(a.writesInFlight(), 1))
	return nil
}

// showDrain says what the quit waits for, whole in the footer too: the
// operator must see how to abandon it.
func (a *actionState) showDrain(r *Model, n int) {
	hint := drainHint(n, a.drain.signal)
	// Pending: it stays on the message line (whole, its own line) until
	// the write's answer replaces it.
	// the same hint again (a key pressed while waiting) is not logged twice.
	r.setPending(hint, r.flash != maskText(hint))
	if d, ok := r.dialog.(*bulkDialog); ok && d.Running() {
		d.quitNote = hint + " — no row after this one"
	}
}

// abandonWrites records every write still in flight as abandoned, then
// quits.
func (a *actionState) abandonWrites(r *Model) tea.Cmd {
	r.quitting = true
	flights := a.run.flights
	return func() tea.Msg {
		msgs, _ := flights.Abandon() // an unwritable log already refuses every action
		return abandonedMsg{msgs: msgs}
	}
}

// abandoned quits, keeping what was abandoned for main to print.
func (a *actionState) abandoned(r *Model, msg abandonedMsg) tea.Cmd {
	if len(msg.msgs) > 0 {
		a.farewell = "abandoned at quit: " + strings.Join(msg.msgs, "; ")
	}
	return tea.Quit
}

// drained quits once a waiting quit has no write left (called after each
// action message); cmd is what the message asked for otherwise.
func (a *actionState) drained(r *Model, cmd tea.Cmd) tea.Cmd {
	if a.drain == nil || a.writesInFlight() > 0 || r.quitting {
		return cmd
	}
	// What the write came to is in the audit log; the last line of the
	// status bar is kept for main to print once the screen is gone.
	r.quitting = true
	a.farewell = strings.TrimSpace(r.flash)
	return tea.Quit
}

// Farewell is the outcome of the write a quit waited for, or what it
// abandoned ("" when it waited for none): main prints it after the
// terminal is given back.
func (m Model) Farewell() string { return m.act.farewell }
