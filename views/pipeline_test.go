package views

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
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

// TestLoadAllReadsAheadAndKeepsEveryRow: load-all of a scope with many
// pages reads each page once, in order, a screenful first and then
// load-all's big pages, every row kept with its item, whatever the order
// the pipeline's reads finish in.
func TestLoadAllReadsAheadAndKeepsEveryRow(t *testing.T) {
	const total = 2345
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var limits []int32
	var calls atomic.Int32
	fetch := func(ctx context.Context, _ *data.Store, req data.PageRequest) (fetched, error) {
		calls.Add(1)
		start := 0
		if req.Cursor != nil {
			start, _ = strconv.Atoi(req.Cursor["n"].(*types.AttributeValueMemberS).Value)
		}
		limits = append(limits, req.Limit)
		var res fetched
		for i := start; i < min(start+int(req.Limit), total); i++ {
			res.recs = append(res.recs, data.DecodeSession(data.Item{
				"sessionId": data.S("sess_" + strconv.Itoa(100000+i)), "status": data.S("RUNNING"), "projectId": data.S("p"),
				"createdAt": data.S(now.Add(-time.Duration(i) * time.Second).Format(time.RFC3339)),
			}))
		}
		if end := start + int(req.Limit); end < total {
			res.next = data.Cursor{"n": data.S(strconv.Itoa(end))}
		}
		return res, nil
	}
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	p := NewSessions(c, "p", "")
	p.SetSize(120, 40)
	p.lists[subSessions].setScope(data.SessionsByProject("p"), fetch)
	l := p.active()
	drive(t, p, l.load())
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
