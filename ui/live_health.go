package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/views"
)

// The reader reports every failed call as "reconnecting" and the next good
// one as "live", so a single throttled GetRecords made the title and status
// bar flap "reconnecting → live" within a second, training on-call to
// ignore the word. What is shown is therefore debounced: a table that was
// live and starts reconnecting keeps showing live for reconnectGrace; if it
// is still reconnecting then, that is shown (a state that lasts is never
// hidden). Gap, off and polling are shown at once — they are never a blip.
// Only the display is debounced: the root's health (liveState.health) and
// the polling decision (needsPolling) keep the raw health.

// reconnectGrace is how long a live table may be reconnecting before it is
// shown as reconnecting.
const reconnectGrace = 2 * time.Second

// reconnectSeen is when a table left live for reconnecting (by the
// console's clock, Options.Now).
type reconnectSeen struct {
	since    time.Time
	fromLive bool
}

// healthSettleMsg makes the console draw again when a grace period ends, so
// a reconnect that lasted appears without waiting for a key.
type healthSettleMsg struct{}

// noteHealth records a health report's transition before it is stored, and
// returns the redraw for the end of a grace period it starts (nil if none),
// or the reload of panes a recovery makes stale.
func (l *liveTail) noteHealth(panes []*slot, h stream.Health) tea.Cmd {
	prev, known := l.health[h.Table]
	if h.State == stream.StateLive && known && prev.State != stream.StateLive {
		delete(l.reconnect, h.Table)
		return tailBackLive(panes, h.Table, prev.State)
	}
	if h.State != stream.StateReconnecting {
		delete(l.reconnect, h.Table)
		return nil
	}
	if known && prev.State == stream.StateReconnecting {
		// Still the same episode: its start stays, so a long one surfaces.
		return nil
	}
	if l.reconnect == nil {
		l.reconnect = map[data.TableID]reconnectSeen{}
	}
	fromLive := known && prev.State == stream.StateLive
	l.reconnect[h.Table] = reconnectSeen{since: l.ctx.Now(), fromLive: fromLive}
	if !fromLive {
		return nil
	}
	return l.ctx.After(reconnectGrace, healthSettleMsg{})
}

// shownHealth is a table's health as the console displays it: the raw
// health, except a reconnect from live younger than reconnectGrace, which
// still reads live.
func (l *liveTail) shownHealth(t data.TableID) (stream.Health, bool) {
	h, ok := l.health[t]
	if !ok || h.State != stream.StateReconnecting {
		return h, ok
	}
	seen, tracked := l.reconnect[t]
	if tracked && seen.fromLive && l.ctx.Now().Sub(seen.since) < reconnectGrace {
		return stream.Health{Table: t, State: stream.StateLive}, true
	}
	return h, true
}

// tailBackLive runs when a table's tail is live again. What panes showing that
// table say about the outage is stale now: a failed load's "cannot reach …"
// or a failed poll's note would stay in the status bar until the next key,
// long after the server answered again. A pane whose last read failed is
// read again; and after "off" or "polling" (the table or its stream was
// gone: it may have been re-created) so is every pane showing the table,
// since no stream record will ever correct rows read from the old table.
func tailBackLive(panes []*slot, t data.TableID, from stream.State) tea.Cmd {
	wasDown := from == stream.StateOff || from == stream.StatePolling
	var cmds []tea.Cmd
	for _, p := range panes {
		if p.shownTable() != t {
			continue
		}
		// A pane that shows table t's rows is a Poller (shownTable).
		if st := p.Status(); wasDown || st.Err != "" || strings.HasPrefix(st.Note, views.PollFailedNote) {
			cmds = append(cmds, p.poll.Reload())
		}
	}
	return tea.Batch(cmds...)
}

// streamNotAllowed says once why a table went to polling for want of a
// permission (the reader repeats nothing while it stays refused): the
// refused read and its resource, on the message line and in :messages.
func (l *liveTail) streamNotAllowed(r *Model, h stream.Health) {
	if prev, ok := l.health[h.Table]; ok && prev.NotAllowed && prev.Detail == h.Detail {
		return
	}
	r.setFlash(string(h.Table)+": "+h.Detail, true)
}
