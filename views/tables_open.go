package views

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// opened applies a `:table` command's description: the schema, or the
// terms planned into a Query. A plan without a usable key condition is
// refused, never turned into a Scan: the schema shows with the keys that
// would make it a Query and the explicit :scan to type instead.
func (p *TablesPane) opened(m tableMsg) tea.Cmd {
	if m.req != p.opening {
		return nil
	}
	p.opening = 0
	if m.err != nil {
		p.errText = data.Describe(m.err)
		p.schema = schemaView{problem: "cannot describe " + m.name + ": " + p.errText}
		return nil
	}
	in := m.info
	in.Name = m.name
	p.infos[in.Name] = in // Store.DescribeTable has registered its schema
	if len(m.terms) == 0 {
		p.showSchema(in, "")
		return nil
	}
	sc, err := planTerms(in.Schema, m.terms, p.ctx)
	if err != nil {
		p.showSchema(in, err.Error())
		return nil
	}
	if !data.IsUnmodeled(sc.Table) {
		// A pane models this table: its rows open there, with its
		// columns and actions; the schema stays here for b.
		// The plan is its title there too: the pane's own labels are
		// for its own access patterns, and this read is none of them.
		p.showSchema(in, "")
		if sc.Label == "" {
			sc.Label = sc.Plan()
		}
		return func() tea.Msg { return OpenScopeMsg{Scope: sc} }
	}
	return p.showItems(sc)
}

// planTerms parses the terms against the context's clock and plans them
// on schema s. A refusal names what would make the read a Query and
// offers the explicit scan with the same terms.
func planTerms(s data.TableSchema, words []string, ctx *Context) (data.Scope, error) {
	terms, rest, err := data.ParseTerms(words, ctx.now())
	if err != nil {
		return data.Scope{}, err
	}
	if len(rest) > 0 {
		return data.Scope{}, fmt.Errorf("%q is not a comparison (field=value, field<value, …)", rest[0])
	}
	// A refusal (*data.NeedKeyError) names the keys that would make a
	// Query and offers :scan; it is shown as it is.
	return data.PlanQuery(s, terms)
}

// showSchema shows a table's description, with a plan's refusal (or any
// problem) above it.
func (p *TablesPane) showSchema(in data.TableInfo, problem string) {
	p.dropScan()
	p.mode, p.name, p.errText = modeSchema, in.Name, problem
	p.schema = schemaView{lines: schemaLines(in, p.ctx.Tables), problem: problem}
}

// showItems lists an unmodeled table's scope in a generic list made for
// it (its columns start from the table's keys and grow with its items).
func (p *TablesPane) showItems(sc data.Scope) tea.Cmd {
	s, _ := data.Schema(sc.Table)
	p.lists[0].stop()
	p.name = physicalOf(sc.Table)
	p.cols = newGenericCols(s)
	l := newList(p.ctx, PaneTables, itemsPresenter(sc.Table, p.cols))
	l.setSize(p.w, p.tableHeight())
	p.lists[0] = l
	p.mode, p.errText = modeItems, ""
	p.shown, p.plan = sc, sc.Plan()
	p.setScope(0, sc, nil)
	return p.reload()
}

// ShowScan shows a scan of an unmodeled table with the generic presenter
// (a modeled table's scan shows in its own pane).
func (p *TablesPane) ShowScan(r ScanResult) {
	s, ok := data.Schema(r.Table)
	if !ok || !data.IsUnmodeled(r.Table) {
		return
	}
	cols, _ := newGenericCols(s).grow(r.Items)
	p.name, p.cols = physicalOf(r.Table), cols
	p.showScanWith(itemsPresenter(r.Table, cols), r)
}

// names are the catalog's table names, for completion.
func (p *TablesPane) names() []string {
	out := make([]string, 0, len(p.infos))
	for n := range p.infos {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func tablesPane() PaneSpec {
	return PaneSpec{
		ID: PaneTables, Name: "Tables", Short: "Tbls", DefaultKey: "7", ReadOnly: true, OnDemand: true,
		New: func(c *Context, _ Scopes) Pane { return NewTables(c) },
		Commands: []CommandSpec{
			{
				Name: "tables", Usage: ":tables", Jumps: true,
				Run: func(p Pane, _ Args) tea.Cmd { return p.(*TablesPane).ShowCatalog() },
			},
			{
				Name: "table", Usage: ":table <name> [terms]", Arg: ArgRequired, Terms: true, Jumps: true,
				Complete: func(p Pane) []string { return p.(*TablesPane).names() },
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*TablesPane).Open(a.Arg, a.TermList()) },
			},
		},
	}
}

// The Tables pane follows the Stream pane in the tab order (on demand).
func init() { registerPane(950, tablesPane) }

// ScanTitle names the table: the pane shows many tables, so "scan" alone
// would not say which.
func (p *TablesPane) ScanTitle() (string, bool) {
	t, ok := p.base.ScanTitle()
	if ok && !strings.Contains(t, "scan of ") {
		t = strings.Replace(t, "· scan", "· scan of "+p.name, 1)
	}
	return t, ok
}
