package views

import (
	"opsdeck/data"
)

// The live tail's changes applied to a list's rows in place.

// apply is the live-tail hook (see Pane.Apply).
func (l *list) apply(changes []Change) {
	if !l.hasScope {
		return
	}
	now, th := l.ctx.now(), l.ctx.Theme
	for _, c := range changes {
		if c.Table != l.scope.Table {
			continue
		}
		src := c.New
		if src == nil {
			src = c.Keys
		}
		id := rowID(c.Table, src, -1)
		if c.New != nil && l.scope.Matches(c.New) {
			rec := data.Decode(c.Table, c.New)
			if rec == nil {
				continue
			}
			l.upsertLive(id, rec, now, th)
			continue
		}
		if old, ok := l.getItem(id); ok {
			l.dropItem(id)
			l.table.Remove(id)
			if c.TTL {
				l.note = ttlNote(c.Table, old, l.kind)
			}
		}
	}
}
