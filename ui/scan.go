package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// The explicit Scan. Everything else in opsdeck reads through Query; a Scan
// reads and bills the whole table, so it happens only here, only after the
// operator saw its estimated cost and answered y, with a progress bar and a
// way to stop it. Nothing else in ui calls Store.ScanTable.

// Segment bounds for `:scan ... segments=N`. DynamoDB accepts up to a
// million, but each segment is a goroutine and a stream of requests from
// this terminal; 64 already outruns any table an operator would scan by hand.
const (
	defaultScanSegments = 1
	maxScanSegments     = 64
)

// scanMsg is every message of the scan machinery; the root routes them all
// to onScan.
type scanMsg interface{ isScanMsg() }

// scanEstimateMsg carries DescribeTable's figures for the dialog.
type scanEstimateMsg struct {
	req uint64
	est data.ScanEstimate
	err error
}

// scanProgressMsg is the latest progress of a running scan; run lets the
// root wait for the next one.
type scanProgressMsg struct {
	req uint64
	p   data.ScanProgress
	run *scanRun
}

// scanDoneMsg is a scan's end: all items, or those read before it was
// cancelled or failed (err says which).
type scanDoneMsg struct {
	req    uint64
	table  data.TableID
	filter data.Cond
	where  data.Scope
	items  []data.Item
	last   data.ScanProgress
	err    error
}

// scanClosedMsg: the dialog was answered No (or closed while estimating);
// nothing was scanned.
type scanClosedMsg struct{ req uint64 }

func (scanEstimateMsg) isScanMsg() {}
func (scanProgressMsg) isScanMsg() {}
func (scanDoneMsg) isScanMsg()     {}
func (scanClosedMsg) isScanMsg()   {}

var scanSeq atomic.Uint64

// openScan opens the cost dialog for a scan of table and asks for the
// estimate. Read-only mode allows it: a scan only reads.
func (x *scanExport) openScan(r *Model, table data.TableID, segments int, filter data.Cond, where data.Scope) tea.Cmd {
	st := r.ctx.Store
	if st == nil {
		r.setFlash("scan: no database connection", true)
		return nil
	}
	if r.where.pending != "" {
		r.setFlash("connecting to "+r.where.pending+": a scan waits until the switch is done", true)
		return nil
	}
	if _, ok := views.ScanPane(table); !ok {
		r.setFlash("scan: unknown table \""+inert.String(views.TableName(table))+"\"", true)
		return nil
	}
	segments = min(max(segments, 1), maxScanSegments)
	timeout := r.ctx.ReadTimeout
	if timeout <= 0 {
		timeout = views.DefaultReadTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &scanDialog{
		timeout:    timeout,
		req:        scanSeq.Add(1),
		table:      table,
		physical:   r.ctx.Tables.Name(table),
		segments:   segments,
		filter:     filter,
		where:      where,
		state:      scanEstimating,
		cancel:     cancel,
		store:      st,
		confirm:    enabled(r.ctx.Keys.Confirm),
		deny:       enabled(r.ctx.Keys.Deny),
		stop:       enabled(r.ctx.Keys.Cancel),
		dialogKeys: dialogKeysOf(r.ctx.Keys),
		theme:      r.ctx.Theme,
		under:      r.panes[r.active].View,
	}
	r.dialog, r.mode = d, modeDialog
	r.sizeDialog()
	req := d.req
	return func() tea.Msg {
		// The estimate has a deadline like every read; past it the dialog
		// asks with the cost unknown (and says why).
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		est, err := st.EstimateScan(ctx, table)
		return scanEstimateMsg{req: req, est: est, err: err}
	}
}

// onScan applies a scan message to the dialog it belongs to; a message for
// a dialog that is gone (or another scan) is dropped, except the end of a
// scan, whose items were paid for and are shown anyway.
func (x *scanExport) onScan(r *Model, msg scanMsg) tea.Cmd {
	d, _ := r.dialog.(*scanDialog)
	switch msg := msg.(type) {
	case scanEstimateMsg:
		if d != nil && d.req == msg.req && d.state == scanEstimating {
			d.estimated(msg.est, msg.err)
		}
		return nil
	case scanProgressMsg:
		if d != nil && d.req == msg.req {
			d.prog = msg.p
		}
		return msg.run.wait(msg.req)
	case scanDescribedMsg:
		return x.onScanDescribed(r, msg)
	case scanClosedMsg:
		r.setFlash("scan not run: nothing was read", false)
		return nil
	case scanDoneMsg:
		if d != nil && d.req == msg.req {
			r.dialog, r.mode = nil, modeNormal
		}
		return x.showScan(r, msg, d)
	}
	return nil
}

// showScan puts a scan's items into the pane for its table and says what
// the scan cost.
func (x *scanExport) showScan(r *Model, msg scanDoneMsg, d *scanDialog) tea.Cmd {
	rcu := formatRCU(msg.last.Consumed)
	partial := msg.err != nil
	reason := ""
	var timeout *data.TimeoutError
	switch {
	case !partial:
	case errors.As(msg.err, &timeout):
		// Not the operator's doing: say which call did not answer, and
		// within how long (the table is named already).
		reason = "stopped: " + timeout.Error()
	case data.IsCancelled(msg.err):
		reason = "cancelled"
	default:
		reason = "failed: " + data.Describe(msg.err)
	}
	if partial && len(msg.items) == 0 {
		r.setFlash("scan of "+views.TableName(msg.table)+" "+reason+" before any item was read ("+rcu+" RCU consumed)", !data.IsCancelled(msg.err))
		return nil
	}
	id, _ := views.ScanPane(msg.table)
	i, ok := r.paneIndex(id)
	if !ok {
		return nil
	}
	p := r.panes[i]
	if p.scan == nil {
		return nil
	}
	res := views.ScanResult{
		Table: msg.table, Items: msg.items, Partial: partial, Reason: reason,
		Consumed: msg.last.Consumed, Segments: msg.last.Segments, Estimate: msg.last.Total,
		Filter: msg.filter, Where: msg.where,
	}
	if d != nil {
		res.Segments = d.segments
		if res.Estimate == 0 {
			res.Estimate = d.est.ItemCount
		}
	}
	p.scan.ShowScan(res)
	r.active = i
	if partial {
		r.setFlash("PARTIAL scan of "+views.TableName(msg.table)+" ("+reason+"): "+plural(len(msg.items), "item")+" kept, "+rcu+" RCU consumed", !data.IsCancelled(msg.err))
	} else {
		r.setFlash("scan of "+views.TableName(msg.table)+": "+plural(len(msg.items), "item")+", "+rcu+" RCU consumed", false)
	}
	return nil
}

// scanRun connects a running scan's goroutine to the program: the latest
// progress (older ones are dropped — only the newest matters on screen) and
// the end.
type scanRun struct {
	progress chan data.ScanProgress
	done     chan scanDoneMsg
}

// startScan runs the scan in a goroutine started by the returned Cmd, which
// then waits for the first progress or the end. Everything it uses is
// passed in, never read from the model.
func startScan(ctx context.Context, st *data.Store, table data.TableID, o data.ScanOptions, req uint64) tea.Cmd {
	run := &scanRun{progress: make(chan data.ScanProgress, 1), done: make(chan scanDoneMsg, 1)}
	return func() tea.Msg {
		go func() {
			var last data.ScanProgress
			// ScanTable calls this from one goroutine at a time.
			report := func(p data.ScanProgress) {
				last = p
				select {
				case run.progress <- p:
				default:
					select {
					case <-run.progress:
					default:
					}
					select {
					case run.progress <- p:
					default:
					}
				}
			}
			items, err := st.ScanTable(ctx, table, o, report)
			run.done <- scanDoneMsg{req: req, table: table, filter: o.Filter, where: o.Where, items: items, last: last, err: err}
		}()
		return run.wait(req)()
	}
}

// wait blocks until the scan reports progress or ends.
func (r *scanRun) wait(req uint64) tea.Cmd {
	return func() tea.Msg {
		select {
		case d := <-r.done:
			return d
		case p := <-r.progress:
			return scanProgressMsg{req: req, p: p, run: r}
		}
	}
}

// scanKey handles S (scan the table the pane shows) and r on a scan result
// (scan again — through the dialog, never silently).
func (x *scanExport) scanKey(r *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
	km := r.ctx.Keys
	isScan, isReload := key.Matches(k, km.Scan), key.Matches(k, km.Reload)
	if !isScan && !isReload {
		return nil, false
	}
	p := r.panes[r.active]
	if p.scan == nil || p.detailOpen() {
		return nil, false
	}
	if isReload {
		res, shown := p.scan.ShownScan()
		if !shown {
			return nil, false
		}
		return x.openScan(r, res.Table, res.Segments, res.Filter, res.Where), true
	}
	table, ok := p.scan.ScanTarget()
	if !ok {
		return nil, false
	}
	return x.openScan(r, table, defaultScanSegments, data.Cond{}, data.Scope{}), true
}

// paneTitle is the title line's text: a scan result says so, so that it
// never passes for a query scope.
func paneTitle(p *slot) string {
	if p.scan == nil {
		return p.Title()
	}
	if t, shown := p.scan.ScanTitle(); shown {
		return t
	}
	return p.Title()
}

// scanSpec is :scan's syntax: a table, its parallelism (segments=N) and,
// for api-keys, projectIds=<projectId>: the keys whose projectIds list
// names the project, which no index finds.
var scanSpec = views.CommandSpec{
	Name: string(VerbScan), Usage: ":scan <table> [segments=N] [projectIds=<id>] [terms]", Arg: views.ArgRequired,
	TableArg: true, AnyTable: true, Terms: true,
	Opts: []views.OptSpec{{Key: scanProjectIDs}, {Key: "segments", Check: func(v string) error {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return fmt.Errorf("segments= must be a whole number from 1 to %d (got \"%s\")", maxScanSegments, inert.Line(v, 20))
		case n < 1 || n > maxScanSegments:
			// A whole number, just not a usable one: say that, not "not a
			// whole number".
			return fmt.Errorf("segments=%d is out of range: use 1 to %d", n, maxScanSegments)
		}
		return nil
	}}},
}

// scanProjectIDs is :scan's filter option: api-keys whose projectIds
// list holds the project (contains(projectIds, p)).
const scanProjectIDs = "projectids" // typed projectIds= (options match in any case)

// scanFilter is a parsed :scan's filter term: projectIds=<p> on api-keys.
// Any other table has no projectIds, so the option is refused there.
func scanFilter(table data.TableID, a views.Args) (data.Cond, error) {
	p := a.Opt(scanProjectIDs)
	if p == "" {
		return data.Cond{}, nil
	}
	if table != data.TableAPIKeys {
		return data.Cond{}, fmt.Errorf("scan: projectIds= filters %s only (the keys that reach a project through their projectIds list)", data.TableAPIKeys)
	}
	return data.Cond{Attr: "projectIds", Value: p, Contains: true}, nil
}

// scanSegments is a parsed :scan's segments= (checked), else the default.
func scanSegments(a views.Args) int {
	if n, err := strconv.Atoi(a.Opt("segments")); err == nil {
		return n
	}
	return defaultScanSegments
}

// enabled is b switched on: read-only mode disables the shared y/n
// bindings (they answer write actions), but a scan is a read and its dialog
// must still hear them.
func enabled(b key.Binding) key.Binding {
	b.SetEnabled(true)
	return b
}
