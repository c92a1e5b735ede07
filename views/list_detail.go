package views

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/views/detail"
)

// The row under the cursor and the marked rows: what actions act on, and
// the detail view of one item.

func (l *list) selectedRecord() (data.Record, string, bool) {
	id := l.table.SelectedID()
	it, ok := l.getItem(id)
	if !ok || id == "" {
		return nil, "", false
	}
	r := data.Decode(l.scope.Table, it)
	return r, id, r != nil
}

func (l *list) openDetail(reveal bool) tea.Cmd {
	r, id, ok := l.selectedRecord()
	if !ok {
		return nil
	}
	if !l.whole(id) {
		return l.readWhole(id, r.Item(), reveal, false)
	}
	l.showDetail(r, id, reveal)
	return nil
}

// showDetail opens the detail view of a whole record.
func (l *list) showDetail(r data.Record, id string, reveal bool) {
	d := detail.New(r.Item(), detail.Options{
		Title:    detailTitle(r),
		Theme:    l.ctx.Theme,
		Mask:     secret.Default,
		Reveal:   reveal,
		Problems: problemNotes(r.Issues()),
		First:    keyNames(r.Table()),
		Epochs:   data.EpochAttrs(r.Table()),
		Now:      l.ctx.now,
		Loc:      l.ctx.Location,
		Relative: Relative,
	})
	w, h := l.table.Size()
	d.SetSize(w, h)
	l.detail, l.detailID = &d, id
}

func (l *list) closeDetail() {
	l.detail, l.detailID = nil, ""
}

// copySelected copies the selected item as JSON, secrets masked (revealing
// happens in the detail view, deliberately, one item at a time).
func (l *list) copySelected() tea.Cmd {
	r, id, ok := l.selectedRecord()
	if !ok {
		return nil
	}
	if !l.whole(id) {
		return l.readWhole(id, r.Item(), false, true)
	}
	return copyRecord(r)
}

func (l *list) selectedItem() (data.Item, bool) {
	r, _, ok := l.selectedRecord()
	if !ok {
		return nil, false
	}
	return r.Item(), true
}

func (l *list) marked() ([]data.Item, int) {
	ids := l.table.Marked()
	out := make([]data.Item, 0, len(ids))
	for _, id := range ids {
		if it, ok := l.getItem(id); ok {
			out = append(out, it)
		}
	}
	return out, l.table.MarkedHidden()
}
