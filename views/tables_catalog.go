package views

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views/filter"
	"opsdeck/views/inert"
	"opsdeck/views/vtable"
)

// The catalog: `:tables`, every table of the account and region
// (ListTables, page after page), each described (DescribeTable,
// DescribeTimeToLive) a few at a time. It is a table like the lists: the
// same keys, filter, sort and export; enter opens the table's schema.

// describeParallel is how many tables are described at once: enough that
// a few hundred tables list in seconds, few enough that a throttled
// control plane (DescribeTable is limited per account) is not hammered.
const describeParallel = 4

// catalog is the Tables pane's list of tables.
type catalog struct {
	table  vtable.Model
	infos  map[string]data.TableInfo // by physical name
	loaded bool
	// loading, req, cancel: the listing in flight (req numbers it, so a
	// late answer to a cancelled one is dropped).
	loading bool
	req     uint64
	cancel  context.CancelFunc
	err     string
	note    string
	// failed: tables whose description failed (listed by name only).
	failed int
}

// catalogMsg is a finished listing.
type catalogMsg struct {
	req    uint64
	infos  []data.TableInfo
	failed []error
	err    error
}

func (catalogMsg) PaneID() PaneID { return PaneTables }

func catalogColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "name", Title: "TABLE", Width: 12, Fit: true, Priority: 20},
		{Key: "pk", Title: "PK", Width: 6, Fit: true, Priority: 15},
		{Key: "sk", Title: "SK", Width: 6, Fit: true, Priority: 14},
		{Key: "indexes", Title: "INDEXES", Width: 8, Fit: true, Priority: 10},
		{Key: "stream", Title: "STREAM", Width: 18, Priority: 9},
		{Key: "ttl", Title: "TTL", Width: 6, Fit: true, Priority: 6},
		{Key: "items", Title: "~ITEMS", Width: 6, Align: vtable.Right, Whole: true, Priority: 12},
		{Key: "size", Title: "~SIZE", Width: 8, Align: vtable.Right, Whole: true, Priority: 11},
		{Key: "pane", Title: "PANE", Width: 6, Fit: true, Priority: 13},
	}
}

func newCatalog(c *Context) catalog {
	t := vtable.New(catalogColumns(), c.Theme)
	t.SetNow(c.Now)
	t.SetEmptyText(":tables lists the account's tables")
	return catalog{table: t, infos: map[string]data.TableInfo{}}
}

// load lists and describes every table, in a Cmd.
func (c *catalog) load(ctx *Context) tea.Cmd {
	if c.cancel != nil {
		c.cancel()
	}
	st := ctx.Store
	if st == nil {
		c.err = "no database connection"
		return nil
	}
	lctx, cancel := context.WithCancel(context.Background())
	c.cancel, c.loading, c.err, c.note = cancel, true, "", ""
	c.req = reqSeq.Add(1)
	c.table.SetEmptyText("listing tables…")
	req, timeout := c.req, ctx.readTimeout()
	return func() tea.Msg {
		names, err := func() ([]string, error) {
			cctx, done := context.WithTimeout(lctx, timeout)
			defer done()
			return st.ListTables(cctx)
		}()
		if err != nil {
			return catalogMsg{req: req, err: err}
		}
		infos := make([]data.TableInfo, len(names))
		errs := make([]error, len(names))
		var wg sync.WaitGroup
		sem := make(chan struct{}, describeParallel)
		for i, n := range names {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				cctx, done := context.WithTimeout(lctx, timeout)
				defer done()
				infos[i], errs[i] = st.DescribeTable(cctx, n)
				infos[i].Name = n
			}()
		}
		wg.Wait()
		if lctx.Err() != nil {
			return catalogMsg{req: req, err: lctx.Err()}
		}
		var failed []error
		for _, e := range errs {
			if e != nil {
				failed = append(failed, e)
			}
		}
		return catalogMsg{req: req, infos: infos, failed: failed}
	}
}

// done applies a listing; false when it is not the one awaited.
func (c *catalog) done(m catalogMsg, ctx *Context) bool {
	if m.req != c.req || !c.loading {
		return false
	}
	c.loading, c.cancel = false, nil
	if m.err != nil {
		if data.IsCancelled(m.err) {
			c.note = "listing cancelled — r lists again"
		} else {
			c.err = data.Describe(m.err)
		}
		c.table.SetEmptyText(c.emptyText())
		return true
	}
	c.loaded = true
	clear(c.infos)
	rows := make([]vtable.Row, 0, len(m.infos))
	for _, in := range m.infos {
		c.infos[in.Name] = in
		rows = append(rows, catalogRow(in, ctx.Tables))
	}
	c.failed = len(m.failed)
	if c.failed > 0 {
		c.note = fmt.Sprintf("%d of %d tables could not be described (%s) — listed by name", c.failed, len(m.infos), data.Describe(m.failed[0]))
	}
	c.table.SetRows(rows)
	c.table.SetEmptyText(c.emptyText())
	return true
}

func (c *catalog) emptyText() string {
	switch {
	case c.loading:
		return "listing tables…"
	case c.err != "":
		return "error: " + c.err
	case !c.loaded:
		return "listing cancelled — r lists again"
	}
	return "no tables in this account and region"
}

// catalogRow is one table as a row: its id is its physical name.
func catalogRow(in data.TableInfo, tables data.Tables) vtable.Row {
	s := in.Schema
	sk := "-"
	if s.SK != nil {
		sk = s.SK.Name + " (" + string(s.SK.Type) + ")"
	}
	pk := "-"
	if s.PK.Name != "" {
		pk = s.PK.Name + " (" + string(s.PK.Type) + ")"
	}
	var ix []string
	for _, i := range s.Indexes {
		ix = append(ix, i.Name)
	}
	indexes := "-"
	if len(ix) > 0 {
		indexes = strconv.Itoa(len(ix)) + ": " + strings.Join(ix, ", ")
	}
	stream := "-"
	if s.Stream != data.StreamNone {
		stream = string(s.Stream)
	}
	ttl := "-"
	switch {
	case s.TTLAttr != "":
		ttl = s.TTLAttr
	case in.TTLErr != nil:
		ttl = "?"
	}
	pane := "-"
	if id := tables.IDFor(in.Name); !data.IsUnmodeled(id) {
		if p, ok := PaneOf(id); ok {
			pane = p.Name()
		}
	}
	items := vtable.Cell{Text: strconv.FormatInt(in.ItemCount, 10)}.SortNum(float64(in.ItemCount))
	size := vtable.Cell{Text: byteSize(in.SizeBytes)}.SortNum(float64(in.SizeBytes))
	if in.Schema.PK.Name == "" {
		// Not described: nothing but the name is known.
		items, size = vtable.Cell{Text: "?"}.SortLast(), vtable.Cell{Text: "?"}.SortLast()
	}
	return vtable.Row{ID: in.Name, Cells: []vtable.Cell{
		{Text: in.Name}, {Text: pk}, {Text: sk}, {Text: indexes}, {Text: stream}, {Text: ttl},
		items, size, {Text: pane},
	}}
}

// byteSize is n bytes the way a person reads it (1.2 MB).
func byteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, u := float64(n), 0
	for f >= unit && u < 4 {
		f /= unit
		u++
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + []string{"B", "kB", "MB", "GB", "TB"}[u]
}

// update handles a key on the catalog. Enter asks the root to open the
// table's schema as a jump (b comes back here).
func (c *catalog) update(msg tea.Msg, ctx *Context) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	km := ctx.Keys
	switch {
	case key.Matches(k, km.Enter):
		row, ok := c.table.Selected()
		if !ok {
			return nil
		}
		sc := schemaScope(row.ID)
		return func() tea.Msg { return OpenScopeMsg{Scope: sc, Jump: true} }
	case key.Matches(k, km.Reload):
		return c.load(ctx)
	case key.Matches(k, km.SortNext):
		c.table.CycleSort()
		return nil
	case key.Matches(k, km.SortReverse):
		c.table.ReverseSort()
		return nil
	}
	c.table, _ = c.table.Update(msg, km)
	return nil
}

func (c *catalog) status() Status {
	return Status{
		Loading: c.loading, Progress: -1,
		Rows: c.table.Len(), Visible: c.table.VisibleLen(),
		Err: c.err, Note: c.note, Noun: "table",
		Sort: c.table.SortLabel(), Sortable: true,
	}
}

// setFilter narrows the rows: the filter grammar, fields by column.
func (c *catalog) setFilter(text string) error {
	if strings.TrimSpace(text) == "" {
		c.table.SetFilter("")
		return nil
	}
	e, err := filter.Parse(text)
	if err != nil {
		return err
	}
	if e.Substring(text) {
		c.table.SetFilter(text)
		return nil
	}
	cols := c.table.Columns()
	fields := map[string]fieldFunc{}
	for _, name := range e.Fields() {
		i := c.table.FindColumn(name)
		if i < 0 {
			var keys []string
			for _, col := range cols {
				keys = append(keys, col.Key)
			}
			return &filter.Error{Term: name, Msg: "no such column (columns: " + strings.Join(keys, ", ") + ")"}
		}
		fields[name] = func(r *vtable.Row) (string, bool) {
			if i >= len(r.Cells) {
				return "", false
			}
			return r.Cells[i].Text, true
		}
	}
	c.table.SetPredicate(text, func(r *vtable.Row, hay string) bool {
		return e.Match(filterRow{row: r, hay: hay, fields: fields})
	})
	return nil
}

func (c *catalog) sortBy(column string, desc bool) error {
	if column == "" {
		c.table.SortBy(-1, false)
		return nil
	}
	i := c.table.FindColumn(column)
	if i < 0 {
		return fmt.Errorf("no column %q here", inert.String(column))
	}
	c.table.SortBy(i, desc)
	return nil
}

func (c *catalog) shownColumns() []string {
	cols := c.table.Columns()
	var out []string
	for _, i := range c.table.ShownColumns() {
		out = append(out, cols[i].Title)
	}
	return out
}

// exportRows are the rows the filter shows (or the marked ones), each
// with the table's description as its item: the export's JSON lines are
// the catalog.
func (c *catalog) exportRows() (ExportSet, error) {
	ids := c.table.Marked()
	set := ExportSet{Table: data.UnmodeledID("")}
	if len(ids) > 0 {
		set.Marked, set.Hidden = true, c.table.MarkedHidden()
	} else {
		ids = c.table.VisibleIDs()
	}
	if len(ids) == 0 {
		return ExportSet{}, errors.New("no tables to export")
	}
	cols := c.table.Columns()
	for _, col := range cols {
		set.Header = append(set.Header, col.Title)
	}
	for _, id := range ids {
		row, ok := c.table.Row(id)
		if !ok {
			continue
		}
		set.rows = append(set.rows, exportRow{loc: itemLoc{pos: looseLoc}, loose: infoItem(c.infos[id]), cells: exportCells(cols, row)})
	}
	return set, nil
}

// infoItem is a table's description as an item (its export and copy).
func infoItem(in data.TableInfo) data.Item {
	s := in.Schema
	it := data.Item{
		"name":      data.S(in.Name),
		"status":    data.S(in.Status),
		"itemCount": data.N(in.ItemCount),
		"sizeBytes": data.N(in.SizeBytes),
	}
	if s.PK.Name != "" {
		it["partitionKey"] = data.S(s.PK.Name)
	}
	if s.SK != nil {
		it["sortKey"] = data.S(s.SK.Name)
	}
	if s.Stream != data.StreamNone {
		it["stream"] = data.S(string(s.Stream))
	}
	if s.TTLAttr != "" {
		it["ttl"] = data.S(s.TTLAttr)
	}
	if in.Billing != "" {
		it["billing"] = data.S(in.Billing)
	}
	return it
}
