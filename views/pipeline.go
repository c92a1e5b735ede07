package views

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Load-all runs as a pipeline: while the UI goroutine applies page N
// (shared cell texts, ids, the table merge), page N+1 is already being
// read, decoded, packed and built into rows on another goroutine; at most
// one page waits ahead, so a slow UI never lets pages pile up. The work
// that does not need the list's state — the read, decoding, encoding and
// compressing the page's items into a block, building its rows — happens
// in the Cmd, never on the UI goroutine.

// prerender is what building a page's rows ahead of the UI goroutine
// needs: the list's row builder (pure), and the clock and theme of the
// moment the page was asked for. Only load-all's pages are built ahead:
// they are most of its UI work (6 ms of 9 a page of 1,000 sessions), and a
// key waited behind them. A first page stays on the UI goroutine, built
// with the clock of the moment it is shown. The rows a load-all page
// brings into the window are retimed within a second, as any rows that
// move there are (retime.go), and a page built under another theme is
// built again (onPage).
type prerender struct {
	row rowFunc
	now time.Time
	th  themes.Theme
}

// build renders recs with the clock and theme of the request.
func (p prerender) build(recs []data.Record) []vtable.Row {
	rows := make([]vtable.Row, len(recs))
	for i, r := range recs {
		rows[i] = p.row(r, p.now, p.th)
	}
	return rows
}

// packed is a page's items encoded (and, but for a list's first block,
// compressed) off the UI goroutine; putPacked stores it.
type packed struct {
	z     []byte
	plain bool
	// bad are the positions of items the codec cannot encode (kept loose).
	bad []int
	ok  bool // z holds the page (false: pack on the UI goroutine)
}

// packPage encodes items into one block, compressed unless plain.
func packPage(items []data.Item, plain bool) packed {
	packer.mu.Lock()
	defer packer.mu.Unlock()
	raw := packer.raw[:0]
	var pk packed
	for i, it := range items {
		next, ok := appendItem(raw, it)
		if !ok {
			pk.bad = append(pk.bad, i)
			continue
		}
		raw = next
	}
	if plain {
		pk.z, pk.plain = append([]byte(nil), raw...), true
	} else {
		pk.z = packer.compress(raw)
	}
	if cap(raw) <= packerKeepMax {
		packer.raw = raw
	}
	pk.ok = true
	return pk
}

// ahead is a page being read while the one before it is applied.
type ahead struct{ ch chan pageMsg }

// pageJob is everything one page read needs, copied from the list so the
// goroutines never touch it.
type pageJob struct {
	lctx  context.Context
	req   uint64
	pane  PaneID
	fetch fetchFunc
	st    *data.Store
	limit int32
	// aheadLimit is the Limit of the pages read ahead.
	aheadLimit int32
	timeout    time.Duration
	// all: load-all; the next page is read ahead.
	all bool
	// pre builds a load-all page's rows (pre.row nil: not built ahead).
	pre prerender
}

// run reads one page (with its own deadline) and packs it. fresh pages
// start a list: their block stays plain (see pack.plain).
func (j pageJob) run(cursor data.Cursor, fresh bool) pageMsg {
	ctx, cancel := context.WithTimeout(j.lctx, j.timeout)
	defer cancel()
	res, err := j.fetch(ctx, j.st, data.PageRequest{Limit: j.limit, Cursor: cursor})
	timedOut := err != nil && j.lctx.Err() == nil && ctx.Err() == context.DeadlineExceeded
	m := pageMsg{pane: j.pane, req: j.req, fresh: fresh, res: res, err: err, timedOut: timedOut, timeout: j.timeout}
	if err == nil {
		items := make([]data.Item, len(res.recs))
		for i, r := range res.recs {
			items[i] = r.Item()
		}
		m.packed = packPage(items, fresh)
		if j.pre.row != nil && !fresh {
			m.rows, m.rowsTheme = j.pre.build(res.recs), j.pre.th.Name
		}
	}
	return m
}

// startAhead reads the page at cursor on its own goroutine.
func (j pageJob) startAhead(cursor data.Cursor) *ahead {
	a := &ahead{ch: make(chan pageMsg, 1)}
	j.limit = j.aheadLimit
	go func() { a.ch <- j.run(cursor, false) }()
	return a
}

// cmd reads the page at cursor; in load-all it starts reading the next
// one as soon as this one is in, before the UI applies it.
func (j pageJob) cmd(cursor data.Cursor, fresh bool) tea.Cmd {
	return func() tea.Msg { return j.chain(j.run(cursor, fresh)) }
}

// wait is the Cmd that takes the page read ahead.
func (j pageJob) wait(a *ahead) tea.Cmd {
	return func() tea.Msg {
		select {
		case m := <-a.ch:
			return j.chain(m)
		case <-j.lctx.Done():
			return pageMsg{pane: j.pane, req: j.req, err: j.lctx.Err()}
		}
	}
}

func (j pageJob) chain(m pageMsg) pageMsg {
	if j.all && m.err == nil && m.res.next != nil {
		m.ahead = j.startAhead(m.res.next)
	}
	return m
}

// Page sizes, when the Context does not fix one (Context.PageSize): the
// first page of a list is about a screenful, so the rows the operator
// looks at first come back soonest (half the reading and decoding of a
// default page); later pages are the default size, and load-all's are
// bigger — fewer round trips, and with the columns' attributes only
// (whole.go) a thousand sessions are a fraction of DynamoDB's 1 MB page.
const (
	FirstPageRows   = 50
	loadAllPageSize = 1000
)

// pageLimit is the Limit of the next page read (0: the data layer's
// default).
func (l *list) pageLimit(fresh bool) int32 {
	switch {
	case l.ctx.PageSize > 0:
		return l.ctx.PageSize
	case fresh:
		_, h := l.table.Size()
		return min(max(FirstPageRows, int32(h)), data.DefaultPageSize)
	case l.ld.all:
		return loadAllPageSize
	}
	return 0
}

// IsPage reports whether msg is a page answer of a list (the root draws
// load-all's pages at a bounded rate).
func IsPage(msg tea.Msg) bool {
	_, ok := msg.(pageMsg)
	return ok
}
