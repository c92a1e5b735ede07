package views

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/gcpace"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// drive runs cmd and what its messages start, the way the program would,
// feeding every message to the pane; it returns the limits of the reads.
func drive(t *testing.T, p Pane, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			t.Fatal("no end")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
		case nil:
		case pageMsg:
			queue = append(queue, p.Update(m))
		}
	}
}

// pagedFetch serves item(0) … item(total-1) as sessions, in order, a
// page of the request's Limit at a time, its cursor naming where the next
// page starts; onLimit (when not nil) is told each request's Limit.
func pagedFetch(total int, item func(i int) data.Item, onLimit func(int32)) fetchFunc {
	return func(ctx context.Context, _ *data.Store, req data.PageRequest) (fetched, error) {
		if onLimit != nil {
			onLimit(req.Limit)
		}
		start := 0
		if req.Cursor != nil {
			start, _ = strconv.Atoi(req.Cursor["n"].(*types.AttributeValueMemberS).Value)
		}
		var res fetched
		for i := start; i < min(start+int(req.Limit), total); i++ {
			res.recs = append(res.recs, data.DecodeSession(item(i)))
		}
		if end := start + int(req.Limit); end < total {
			res.next = data.Cursor{"n": data.S(strconv.Itoa(end))}
		}
		return res, nil
	}
}

// sessionsOver is a Sessions pane at 120×40 whose list reads fetch, its
// first page loaded.
func sessionsOver(t *testing.T, c *Context, fetch fetchFunc) (*Sessions, *list) {
	t.Helper()
	p := NewSessions(c, "p", "")
	p.SetSize(120, 40)
	p.lists[subSessions].setScope(data.SessionsByProject("p"), fetch)
	l := p.active()
	drive(t, p, l.load())
	return p, l
}

// TestLoadAllReadsAheadAndKeepsEveryRow: load-all of a scope with many
// pages reads each page once, in order, a screenful first and then
// load-all's big pages, every row kept with its item, whatever the order
// the pipeline's reads finish in.
func TestLoadAllReadsAheadAndKeepsEveryRow(t *testing.T) {
	const total = 2345
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var limits []int32
	fetch := pagedFetch(total, func(i int) data.Item {
		return data.Item{
			"sessionId": data.S("sess_" + strconv.Itoa(100000+i)), "status": data.S("RUNNING"), "projectId": data.S("p"),
			"createdAt": data.S(now.Add(-time.Duration(i) * time.Second).Format(time.RFC3339)),
		}
	}, func(limit int32) { limits = append(limits, limit) })
	p, l := sessionsOver(t, &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}, fetch)
	if got := l.table.Len(); got != FirstPageRows {
		t.Fatalf("first page: %d rows, want a screenful (%d)", got, FirstPageRows)
	}
	drive(t, p, l.loadAll())
	if got := l.table.Len(); got != total || l.ld.loading || l.ld.next != nil {
		t.Fatalf("after load-all: %d rows (loading %v), want %d", got, l.ld.loading, total)
	}
	if want := []int32{FirstPageRows, loadAllPageSize, loadAllPageSize, loadAllPageSize}; len(limits) != len(want) || limits[1] != want[1] || limits[0] != want[0] {
		t.Fatalf("page limits %v, want %v", limits, want)
	}
	for i := range total {
		id := rowID(data.TableSessions, data.Item{"sessionId": data.S("sess_" + strconv.Itoa(100000+i))}, -1)
		if _, ok := l.getItem(id); !ok {
			t.Fatalf("row %d has no item", i)
		}
	}
}

// TestLoadAllRowsBuiltAheadAreTheListsRows: a load-all page's rows are
// built on the goroutine that read it, and each is the row the list would
// have built itself (masked secrets, the "!" of a running session past
// its expiry, the "?" of an item unlike its schema). A page built under
// another theme than the list's when it lands is built again.
func TestLoadAllRowsBuiltAheadAreTheListsRows(t *testing.T) {
	const total = 1500
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	item := func(i int) data.Item {
		it := data.Item{
			"sessionId": data.S("sess_" + strconv.Itoa(100000+i)), "status": data.S("RUNNING"), "projectId": data.S("p"),
			"createdAt": data.S(now.Add(-time.Duration(i) * time.Second).Format(time.RFC3339)),
			"expiresAt": data.S(now.Add(time.Duration(i%7-3) * time.Minute).Format(time.RFC3339)),
			"region":    data.S("us-east-1 token=sk_live_" + strconv.Itoa(1000000+i)),
		}
		if i%11 == 0 {
			it["retryCount"] = data.S("three") // not a number: an issue
		}
		return it
	}
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	p, l := sessionsOver(t, c, pagedFetch(total, item, nil))

	// The page is built ahead when load-all asks for it.
	l.ld.all = true
	m := l.job(false).run(l.ld.next, false)
	if m.err != nil || len(m.rows) != len(m.res.recs) || len(m.rows) == 0 {
		t.Fatalf("a load-all page: %d rows built ahead for %d records (err %v)", len(m.rows), len(m.res.recs), m.err)
	}
	l.ld.all = false

	drive(t, p, l.loadAll())
	if got := l.table.Len(); got != total {
		t.Fatalf("after load-all: %d rows, want %d", got, total)
	}
	flagged, masked, odd := 0, 0, 0
	for i := range total {
		rec := data.DecodeSession(item(i))
		want := l.render(rec, now, c.Theme, rowID(data.TableSessions, rec.Item(), -1))
		got, ok := l.table.Row(want.ID)
		if !ok {
			t.Fatalf("row %d missing", i)
		}
		if len(got.Cells) != len(want.Cells) || got.Tag != want.Tag || got.Dim != want.Dim {
			t.Fatalf("row %d: tag %q dim %v, want %q %v", i, got.Tag, got.Dim, want.Tag, want.Dim)
		}
		for k := range want.Cells {
			if got.Cells[k] != want.Cells[k] && (got.Cells[k].Text != want.Cells[k].Text || styled(got.Cells[k]) != styled(want.Cells[k])) {
				t.Fatalf("row %d cell %d: %q %q, want %q %q", i, k, got.Cells[k].Text, styled(got.Cells[k]), want.Cells[k].Text, styled(want.Cells[k]))
			}
		}
		if got.Tag == "!" {
			flagged++
		}
		if got.Tag == "?" {
			odd++
		}
		for _, cell := range got.Cells {
			if strings.Contains(cell.Text, "sk_live_") {
				t.Fatalf("row %d shows a secret: %q", i, cell.Text)
			}
			if strings.Contains(cell.Text, "token=") {
				masked++
			}
		}
	}
	if flagged == 0 || odd == 0 || masked == 0 {
		t.Fatalf("the rows exercise too little: %d flagged, %d with issues, %d masked", flagged, odd, masked)
	}

	// A page built under another theme is built again with the list's.
	l.ld.all = true
	c.Theme = themes.Light()
	stale := l.job(false)
	stale.pre.th = themes.Dark()
	l.ld.lctx, l.ld.cancel = context.WithCancel(context.Background()) // the load-all was over
	stale.lctx = l.ld.lctx
	ahead := stale.run(nil, false)
	if ahead.rowsTheme == c.Theme.Name {
		t.Fatal("the test's page was built under the list's theme")
	}
	ahead.req = l.ld.req
	ahead.res.recs = ahead.res.recs[:1]
	ahead.rows = ahead.rows[:1]
	ahead.res.next = nil
	l.onPage(ahead)
	rec := ahead.res.recs[0]
	want := l.render(rec, now, c.Theme, rowID(data.TableSessions, rec.Item(), -1))
	got, _ := l.table.Row(want.ID)
	restyled := 0
	for k := range want.Cells {
		if styled(got.Cells[k]) != styled(want.Cells[k]) {
			t.Fatalf("after a theme change, cell %d styled %q, want %q", k, styled(got.Cells[k]), styled(want.Cells[k]))
		}
		if want.Cells[k].Style != nil && styled(want.Cells[k]) != styled(ahead.rows[0].Cells[k]) {
			restyled++
		}
	}
	if restyled == 0 {
		t.Fatal("no cell differs between the two themes: the test shows nothing")
	}
}

// styled is how a cell's style draws a sample: two styles that draw it
// alike are alike.
func styled(c vtable.Cell) string {
	if c.Style == nil {
		return ""
	}
	return c.Style.Render("x")
}

// TestLoadAllPacesTheCollector: while a load-all reads, the collector runs
// at its bulk pace; it is back at the program's own once the last page is
// in, once the operator cancels, and once a page fails.
func TestLoadAllPacesTheCollector(t *testing.T) {
	base := gcpace.Percent()
	if base <= 0 {
		t.Skip("GOGC is off in this test process")
	}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	item := func(i int) data.Item {
		return data.Item{"sessionId": data.S("sess_" + strconv.Itoa(100000+i)), "status": data.S("RUNNING"), "projectId": data.S("p"),
			"createdAt": data.S(now.Format(time.RFC3339))}
	}
	ctx := func() *Context {
		return &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	}

	// To the end.
	var during []int
	p, l := sessionsOver(t, ctx(), pagedFetch(3500, item, func(limit int32) {
		if limit == loadAllPageSize {
			during = append(during, gcpace.Percent())
		}
	}))
	drive(t, p, l.loadAll())
	if len(during) == 0 {
		t.Fatal("no load-all page was read")
	}
	for i, v := range during {
		if v != base*gcpace.BulkFactor {
			t.Fatalf("load-all page %d read at GOGC %d, want %d", i, v, base*gcpace.BulkFactor)
		}
	}
	if got := gcpace.Percent(); got != base {
		t.Fatalf("after load-all: GOGC %d, want %d", got, base)
	}

	// Cancelled after its first page: the page read ahead is never taken.
	p, l = sessionsOver(t, ctx(), pagedFetch(3500, item, nil))
	m, ok := l.loadAll()().(pageMsg) // no Store: no estimate beside it
	if !ok {
		t.Fatal("load-all did not start with a page read")
	}
	p.Update(m)
	if got := gcpace.Percent(); got != base*gcpace.BulkFactor {
		t.Fatalf("mid load-all: GOGC %d, want %d", got, base*gcpace.BulkFactor)
	}
	if !l.cancelLoad() {
		t.Fatal("nothing to cancel")
	}
	if got := gcpace.Percent(); got != base {
		t.Fatalf("after cancelling: GOGC %d, want %d", got, base)
	}

	// A page fails.
	fail := pagedFetch(3500, item, nil)
	p, l = sessionsOver(t, ctx(), func(c context.Context, st *data.Store, req data.PageRequest) (fetched, error) {
		if req.Cursor != nil {
			return fetched{}, errors.New("connection reset")
		}
		return fail(c, st, req)
	})
	drive(t, p, l.loadAll())
	if l.ld.err == "" {
		t.Fatal("the failing page left no error")
	}
	if got := gcpace.Percent(); got != base {
		t.Fatalf("after a failed page: GOGC %d, want %d", got, base)
	}
}
