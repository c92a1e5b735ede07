package views

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// base implements Pane over one or more lists, one of which is shown. Each
// pane embeds it and adds its scope handling; the root model never sees
// the difference.
type base struct {
	ctx   *Context
	id    PaneID
	lists []*list
	cur   int
	w, h  int
	// header, when set, renders a one-line summary above the table
	// (Sessions: the project's quota).
	header func(width int) string

	// scan, when set, is an explicit scan's result shown instead of the
	// query lists (scan.go); choosing a query scope drops it.
	scan       *list
	scanResult ScanResult

	// shown is the scope ShowScope put in the first list; the title names
	// it while that list still shows it.
	shown data.Scope
}

func (b *base) ID() PaneID { return b.id }
func (b *base) active() *list {
	if b.scan != nil {
		return b.scan
	}
	return b.lists[b.cur]
}
func (b *base) Help() []key.Binding { return nil }

// Init loads the shown list's first page, once.
func (b *base) Init() tea.Cmd {
	l := b.active()
	cmd := l.ensure()
	l.refreshEmpty()
	return cmd
}

// Update routes answers to the list that asked and keys to the shown one.
func (b *base) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case pageMsg:
		for _, l := range b.lists {
			if ok, cmd := l.onPage(m); ok {
				l.refreshEmpty()
				return cmd
			}
		}
		return nil
	case wholeMsg:
		for _, l := range b.lists {
			if ok, cmd := l.onWhole(m); ok {
				return cmd
			}
		}
		if b.scan != nil {
			_, cmd := b.scan.onWhole(m)
			return cmd
		}
		return nil
	case estimateMsg:
		for _, l := range b.lists {
			if l.ld.req == m.req && m.req != 0 {
				l.ld.estimate = m.count
			}
		}
		return nil
	}
	l := b.active()
	cmd := l.update(msg)
	l.refreshEmpty()
	return cmd
}

func (b *base) SetSize(w, h int) {
	b.w, b.h = max(w, 0), max(h, 0)
	th := b.tableHeight()
	for _, l := range b.lists {
		l.setSize(b.w, th)
	}
	if b.scan != nil {
		b.scan.setSize(b.w, th)
	}
}

func (b *base) tableHeight() int {
	if b.header != nil && b.scan == nil && b.h > 1 {
		return b.h - 1
	}
	return b.h
}

func (b *base) View() string {
	body := b.active().view()
	if b.header == nil || b.scan != nil || b.h <= 1 {
		return body
	}
	return b.header(b.w) + "\n" + body
}

func (b *base) Selected() (data.Item, bool) { return b.active().selectedItem() }
func (b *base) Marked() ([]data.Item, int)  { return b.active().marked() }
func (b *base) SetFilter(text string) error { return b.active().setFilter(text) }
func (b *base) Cancel() bool {
	l := b.active()
	ok := l.cancelLoad()
	l.refreshEmpty()
	return ok
}
func (b *base) Status() Status { return b.active().status() }
func (b *base) SortBy(column string, desc bool) error {
	return b.active().sortBy(column, desc)
}
func (b *base) SortColumns() []string { return b.active().shownColumns() }
func (b *base) DetailOpen() bool      { return b.active().detail != nil }
func (b *base) Filter() string        { return b.active().table.Filter() }
func (b *base) Apply(changes []Change) tea.Cmd {
	for _, l := range b.lists {
		l.apply(changes)
	}
	if b.scan != nil {
		b.scan.apply(changes)
	}
	return nil
}

// LiveTables is the shown table while the pane is on screen.
func (b *base) LiveTables(shown bool) ([]data.TableID, bool) {
	if t := b.ShownTable(); shown && t != "" {
		return []data.TableID{t}, false
	}
	return nil, false
}

// Back closes the detail view, else cancels a running load.
func (b *base) Back() bool {
	l := b.active()
	if l.detail != nil {
		l.closeDetail()
		return true
	}
	ok := l.cancelLoad()
	l.refreshEmpty()
	return ok
}

// show switches to list i, carrying the filter over so the operator's
// narrowing survives a sub-view switch.
func (b *base) show(i int) tea.Cmd {
	if i < 0 || i >= len(b.lists) {
		return nil
	}
	f := b.active().table.Filter()
	b.dropScan()
	b.cur = i
	l := b.active()
	if l.setFilter(f) != nil {
		// A field of the other list that this one lacks: show all
		// rather than keep a filter nobody can see in the prompt.
		l.table.SetFilter("")
	}
	cmd := l.ensure()
	l.refreshEmpty()
	return cmd
}

// setScope points list i at a new scope and shows it; the load starts at
// Init (pane construction) or by the caller's load() (a command).
func (b *base) setScope(i int, s data.Scope, f fetchFunc) {
	l := b.lists[i]
	l.setScope(s, f)
	b.dropScan()
	b.cur = i
	l.refreshEmpty()
}

// reload restarts the shown list from its first page.
func (b *base) reload() tea.Cmd {
	l := b.active()
	cmd := l.load()
	l.refreshEmpty()
	return cmd
}

// ids lists the ids of the loaded records, for command completion.
func (b *base) ids(limit int) []string {
	var out []string
	l := b.active()
	l.eachItem(func(it data.Item) bool {
		if r := data.Decode(l.scope.Table, it); r != nil {
			if id := r.ID(); id != "" {
				out = append(out, id)
			}
		}
		return len(out) < limit
	})
	return out
}

// ShowScope lists exactly sc in the pane's list of sc's table.
func (b *base) ShowScope(sc data.Scope) (tea.Cmd, bool) {
	for i, l := range b.lists {
		if sc.Table != "" && l.pr.table == sc.Table {
			b.shown = sc
			b.setScope(i, sc, nil)
			return b.reload(), true
		}
	}
	return nil, false
}

// scopedTitle is "<what> · <scope label>" while the shown list shows the
// scope ShowScope gave it.
func (b *base) scopedTitle(what string) (string, bool) {
	if b.shown.Table == "" || b.scan != nil || b.lists[b.cur].scope != b.shown {
		return "", false
	}
	return what + " · " + b.shown.Label, true
}

// SelectedRecord is the row under the cursor and its table.
func (b *base) SelectedRecord() (data.TableID, data.Item, bool) {
	it, ok := b.Selected()
	if !ok {
		return "", nil, false
	}
	return b.active().scope.Table, it, true
}

// CurrentScope is the shown list's scope (zero while a scan is shown), as
// the rows it selects: without the list's own projection (which columns it
// reads is the list's business), so it compares equal to the scope a jump
// or a number of the overview asked for.
func (b *base) CurrentScope() data.Scope {
	if b.scan != nil {
		return data.Scope{}
	}
	return b.active().scope.Whole()
}

// listPane is every capability a pane over base has. The root finds the
// capabilities by assertion (ui/slot.go), so a method whose signature drifts
// from its interface would drop one silently: the compiler checks each
// list pane here instead.
type listPane interface {
	Pane
	Selector
	Marker
	Filterable
	Sortable
	Exporter
	Backer
	Canceller
	Applier
	LiveDemand
	Poller
	Scanner
	Retimer
	Themed
	Scoper
	Reconnector
	Replacer
}

var (
	_ listPane = (*Sessions)(nil)
	_ listPane = (*Runs)(nil)
	_ listPane = (*Inbox)(nil)
	_ listPane = (*Delegations)(nil)
	_ listPane = (*Sandboxes)(nil)
	_ listPane = (*Declared)(nil)
	_ listPane = (*TablesPane)(nil)
)
