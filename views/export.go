package views

import (
	"errors"
	"time"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/views/vtable"
)

// ExportSet is what `:export` writes: the marked rows, else the rows the
// filter shows, in screen order, each with its raw item and its cells.
type ExportSet struct {
	Table   data.TableID
	Header  []string // every column's title, in order
	Records []export.Record
	Marked  bool // the marked rows (else the filtered ones)
	Hidden  int  // marked rows the filter hides (included)
}

// ExportRows gathers the rows to export. Items come from the item store
// block by block (each decompressed once), not row by row.
func (b *base) ExportRows() (ExportSet, error) { return b.active().exportRows() }

func (l *list) exportRows() (ExportSet, error) {
	if !l.hasScope {
		return ExportSet{}, errors.New("nothing listed to export")
	}
	set := ExportSet{Table: l.scope.Table}
	ids := l.table.Marked()
	if len(ids) > 0 {
		set.Marked, set.Hidden = true, l.table.MarkedHidden()
	} else {
		ids = l.table.VisibleIDs()
	}
	if len(ids) == 0 {
		return ExportSet{}, errors.New("no rows to export (the filter hides every row)")
	}
	cols := l.table.Columns()
	for _, c := range cols {
		set.Header = append(set.Header, c.Title)
	}
	want := make(map[string]data.Item, len(ids))
	for _, id := range ids {
		want[id] = nil
	}
	l.eachItem(func(it data.Item) bool {
		id := rowID(l.scope.Table, it, -1)
		if v, ok := want[id]; ok && v == nil {
			want[id] = it
		}
		return true
	})
	set.Records = make([]export.Record, 0, len(ids))
	for _, id := range ids {
		it := want[id]
		if it == nil {
			// A row whose key could not be recomputed: one by one.
			it, _ = l.getItem(id)
		}
		row, ok := l.table.Row(id)
		if it == nil || !ok {
			continue
		}
		set.Records = append(set.Records, export.Record{Item: it, Cells: exportCells(cols, row)})
	}
	return set, nil
}

// exportCells are a row's cells as shown, except that a time the screen
// shows relative to now ("3m ago") is written as the UTC time it stands
// for: a file outlives the moment.
func exportCells(cols []vtable.Column, row vtable.Row) []string {
	out := make([]string, len(cols))
	for i := range cols {
		if i >= len(row.Cells) {
			continue
		}
		c := row.Cells[i]
		out[i] = c.Text
		if cols[i].Relative != nil {
			if n, ok := c.SortKey(); ok {
				out[i] = time.Unix(0, int64(n*1e9)).UTC().Format(time.RFC3339)
			}
		}
	}
	return out
}
