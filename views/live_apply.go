package views

import (
	"time"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// The live tail's changes applied to a list's rows in place.

// apply is the live-tail hook (see Applier).
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

// upsertLive puts a changed record into the rows, keeping the cursor, and
// highlights what changed: the whole row when it is new, else the cells
// whose text differs. A record identical on screen changes nothing visible
// (polling re-reads mostly unchanged rows) but its raw item is kept fresh.
func (l *list) upsertLive(id string, rec data.Record, now time.Time, th themes.Theme) {
	row := l.render(rec, now, th, id)
	l.putItem(id, rec.Item())
	if l.detailID == id && l.detail != nil {
		l.detail.SetItem(rec.Item())
	}
	old, existed := l.table.Row(id)
	var cols []int
	if existed {
		cols = changedCells(old, row)
		if len(cols) == 0 && old.Tag == row.Tag && old.Dim == row.Dim {
			if l.table.Filter() != "" {
				// No cell changed, but a filter on an attribute no
				// column shows may now hold or fail: place the row
				// again (no highlight: nothing on it changed).
				l.table.Upsert(row)
			}
			return
		}
	}
	l.table.Upsert(row)
	if !existed || len(cols) > 0 {
		l.table.Highlight(id, cols, now.Add(HighlightFor))
	}
}

// changedCells lists the columns whose text differs between two renderings
// of a row.
func changedCells(a, b vtable.Row) []int {
	var out []int
	for i := range b.Cells {
		if i >= len(a.Cells) || a.Cells[i].Text != b.Cells[i].Text {
			out = append(out, i)
		}
	}
	return out
}
