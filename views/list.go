package views

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views/detail"
	"opsdeck/views/vtable"
)

// list is the base every pane is built from: one paginated query shown in a
// virtual table, with its own loading state, and the detail view of the
// selected row. Panes with several sub-views (Sessions: sessions, API keys,
// contexts) hold several lists.
type list struct {
	ctx  *Context
	pane PaneID
	// pr is how the list's table looks (present.go); kind names what the
	// list shows ("sessions", "API keys"), for notes.
	pr    presenter
	kind  string
	rowOf rowFunc // pr.row, every cell masked
	table vtable.Model
	// items maps row id → where its raw item is kept; blocks keeps them,
	// compressed a page at a time (itemstore.go). Records are decoded
	// again when needed (detail, selection): keeping 100k decoded records,
	// or even 100k items as SDK values, would not fit the memory budget.
	items  map[string]itemLoc
	blocks itemBlocks
	// attrs caches the attribute values the filter has read, by
	// attribute then row id (list_filter.go).
	attrs map[string]map[string]attrText
	texts cellTexts // shared cell strings (celltext.go)

	// scope is what the current query lists (for titles and the live tail);
	// fetch runs it. hint is shown instead of rows when there is no scope
	// yet (e.g. Runs before a user is chosen).
	scope    data.Scope
	hasScope bool
	fetch    fetchFunc
	hint     string
	// selectID, when set, is selected once a page containing it arrives
	// (`:session <id>`).
	selectID string
	// A lookup by id (lookup.go) sets these after its scope: title names
	// what was looked up, missing is the empty table's text once the read
	// is over ("no API key with hash …"), and seek follows empty pages of
	// a filtered read until the item shows or the partition ends.
	title, missing string
	seek           bool

	ld loadState

	detail   *detail.Model
	detailID string
	note     string

	// poll is the live tail's polling fallback (live_poll.go).
	poll pollState

	// only: the attributes the list reads (whole.go); wholeReq: the whole
	// item read in flight for the detail view or the copy.
	only     []string
	wholeReq uint64

	// retimedAt, retimedWin: when the window was last rendered against
	// the clock, and its rows then (retime.go).
	retimedAt  time.Time
	retimedWin []string
}

// newList is a list of pr's table in pane.
func newList(c *Context, pane PaneID, pr presenter) *list {
	l := &list{ctx: c, pane: pane, pr: pr, kind: pr.kind, rowOf: maskedRows(pr.row)}
	l.resetItems(0)
	l.table = vtable.New(pr.columns(), c.Theme)
	l.table.SetNow(c.Now)
	return l
}

// setScope points the list at a new query. Rows of the old scope are
// dropped at once (they would be misleading under the new title) and any
// load in flight is cancelled. f reads one page; nil reads the scope with
// Store.Page (tests pass their own).
func (l *list) setScope(s data.Scope, f fetchFunc) {
	if f == nil {
		// Tests pass their own fetch, with whole items: no projection.
		s = l.project(s)
		f = pageFetch(s)
	}
	l.stop()
	l.scope, l.fetch, l.hasScope = s, f, true
	l.shape(s)
	l.ld = loadState{}
	l.resetItems(0)
	l.table.SetRows(nil)
	l.table.ClearMarks()
	l.closeDetail()
	l.note = ""
	l.title, l.missing, l.seek = "", "", false
}

// clearScope leaves the list without a query: it shows its hint.
func (l *list) clearScope() {
	l.setScope(data.Scope{}, nil)
	l.hasScope = false
	l.refreshEmpty()
}

// update handles keys for this list (the pane has focus, no prompt open).
func (l *list) update(msg tea.Msg) tea.Cmd {
	km := l.ctx.Keys
	if l.detail != nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, km.Back) {
			l.closeDetail()
			return nil
		}
		d, cmd := l.detail.Update(msg, km)
		l.detail = &d
		return cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, km.Enter):
		return l.openDetail(false)
	case key.Matches(k, km.Reveal):
		// Secrets never appear in columns (maskedRows); revealing opens
		// the selected item with its secrets shown — that item only.
		return l.openDetail(true)
	case key.Matches(k, km.Copy):
		return l.copySelected()
	case key.Matches(k, km.Reload):
		return l.load()
	case key.Matches(k, km.LoadAll):
		return l.loadAll()
	case key.Matches(k, km.SortNext):
		l.table.CycleSort()
		return nil
	case key.Matches(k, km.SortReverse):
		l.table.ReverseSort()
		return nil
	}
	l.table, _ = l.table.Update(msg, km)
	// Scrolling past the last row asks for the next page.
	if (key.Matches(k, km.Down) || key.Matches(k, km.PageDown) || key.Matches(k, km.Bottom) || key.Matches(k, km.Mark)) && l.table.AtBottom() {
		return l.more()
	}
	return nil
}

func (l *list) setSize(w, h int) {
	l.table.SetSize(w, h)
	if l.detail != nil {
		l.detail.SetSize(w, h)
	}
}

func (l *list) view() string {
	if l.detail != nil {
		return l.detail.View()
	}
	return l.table.View()
}

// status reports the list's state for the status bar.
func (l *list) status() Status {
	s := Status{
		Loading:  l.ld.loading,
		Progress: -1,
		Rows:     l.table.Len(),
		Visible:  l.table.VisibleLen(),
		More:     l.ld.next != nil,
		Consumed: l.ld.consumed,
		HasReq:   l.ld.hasReq,
		Err:      l.ld.err,
		Note:     l.note,
		Sort:     l.table.SortLabel(),
		Sortable: true,
	}
	if w := l.waited(); w >= time.Second {
		s.Waiting = l.waitingText()
		s.Waited = w
	}
	if l.ld.all {
		s.Progress = 0
		if l.ld.estimate > 0 {
			s.Progress = min(float64(l.table.Len())/float64(l.ld.estimate), 0.99)
		}
	}
	return s
}

// emptyText is what the table says when there are no rows.
func (l *list) emptyText() string {
	switch {
	case !l.hasScope:
		return l.hint
	case l.ld.loading && l.table.Len() == 0:
		return l.waitingText()
	case l.ld.err != "":
		return "error: " + l.ld.err
	case l.ld.cancelled:
		// Not "no rows": nothing is known about this scope.
		return "load cancelled before any " + l.kind + " arrived — r loads again"
	case l.missing != "" && l.ld.next != nil:
		return l.missing + " in the pages read so far — scroll or L reads on"
	case l.missing != "":
		return l.missing
	}
	return "no " + l.kind + " in this scope"
}

// refreshEmpty keeps the empty-table text in step with the load state.
func (l *list) refreshEmpty() { l.table.SetEmptyText(l.emptyText()) }
