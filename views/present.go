package views

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// presenter is how one table's items look, as data: the columns (each
// named by its Key), the row builder, which pane lists the table, and how a
// scope shapes the list. The panes, an explicit scan's result and the
// Stream pane all read it, so a table looks the same wherever it shows.
type presenter struct {
	table data.TableID
	kind  string // what a list of them is called: "sessions", "API keys"
	pane  PaneID // the pane that lists the table (a scan of it shows there)

	columns func() []vtable.Column
	row     rowFunc

	// order maps a sort-key attribute to the column (by Key) showing it:
	// a list whose scope is read in that attribute's order keeps the order
	// for rows the live tail inserts (vtable's natural order).
	order map[string]string
	// hides maps an attribute to the column (by Key) showing it, hidden
	// while the scope fixes the attribute's value: the title names it, and
	// the same value on every row would only take width from the ids.
	hides map[string]string
	// summary names, in order, the attributes that tell what a stream
	// record of this table is about (the Stream pane's summary column).
	summary []string
}

// rowFunc renders one record as a table row, its cells in the order of
// the presenter's columns. It reads nothing but its arguments: it runs in
// Update with the clock and theme of that moment, and on the goroutine that
// read a load-all page, with those of the page's request (prerender).
type rowFunc func(rec data.Record, now time.Time, th themes.Theme) vtable.Row

// presenters are the tables' presentations, each registered by the file
// that declares it (registerPresenter, in init): adding a table's
// presenter edits no list. A snapshot replaced whole, so the goroutines
// that build rows read it without a lock.
var presenters atomic.Pointer[[]presenter]

// registerPresenter adds (or replaces) table presentations; it returns
// the way to take them back (a test's own table).
func registerPresenter(ps ...presenter) (unregister func()) {
	edit := func(f func([]presenter) []presenter) {
		presentersMu.Lock()
		defer presentersMu.Unlock()
		var cur []presenter
		if old := presenters.Load(); old != nil {
			cur = slices.Clone(*old)
		}
		cur = f(cur)
		presenters.Store(&cur)
	}
	tables := make([]data.TableID, len(ps))
	for i, p := range ps {
		tables[i] = p.table
	}
	drop := func(cur []presenter) []presenter {
		return slices.DeleteFunc(cur, func(p presenter) bool { return slices.Contains(tables, p.table) })
	}
	edit(func(cur []presenter) []presenter { return append(drop(cur), ps...) })
	return func() { edit(drop) }
}

var presentersMu sync.Mutex

// allPresenters are the registered presentations.
func allPresenters() []presenter {
	if p := presenters.Load(); p != nil {
		return *p
	}
	return nil
}

// presenterOf is the presentation of table t: the one registered for it,
// else the generic one its descriptor gives (present_generic.go).
func presenterOf(t data.TableID) (presenter, bool) {
	all := allPresenters()
	i := slices.IndexFunc(all, func(p presenter) bool { return p.table == t })
	if i >= 0 {
		p := all[i]
		if p.pane == "" {
			p.pane = declaredPane(t)
		}
		return p, true
	}
	return genericPresenter(t)
}

// mustPresenter is presenterOf for the tables this package names itself.
func mustPresenter(t data.TableID) presenter {
	p, ok := presenterOf(t)
	if !ok {
		panic("views: no presenter for table " + string(t))
	}
	return p
}

// Summary is the attributes a stream record's summary lists for table t
// (nil for an unknown table: the summary falls back to the first ones by
// name).
func Summary(t data.TableID) []string {
	p, _ := presenterOf(t)
	return p.summary
}

// PaneOf is the pane that lists table t (where a scan of it is shown).
func PaneOf(t data.TableID) (PaneID, bool) {
	if data.IsUnmodeled(t) {
		return PaneTables, true // tables_present.go
	}
	p, ok := presenterOf(t)
	return p.pane, ok && p.pane != ""
}

// shape fits the list's columns to scope s: the columns whose value s
// fixes are hidden (every other one shown again) and rows keep the order
// s reads them in.
func (l *list) shape(s data.Scope) {
	var hide []string
	for attr, col := range l.pr.hides {
		if _, ok := s.Fixes(attr); ok {
			hide = append(hide, col)
		}
	}
	l.fixColumns(hide...)
	l.table.SetNaturalOrderByKey(l.pr.order[s.SortAttr()], s.NewestFirst)
}

// render is the one way a record becomes a row: the presenter's builder
// (cells masked, maskedRows), cell texts shared across rows, the row's id,
// and the "?" of an item that differs from its schema. Pages, live
// changes, polls, the clock and a theme change all come through here.
func (l *list) render(rec data.Record, now time.Time, th themes.Theme, id string) vtable.Row {
	return l.finish(l.rowOf(rec, now, th), rec, id)
}

// finish completes a row the list's rowOf built, here or ahead of the UI
// goroutine (prerender): the list's shared cell texts, the id, the "?".
func (l *list) finish(row vtable.Row, rec data.Record, id string) vtable.Row {
	l.texts.share(&row)
	row.ID = id
	if row.Tag == "" && len(rec.Issues()) > 0 {
		row.Tag = "?"
	}
	return row
}
