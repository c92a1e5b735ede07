package views

import (
	"context"
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// The Tables pane: browse any table of the account. Three views, one
// shown at a time — the catalog (`:tables`), a table's schema (`:table
// NAME`, or enter on the catalog) and a table's items (`:table NAME
// TERMS…`, planned into a Query by data.PlanQuery: never a Scan). The
// items of a table no pane models are listed by the generic presenter
// (tables_present.go), read-only: no action is declared for them. A
// table a pane models opens in that pane instead, with its own columns
// and actions (OpenScopeMsg), so the same rows never look two ways.
//
// Each view is a scope, so the root's jumps work across them: b returns
// from a table to the catalog, from its items to where `:table` ran.
// catalogScope is the catalog; schemaScope(name) a table's schema (no key
// condition: nothing is read but the description); any other scope of an
// unmodeled table is its items.

// PaneTables browses every table.
const PaneTables PaneID = "tables"

type tablesMode uint8

const (
	modeCatalog tablesMode = iota
	modeSchema
	modeItems
)

// TablesPane is the Tables pane.
type TablesPane struct {
	base // lists[0]: the items of the table shown (generic presenter)
	mode tablesMode
	cat  catalog

	// infos are the tables described so far, by physical name.
	infos  map[string]data.TableInfo
	name   string // the table of the schema or items view
	schema schemaView
	cols   genericCols
	// opening is the `:table` in flight (its describe), 0 when none.
	opening uint64
	errText string
	// plan is the items' read in one line (data.Scope.Plan), the title.
	plan string
}

// catalogScope and schemaScope are the catalog and a table's schema as
// scopes (jumps compare them; the root's PaneOf finds this pane).
var catalogScope = data.Scope{Table: data.UnmodeledID(""), Label: "tables"}

func schemaScope(name string) data.Scope {
	return data.Scope{Table: data.UnmodeledID(name), Label: "schema"}
}

// NewTables builds the pane, showing the catalog (read at Init).
func NewTables(c *Context) *TablesPane {
	p := &TablesPane{base: base{ctx: c, id: PaneTables}, cat: newCatalog(c), infos: map[string]data.TableInfo{}}
	p.lists = []*list{p.emptyList()}
	return p
}

// emptyList is the items list before any table is chosen.
func (p *TablesPane) emptyList() *list {
	l := newList(p.ctx, PaneTables, itemsPresenter("", genericCols{}))
	l.hint = "no table chosen — :table NAME shows one, :tables lists them"
	return l
}

func (p *TablesPane) Title() string {
	switch {
	case p.scan != nil:
		return "Tables"
	case p.mode == modeCatalog:
		return "Tables · account catalog"
	case p.mode == modeSchema:
		return "Tables · " + p.name + " · schema"
	}
	if l := p.lists[0]; l.scope.Whole() == p.shown.Whole() && p.plan != "" {
		// "Tables · orders · Query by-status · status = open · filter …";
		// a base-table plan names the table itself.
		if p.shown.Index == "" {
			return "Tables · " + p.plan
		}
		return "Tables · " + p.name + " · " + p.plan
	}
	return "Tables · " + p.name
}

// Init lists the tables the first time the catalog shows.
func (p *TablesPane) Init() tea.Cmd {
	switch {
	case p.scan != nil || p.mode == modeItems:
		return p.base.Init()
	case p.mode == modeCatalog && !p.cat.loaded && !p.cat.loading:
		return p.cat.load(p.ctx)
	}
	return nil
}

func (p *TablesPane) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case catalogMsg:
		p.cat.done(m, p.ctx)
		for _, in := range m.infos {
			p.infos[in.Name] = in
		}
		return nil
	case tableMsg:
		return p.opened(m)
	case pageMsg:
		if l := p.lists[0]; m.req != 0 && m.req == l.ld.req && p.name != "" {
			p.grow(l, m.res.recs)
			m.rows = nil // built with the columns of the request: build again
		}
		return p.base.Update(m)
	}
	if p.scan != nil || p.mode == modeItems {
		return p.base.Update(msg)
	}
	if p.mode == modeSchema {
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, p.ctx.Keys.Reload) {
			return p.Open(p.name, nil)
		}
		p.schema.update(msg, p.ctx)
		return nil
	}
	return p.cat.update(msg, p.ctx)
}

// grow adds the attributes of recs no column shows yet, re-rendering the
// rows already listed (their cells follow the columns).
func (p *TablesPane) grow(l *list, recs []data.Record) {
	items := make([]data.Item, 0, len(recs))
	for _, r := range recs {
		if r != nil {
			items = append(items, r.Item())
		}
	}
	cols, grew := p.cols.grow(items)
	if !grew {
		return
	}
	p.cols = cols
	l.pr = itemsPresenter(l.pr.table, cols)
	l.rowOf = maskedRows(l.pr.row)
	l.table.SetColumns(cols.columns())
	l.restyle(p.ctx.Theme)
}

// Apply grows the columns by what a live change brings, then applies it.
func (p *TablesPane) Apply(changes []Change) tea.Cmd {
	if l := p.lists[0]; l.hasScope && p.name != "" {
		var recs []data.Record
		for _, c := range changes {
			if c.Table == l.scope.Table && c.New != nil && l.scope.Matches(c.New) {
				if r := data.Decode(c.Table, c.New); r != nil {
					recs = append(recs, r)
				}
			}
		}
		p.grow(l, recs)
	}
	return p.base.Apply(changes)
}

func (p *TablesPane) View() string {
	switch {
	case p.scan != nil || p.mode == modeItems:
		return p.base.View()
	case p.mode == modeSchema:
		return p.schema.render(p.w, p.h, p.ctx.Theme)
	}
	return p.cat.table.View()
}

func (p *TablesPane) SetSize(w, h int) {
	p.base.SetSize(w, h)
	p.cat.table.SetSize(p.w, p.h)
}

func (p *TablesPane) listed() bool { return p.scan != nil || p.mode == modeItems }

func (p *TablesPane) Status() Status {
	switch {
	case p.listed():
		return p.base.Status()
	case p.mode == modeSchema:
		// One table described, or none when the description failed
		// (the status bar must not count a table that does not exist).
		n := 1
		if len(p.schema.lines) == 0 {
			n = 0
		}
		return Status{Progress: -1, Loading: p.opening != 0, Err: p.errText, Rows: n, Visible: n, Noun: "table"}
	}
	return p.cat.status()
}

func (p *TablesPane) Help() []key.Binding {
	if p.mode == modeCatalog && !p.listed() {
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "the table's schema"))}
	}
	return nil
}

func (p *TablesPane) Selected() (data.Item, bool) {
	if !p.listed() {
		return nil, false
	}
	return p.base.Selected()
}

func (p *TablesPane) Marked() ([]data.Item, int) {
	if !p.listed() {
		return nil, 0
	}
	return p.base.Marked()
}

func (p *TablesPane) MarkAll() (int, bool) {
	if !p.listed() {
		return 0, false
	}
	return p.base.MarkAll()
}

func (p *TablesPane) DetailOpen() bool { return p.listed() && p.base.DetailOpen() }

func (p *TablesPane) SetFilter(text string) error {
	switch {
	case p.listed():
		return p.base.SetFilter(text)
	case p.mode == modeCatalog:
		return p.cat.setFilter(text)
	}
	return errors.New("the schema view has no rows to filter")
}

func (p *TablesPane) Filter() string {
	switch {
	case p.listed():
		return p.base.Filter()
	case p.mode == modeCatalog:
		return p.cat.table.Filter()
	}
	return ""
}

func (p *TablesPane) SortBy(column string, desc bool) error {
	switch {
	case p.listed():
		return p.base.SortBy(column, desc)
	case p.mode == modeCatalog:
		return p.cat.sortBy(column, desc)
	}
	return errors.New("the schema view has no rows to sort")
}

func (p *TablesPane) SortColumns() []string {
	switch {
	case p.listed():
		return p.base.SortColumns()
	case p.mode == modeCatalog:
		return p.cat.shownColumns()
	}
	return nil
}

func (p *TablesPane) ExportRows() (ExportSet, error) {
	switch {
	case p.listed():
		return p.base.ExportRows()
	case p.mode == modeCatalog:
		return p.cat.exportRows()
	}
	return ExportSet{}, errors.New("the schema view has no rows to export (:table NAME TERMS lists items)")
}

func (p *TablesPane) Back() bool {
	if p.listed() {
		return p.base.Back()
	}
	return p.Cancel()
}

func (p *TablesPane) Cancel() bool {
	switch {
	case p.listed():
		return p.base.Cancel()
	case p.mode == modeCatalog && p.cat.loading:
		p.cat.cancel()
		return true
	}
	return false
}

// ShownTable is the items' table; none while the catalog or a schema
// shows (nothing to follow or poll).
func (p *TablesPane) ShownTable() data.TableID {
	if !p.listed() {
		return ""
	}
	return p.base.ShownTable()
}

func (p *TablesPane) LiveTables(shown bool) ([]data.TableID, bool) {
	if !p.listed() {
		return nil, false
	}
	return p.base.LiveTables(shown)
}

func (p *TablesPane) Poll() tea.Cmd {
	if !p.listed() {
		return nil
	}
	return p.base.Poll()
}

func (p *TablesPane) ScanTarget() (data.TableID, bool) {
	if !p.listed() || p.name == "" {
		return "", false
	}
	return p.lists[0].scope.Table, true
}

func (p *TablesPane) SelectedRecord() (data.TableID, data.Item, bool) {
	if !p.listed() {
		return "", nil, false
	}
	return p.base.SelectedRecord()
}

// CurrentScope is the view shown, as a scope (the jumps' way back).
func (p *TablesPane) CurrentScope() data.Scope {
	switch {
	case p.scan != nil:
		return data.Scope{}
	case p.mode == modeCatalog:
		return catalogScope
	case p.mode == modeSchema:
		return schemaScope(p.name)
	}
	return p.base.CurrentScope()
}

// ShowScope shows the catalog, a schema or an unmodeled table's items.
func (p *TablesPane) ShowScope(sc data.Scope) (tea.Cmd, bool) {
	if !data.IsUnmodeled(sc.Table) {
		return nil, false
	}
	p.dropScan()
	switch {
	case sc == catalogScope:
		p.mode = modeCatalog
		return p.Init(), true
	case sc.PKAttr == "":
		name := physicalOf(sc.Table)
		if in, ok := p.infos[name]; ok {
			p.showSchema(in, "")
			return nil, true
		}
		return p.Open(name, nil), true
	}
	if _, ok := data.Schema(sc.Table); !ok {
		return nil, false
	}
	return p.showItems(sc), true
}

// physicalOf is the physical name of an unmodeled table id.
func physicalOf(id data.TableID) string {
	return strings.TrimPrefix(string(id), string(data.UnmodeledID("")))
}

// Reconnect forgets the catalog and the descriptions (another account or
// region); the view shown stays, read again on Init.
func (p *TablesPane) Reconnect() {
	p.base.Reconnect()
	if p.cat.cancel != nil {
		p.cat.cancel()
	}
	p.cat = newCatalog(p.ctx)
	clear(p.infos)
	p.opening = 0
}

// ShowCatalog is `:tables`.
func (p *TablesPane) ShowCatalog() tea.Cmd {
	p.dropScan()
	p.mode = modeCatalog
	if p.cat.loading {
		return nil
	}
	return p.cat.load(p.ctx)
}

// tableMsg is a `:table` command's description of its table.
type tableMsg struct {
	req   uint64
	name  string
	terms []string
	info  data.TableInfo
	err   error
}

func (tableMsg) PaneID() PaneID { return PaneTables }

// Open is `:table NAME [TERMS…]`: describe the table, then show its
// schema, or plan the terms into a Query and list the items.
func (p *TablesPane) Open(name string, terms []string) tea.Cmd {
	st := p.ctx.Store
	if st == nil {
		p.errText = "no database connection"
		return nil
	}
	p.dropScan()
	p.mode, p.name, p.errText = modeSchema, name, ""
	p.schema = schemaView{lines: []string{"describing " + name + "…"}}
	req := reqSeq.Add(1)
	p.opening = req
	timeout := p.ctx.readTimeout()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		info, err := st.DescribeTable(ctx, name)
		return tableMsg{req: req, name: name, terms: terms, info: info, err: err}
	}
}
