package views

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/views/detail"
)

// A list may read only the attributes its columns show (readOnly): a page
// of 1,000 sessions is then ~0.3 MB instead of 8, which is what makes
// load-all of a big project fast and small. An attribute no column shows
// (a secret, an event history) is then never fetched for the list; the
// detail view and the copy read the whole item by its key when asked
// (consistent GetItem), and the actions plan from whole items the root
// reads the same way (Partial).

// readOnly makes the list read only attrs (and the table's keys) of each
// item. Every attribute its row builder reads must be named, the required
// ones included, or the rows show blanks and "?".
func (l *list) readOnly(attrs ...string) { l.only = attrs }

// project applies the list's projection to a scope it is pointed at. A
// GetItem scope (one item) and a Via scope read whole items.
func (l *list) project(s data.Scope) data.Scope {
	if len(l.only) == 0 || s.Via != data.ViaKey || s.IsGet() || s.PKAttr == "" {
		return s
	}
	return s.Project(l.only...)
}

// Partial reports whether Selected (or Marked, when rows are marked) may
// give items with only some of their attributes.
func (b *base) Partial() bool {
	l := b.active()
	ids := l.table.Marked()
	if len(ids) == 0 || l.detail != nil {
		ids = []string{l.table.SelectedID()}
	}
	for _, id := range ids {
		if !l.whole(id) {
			return true
		}
	}
	return false
}

// whole reports whether the item kept for row id is the whole item: the
// list reads whole items, or the row came whole from the live tail (its
// stream image), not from a projected page.
func (l *list) whole(id string) bool {
	if l.scope.Only == "" {
		return true
	}
	loc, ok := l.items[id]
	return ok && loc.pos == looseLoc
}

// wholeMsg carries a whole item read for the detail view or the copy.
type wholeMsg struct {
	pane   PaneID
	req    uint64
	id     string
	reveal bool
	copy   bool
	item   data.Item
	found  bool
	err    error
}

func (m wholeMsg) PaneID() PaneID { return m.pane }

// readWhole reads the whole item of row id by its key; onWhole opens the
// detail view with it (or copies it).
func (l *list) readWhole(id string, it data.Item, reveal, copyIt bool) tea.Cmd {
	if l.ctx.Store == nil {
		return nil
	}
	l.wholeReq = reqSeq.Add(1)
	l.note = "reading the whole item…"
	var (
		req     = l.wholeReq
		pane    = l.pane
		st      = l.ctx.Store
		table   = l.scope.Table
		key     = data.KeyOf(table, it)
		timeout = l.ctx.readTimeout()
	)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		item, found, err := st.GetItem(ctx, table, key)
		return wholeMsg{pane: pane, req: req, id: id, reveal: reveal, copy: copyIt, item: item, found: found, err: err}
	}
}

// onWhole applies a whole item read for this list; false when the answer
// is not for it. An answer for a row the operator has left is dropped.
func (l *list) onWhole(m wholeMsg) (bool, tea.Cmd) {
	if m.req == 0 || m.req != l.wholeReq {
		return false, nil
	}
	l.wholeReq, l.note = 0, ""
	switch {
	case m.err != nil:
		l.note = "could not read the item: " + data.Describe(m.err)
		return true, nil
	case !m.found:
		l.note = "the item is gone: deleted since the list was read"
		return true, nil
	case l.table.SelectedID() != m.id || l.detail != nil:
		return true, nil
	}
	r := data.Decode(l.scope.Table, m.item)
	if r == nil {
		return true, nil
	}
	if m.copy {
		return true, copyRecord(r)
	}
	l.showDetail(r, m.id, m.reveal)
	return true, nil
}

// copyRecord copies a record as JSON, secrets masked.
func copyRecord(r data.Record) tea.Cmd {
	text, err := detail.JSONMasked(r.Item(), secret.Default)
	if err != nil {
		return func() tea.Msg { return detail.CopiedMsg{Err: err} }
	}
	n := len(text)
	return tea.Batch(detail.CopyCmd(text), func() tea.Msg { return detail.CopiedMsg{Bytes: n, Masked: true} })
}
