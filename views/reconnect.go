package views

import "opsdeck/data"

// Reconnecting. When the console switches connection (`:env`, `:profile`,
// `:region`) the root swaps Context.Store, Tables and Seen and calls every
// pane's Reconnect: a row, count or record read through the old connection
// would be a lie under the new env's name, so all of it is dropped at once
// (before the new rows arrive, not when they do). Scopes, filters and the
// sub-view shown stay; the root then calls Init on the shown pane, and the
// others load when shown, as at start.

// Reconnect forgets every list's rows and load state, and a scan result.
func (b *base) Reconnect() {
	b.dropScan()
	for _, l := range b.lists {
		l.reconnect()
	}
}

// reconnect empties the list and makes its next Init load it again. A
// load or poll in flight is cancelled; its late answer is dropped (its
// request id is no longer awaited).
func (l *list) reconnect() {
	l.stop()
	l.ld = loadState{}
	l.poll = pollState{}
	l.resetItems(0)
	l.table.SetRows(nil)
	l.table.ClearMarks()
	l.closeDetail()
	l.note = ""
	l.refreshEmpty()
}

// Reconnect also forgets the project's quota (read from the old env); Init
// reads it again.
func (p *Sessions) Reconnect() {
	p.base.Reconnect()
	p.resetQuota(p.quota.gen + 1)
}

// Reconnect empties the record log: those records came from the old
// connection's streams. The narrowing and the filter stay.
func (s *Stream) Reconnect() {
	table, filter := s.live.Table(), s.live.Filter()
	s.live = newStreamModel(s.ctx, s.opts)
	s.live.SetTable(table)
	s.live.SetFilter(filter)
	s.live.SetSize(s.w, s.h)
}

// Reconnect forgets the numbers and the users and projects seen: all of it
// was read through the connection the console has left. A count in flight
// is cancelled and, when its answer comes back, replaced by a count through
// the new connection, so the re-count timer (and the alerts shown from any
// pane) keep going; without one, Init or the next timer counts again.
func (p *Overview) Reconnect() {
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	p.orphan = p.counting
	p.ov, p.have, p.err = data.Overview{}, false, ""
	p.seenEvents, p.seenRuns, p.seenProjects = nil, nil, nil
	p.during, p.overflow, p.dirty = nil, nil, false
	p.recent.reset()
	p.firing = map[string]bool{}
	p.cursor, p.top = 0, 0
}
