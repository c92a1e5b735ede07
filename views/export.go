package views

import (
	"errors"
	"time"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/views/vtable"
)

// ExportSet is what `:export` writes: the marked rows, else the rows the
// filter shows, in screen order. It holds each row's cells and where its
// item is kept — the compressed blocks themselves, which are never changed
// in place — not the items: 100k decoded items would be gigabytes. Records
// decodes them a chunk at a time, and reads nothing of the list, so the
// export's tea.Cmd steps may call it.
type ExportSet struct {
	Table  data.TableID
	Header []string // every column's title, in order
	Marked bool     // the marked rows (else the filtered ones)
	Hidden int      // marked rows the filter hides (included)

	rows   []exportRow
	blocks []blockRef
}

type exportRow struct {
	loc   itemLoc
	loose data.Item // the item, when it is kept loose
	cells []string
}

type blockRef struct {
	z     []byte
	plain bool
}

// Len is the number of rows to write.
func (s ExportSet) Len() int { return len(s.rows) }

// Records returns rows [from, to) with their items, decoding each block
// they need once. A row whose item cannot be read (a damaged block) is
// left out.
func (s ExportSet) Records(from, to int) []export.Record {
	from, to = max(from, 0), min(to, len(s.rows))
	decoded := map[uint32][]data.Item{}
	out := make([]export.Record, 0, max(to-from, 0))
	for _, r := range s.rows[from:to] {
		it := r.loose
		if it == nil {
			items, ok := decoded[r.loc.pack]
			if !ok && int(r.loc.pack) < len(s.blocks) {
				b := s.blocks[r.loc.pack]
				if b.z != nil {
					items = decodeBlock(b.z, b.plain)
				}
				decoded[r.loc.pack] = items
			}
			if int(r.loc.pos) < len(items) {
				it = items[r.loc.pos]
			}
		}
		if it != nil {
			out = append(out, export.Record{Item: it, Cells: r.cells})
		}
	}
	return out
}

// ExportRows gathers the rows to export (cells and item locations only).
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
	set.blocks = make([]blockRef, len(l.blocks.packs))
	for i, p := range l.blocks.packs {
		set.blocks[i] = blockRef{z: p.z, plain: p.plain}
	}
	set.rows = make([]exportRow, 0, len(ids))
	for _, id := range ids {
		loc, ok := l.items[id]
		row, shown := l.table.Row(id)
		if !ok || !shown {
			continue
		}
		r := exportRow{loc: loc, cells: exportCells(cols, row)}
		if loc.pos == looseLoc {
			if r.loose = l.blocks.loose[id]; r.loose == nil {
				continue
			}
		}
		set.rows = append(set.rows, r)
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
