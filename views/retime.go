package views

import (
	"slices"
	"time"

	"opsdeck/data"
)

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

// NextRetime is when a row on screen next changes by the clock: the
// earliest label change of its live columns (RelativeWake: changes of
// minute labels come together on the minute), and within a second when
// rows moved into the window since the last retime (they were rendered
// at another moment, maybe before an expiry passed).
func (b *base) NextRetime() time.Time {
	l := b.active()
	if l.detail != nil {
		return time.Time{}
	}
	now := l.ctx.now()
	next := l.table.NextChange(now, RelativeWake)
	if !slices.Equal(l.table.WindowIDs(), l.retimedWin) {
		if soon := now.Add(time.Second); next.IsZero() || soon.Before(next) {
			next = soon
		}
	}
	return next
}

// retime renders again the rows of the window whose look the clock
// changed since the last retime — all of them when the window moved.
func (l *list) retime() {
	if !l.hasScope && l.table.Len() == 0 {
		return
	}
	now, th := l.ctx.now(), l.ctx.Theme
	win := l.table.WindowIDs()
	ids := win
	if slices.Equal(win, l.retimedWin) && !l.retimedAt.IsZero() {
		ids = l.table.Changed(l.retimedAt, now, RelativeNext)
	}
	l.retimedAt, l.retimedWin = now, win
	for _, id := range ids {
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
	l.table.LabelsAt(now)
}
