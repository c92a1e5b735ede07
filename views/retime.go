package views

import "opsdeck/data"

// Relative times stay live. The text of a live time column is formatted
// when drawn (vtable Column.Relative), but what a row looks like can also
// depend on the clock in ways only the pane knows — a RUNNING session past
// its expiry gets "!" and a red EXPIRES, an allocation past its window
// reads "allocated (expired)", a delegation turns "expired …". Retime
// renders the rows on screen again with the current clock, so such
// styling follows when the moment passes. Only the window is touched (a
// few dozen rows), and their raw items are read from the list's store,
// whose one-block cache covers a window of adjacent rows.

// LiveTimes reports whether the shown table has a live time column on
// screen (cheap: no rows are touched).
func (b *base) LiveTimes() bool {
	l := b.active()
	return l.detail == nil && l.table.HasLiveColumns()
}

// Retime re-renders the shown list's window against the clock; false when
// no live time column is on screen (or the detail view covers the table).
func (b *base) Retime() bool {
	l := b.active()
	l.refreshEmpty() // a load's waiting time counts up
	if l.detail != nil || !l.table.HasLiveColumns() {
		return false
	}
	l.retime()
	return true
}

func (l *list) retime() {
	if !l.hasScope && l.table.Len() == 0 {
		return
	}
	now, th := l.ctx.now(), l.ctx.Theme
	for _, id := range l.table.WindowIDs() {
		it, ok := l.getItem(id)
		if !ok {
			continue
		}
		rec := data.Decode(l.scope.Table, it)
		if rec == nil {
			continue
		}
		l.table.Refresh(l.render(rec, now, th, id))
	}
}
