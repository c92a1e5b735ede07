package views

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/gcpace"
	"opsdeck/views/vtable"
)

// Loading a list: one page at a time through the list's fetch (a Query of
// its scope), more pages on demand, load-all with progress, the size
// estimate, cancelling. Every answer carries its request id; a late answer
// to an older request is dropped (onPage).

// fetched is one page of records, whatever their type.
type fetched struct {
	recs     []data.Record
	next     data.Cursor
	consumed float64
}

// fetchFunc loads one page. It runs on another goroutine: it must use only
// its arguments (everything it needs is captured by value when the scope is
// set), and must honour ctx so that a cancelled load stops at once.
type fetchFunc func(ctx context.Context, st *data.Store, req data.PageRequest) (fetched, error)

// pageFetch reads one page of scope s with Store.Page. The scope is a
// value, captured here, so the Cmd never reads the list.
func pageFetch(s data.Scope) fetchFunc {
	return func(ctx context.Context, st *data.Store, req data.PageRequest) (fetched, error) {
		p, err := st.Page(ctx, s, req)
		return fetched{recs: p.Items, next: p.Next, consumed: p.Consumed}, err
	}
}

// loadState is the bookkeeping of the list's current request. Request ids
// are unique across all panes, so an answer is accepted only by the list
// that is waiting for exactly it; a late answer to an older request (the
// scope changed, or the operator reloaded or cancelled) is dropped.
type loadState struct {
	req     uint64
	cancel  context.CancelFunc
	lctx    context.Context
	loading bool
	all     bool // loading every remaining page (set with setAll)
	// bulkDone ends the collector's bulk pace this load-all asked for.
	bulkDone func()
	started  bool // a first load was issued for this scope
	next     data.Cursor
	pages    int

	estimate int64 // table item count, the upper bound for progress; 0 unknown

	err      string
	consumed float64
	hasReq   bool

	// since is when the request in flight was sent (the pane's clock), so
	// the pane can say how long it has been waiting.
	since time.Time
	// cancelled: the operator stopped the last load (its rows, if any,
	// are all that is known).
	cancelled bool

	// empty counts consecutive pages that came back with no items but a
	// Next: a server-side filter (the Inbox's status prefix) dropped the
	// whole page. Such pages are followed at once, up to emptyPagesMax, so
	// the operator does not stare at "no events" while matches exist.
	empty int
}

// emptyPagesMax bounds the automatic follow-up of empty filtered pages:
// each one costs read capacity, so a very sparse filter stops and waits
// for the operator (scrolling or L) instead of reading the partition.
const emptyPagesMax = 8

var reqSeq atomic.Uint64

// pageMsg carries one page back to the list that asked for it.
type pageMsg struct {
	pane  PaneID
	req   uint64
	fresh bool // first page of a (re)load: replaces the rows
	res   fetched
	err   error
	// timedOut: the read's own deadline ended it (not the operator).
	timedOut bool
	timeout  time.Duration
	// packed: the page's items, packed off the UI goroutine; ahead: the
	// next page, already being read (load-all, pipeline.go).
	packed packed
	ahead  *ahead
	// rows: the page's rows as its list's rowOf built them ahead, under
	// the theme named rowsTheme (pipeline.go prerender); nil: not built.
	rows      []vtable.Row
	rowsTheme string
}

// estimateMsg carries the table size for the load-all progress bar.
type estimateMsg struct {
	pane  PaneID
	req   uint64
	count int64
}

// For routing: the root sends a message that names a pane to that pane.
func (m pageMsg) PaneID() PaneID { return m.pane }

func (m estimateMsg) PaneID() PaneID { return m.pane }

// stop cancels the request in flight, if any.
func (l *list) stop() bool {
	was := l.ld.loading
	if l.ld.cancel != nil {
		l.ld.cancel()
	}
	l.ld.cancel, l.ld.lctx = nil, nil
	l.ld.loading = false
	l.setAll(false)
	l.ld.req = 0
	return was
}

// load (re)starts the list from its first page.
func (l *list) load() tea.Cmd {
	if !l.hasScope || l.fetch == nil {
		return nil
	}
	l.stop()
	l.ld.started = true
	l.ld.err, l.ld.cancelled = "", false
	l.ld.pages, l.ld.empty = 0, 0
	l.note = ""
	return l.request(nil, true)
}

// ensure loads the first page unless that was already done.
func (l *list) ensure() tea.Cmd {
	if l.ld.started {
		return nil
	}
	return l.load()
}

// request issues one page fetch. Everything the Cmd uses is copied here.
func (l *list) request(cursor data.Cursor, fresh bool) tea.Cmd {
	if l.ld.lctx == nil {
		l.ld.lctx, l.ld.cancel = context.WithCancel(context.Background())
		l.ld.req = reqSeq.Add(1)
	}
	l.ld.loading = true
	l.ld.since = l.ctx.now()
	// Every page has a deadline: a server that accepts the connection and
	// never answers must not leave the pane loading for ever.
	return l.job(fresh).cmd(cursor, fresh)
}

// job copies what a page read needs from the list.
func (l *list) job(fresh bool) pageJob {
	j := pageJob{
		lctx: l.ld.lctx, req: l.ld.req, pane: l.pane, fetch: l.fetch, st: l.ctx.Store,
		limit: l.pageLimit(fresh), aheadLimit: l.pageLimit(false),
		timeout: l.ctx.readTimeout(), all: l.ld.all,
	}
	if l.ld.all {
		j.pre = prerender{row: l.rowOf, now: l.ctx.now(), th: l.ctx.Theme}
	}
	return j
}

// waitingFor names the request in flight the way the operator can check
// it: the operation and the index (or table) it reads.
func (l *list) waitingFor() string { return l.scope.Operation() }

// waited is how long the request in flight has been waiting, by the
// pane's clock.
func (l *list) waited() time.Duration {
	if !l.ld.loading || l.ld.since.IsZero() {
		return 0
	}
	return max(l.ctx.now().Sub(l.ld.since), 0)
}

// waitingText is what a loading list says: what it waits for, for how
// long, and how to stop waiting.
func (l *list) waitingText() string {
	text := "waiting for " + l.waitingFor()
	if w := l.waited(); w >= time.Second {
		text += " · " + shortDuration(w.Truncate(time.Second))
	}
	return text + " · esc cancels"
}

// more fetches the next page, if there is one and nothing is loading.
func (l *list) more() tea.Cmd {
	if l.ld.loading || l.ld.next == nil || !l.hasScope {
		return nil
	}
	return l.request(l.ld.next, false)
}

// loadAll fetches every remaining page, one after the other, until the end
// or until cancelled.
func (l *list) loadAll() tea.Cmd {
	if !l.hasScope {
		return nil
	}
	if !l.ld.started {
		cmd := l.load()
		l.setAll(true)
		return tea.Batch(cmd, l.estimate())
	}
	if l.ld.next == nil {
		l.note = fmt.Sprintf("all %s loaded", l.kind)
		return nil
	}
	l.setAll(true)
	if l.ld.loading {
		// The page in flight continues the chain when it arrives.
		return l.estimate()
	}
	return tea.Batch(l.request(l.ld.next, false), l.estimate())
}

// setAll says whether the list is loading every remaining page. While any
// list is, the collector runs less often (gcpace.Bulk): the pages add tens
// of megabytes of live rows, and collecting at every doubling cost an
// eighth of a load-all's CPU.
func (l *list) setAll(on bool) {
	switch {
	case on && l.ld.bulkDone == nil:
		l.ld.bulkDone = gcpace.Bulk()
	case !on && l.ld.bulkDone != nil:
		l.ld.bulkDone()
		l.ld.bulkDone = nil
	}
	l.ld.all = on
}

// estimate asks for the table's item count, the denominator of the
// progress bar. It is an upper bound (the query reads one partition), so
// the bar is labelled approximate and only reaches 100% when done.
func (l *list) estimate() tea.Cmd {
	if l.ctx.Store == nil {
		return nil
	}
	var (
		ctx     = l.ld.lctx
		req     = l.ld.req
		pane    = l.pane
		st      = l.ctx.Store
		table   = l.scope.Table
		timeout = l.ctx.readTimeout()
	)
	if ctx == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		est, err := st.EstimateScan(ctx, table)
		if err != nil {
			return nil
		}
		return estimateMsg{pane: pane, req: req, count: est.ItemCount}
	}
}

// onPage applies an answer; it reports false when the answer was not for
// this list's current request (and so must be ignored).
func (l *list) onPage(m pageMsg) (bool, tea.Cmd) {
	if m.req == 0 || m.req != l.ld.req {
		return false, nil
	}
	l.ld.consumed, l.ld.hasReq = m.res.consumed, true
	if m.err != nil {
		l.ld.loading = false
		l.setAll(false)
		if m.timedOut {
			// The request's context is dropped with it, so r starts
			// afresh.
			l.ld.err = fmt.Sprintf("%s timed out: no answer from DynamoDB within %s — r retries", l.waitingFor(), m.timeout)
			return true, nil
		}
		if data.IsCancelled(m.err) {
			return true, nil
		}
		l.ld.err = data.Describe(m.err)
		return true, nil
	}
	l.ld.err = ""
	l.ld.pages++
	l.ld.next = m.res.next
	now, th := l.ctx.now(), l.ctx.Theme
	if m.fresh {
		l.resetItems(len(m.res.recs))
	}
	rows := make([]vtable.Row, 0, len(m.res.recs))
	ids := make([]string, 0, len(m.res.recs))
	items := make([]data.Item, 0, len(m.res.recs))
	built := len(m.rows) == len(m.res.recs) && m.rowsTheme == th.Name
	for i, r := range m.res.recs {
		id := rowID(r.Table(), r.Item(), len(l.items)+len(rows))
		var row vtable.Row
		if built {
			row = l.finish(m.rows[i], r, id)
		} else {
			row = l.render(r, now, th, id)
		}
		rows = append(rows, row)
		ids = append(ids, row.ID)
		items = append(items, r.Item())
	}
	if m.packed.ok {
		l.putPacked(ids, items, m.packed)
	} else {
		l.putPage(ids, items)
	}
	if m.fresh {
		l.table.SetRows(rows)
	} else {
		// A merge into the shown order, not one insert per row: load-all
		// of 100k rows stays linear.
		l.table.Append(rows)
	}
	if l.selectID != "" {
		// Only this page can hold it: earlier pages were looked at when
		// they came.
		for i, r := range m.res.recs {
			if r.ID() == l.selectID && l.table.Select(ids[i]) {
				l.selectID = ""
				break
			}
		}
	}
	if l.ld.all && l.ld.next != nil {
		if m.ahead != nil {
			l.ld.since = l.ctx.now()
			return true, l.job(false).wait(m.ahead)
		}
		return true, l.request(l.ld.next, false)
	}
	if len(m.res.recs) == 0 && l.ld.next != nil && (l.ld.empty < emptyPagesMax || l.seek && l.table.Len() == 0) {
		l.ld.empty++
		return true, l.request(l.ld.next, false)
	}
	l.ld.empty = 0
	l.ld.loading = false
	l.setAll(false)
	if l.ld.next == nil {
		l.ld.cancel()
		l.ld.lctx, l.ld.cancel = nil, nil
	}
	return true, nil
}

// cancel stops a running load, keeping the rows already shown.
func (l *list) cancelLoad() bool {
	if !l.ld.loading {
		return false
	}
	l.stop()
	l.ld.cancelled = true
	l.note = fmt.Sprintf("load cancelled: %d %s kept", l.table.Len(), l.kind)
	return true
}
