package views

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// pollFixture is a Sandboxes-style pane whose fetch answers from a slice
// the test edits, or fails while failing is set: the polling logic is
// tested on its own here; the whole path against DynamoDB Local is in
// ui/live_poll_test.go.
type pollFixture struct {
	pane    *base
	rows    []data.Record
	failing bool
	calls   int
}

func sandbox(id, name, status string) data.Record {
	sv := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	nv := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	return data.Decode(data.TableSandboxes, data.Item{
		"PK": sv("SBX#" + id), "SK": sv("META"), "sandbox_id": sv(id), "name": sv(name),
		"status": sv(status), "allocated_at": nv("1763726400"), "lab_duration_hours": nv("4"),
	})
}

func newPollFixture(t *testing.T) *pollFixture {
	t.Helper()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	f := &pollFixture{}
	l := newList(c, PaneSandboxes, sandboxesPresenter)
	l.setScope(data.SandboxesByStatus("available"), func(ctx context.Context, _ *data.Store, _ data.PageRequest) (fetched, error) {
		f.calls++
		if f.failing {
			return fetched{}, errors.New("connection reset by peer")
		}
		return fetched{recs: append([]data.Record(nil), f.rows...)}, nil
	})
	f.pane = &base{ctx: c, id: PaneSandboxes, lists: []*list{l}}
	f.pane.SetSize(120, 20)
	f.rows = []data.Record{sandbox("a", "sbx-a", "available"), sandbox("b", "sbx-b", "available"), sandbox("c", "sbx-c", "available")}
	msg := l.load()()
	f.pane.Update(msg)
	if got := f.pane.Status().Rows; got != 3 {
		t.Fatalf("loaded %d rows, want 3", got)
	}
	return f
}

func selectedName(p *base) string {
	it, ok := p.Selected()
	if !ok {
		return ""
	}
	if v, ok := it["name"].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// TestPollMergesInPlace: a refresh changes rows in place (cursor stays on
// its item), adds new ones, removes the ones gone, and a tick while a
// refresh runs is dropped.
func TestPollMergesInPlace(t *testing.T) {
	f := newPollFixture(t)
	f.pane.Update(pressKey("j")) // cursor on sbx-b
	if selectedName(f.pane) != "sbx-b" {
		t.Fatalf("selected %q", selectedName(f.pane))
	}
	f.rows = []data.Record{sandbox("b", "sbx-b-renamed", "available"), sandbox("c", "sbx-c", "available"), sandbox("d", "sbx-d", "available")}
	cmd := f.pane.Poll()
	if cmd == nil {
		t.Fatal("Poll returned no command")
	}
	if f.pane.Poll() != nil {
		t.Fatal("a second Poll while one runs was not dropped")
	}
	f.pane.PollDone(cmd().(PollMsg))
	if got := selectedName(f.pane); got != "sbx-b-renamed" {
		t.Fatalf("after the refresh the cursor is on %q, want sbx-b-renamed", got)
	}
	view := f.pane.View()
	for _, want := range []string{"sbx-b-renamed", "sbx-c", "sbx-d"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %s", want)
		}
	}
	if strings.Contains(view, "sbx-a") || f.pane.Status().Rows != 3 {
		t.Errorf("the row gone from the table is still listed (%d rows)", f.pane.Status().Rows)
	}
	if f.pane.Poll() == nil {
		t.Fatal("Poll after the refresh finished returned nothing")
	}
}

// TestPollBacksOffAfterErrors: failures skip 1, then 3 ticks, keep the
// rows, say so, and a success resets the backoff.
func TestPollBacksOffAfterErrors(t *testing.T) {
	f := newPollFixture(t)
	f.failing = true
	run := func() bool {
		cmd := f.pane.Poll()
		if cmd == nil {
			return false
		}
		f.pane.PollDone(cmd().(PollMsg))
		return true
	}
	var pattern []bool
	for range 7 {
		pattern = append(pattern, run())
	}
	// fail, skip 1, fail, skip 3, fail
	want := []bool{true, false, true, false, false, false, true}
	for i := range want {
		if pattern[i] != want[i] {
			t.Fatalf("poll pattern %v, want %v", pattern, want)
		}
	}
	if f.pane.Status().Rows != 3 {
		t.Fatalf("a failed refresh changed the rows: %d", f.pane.Status().Rows)
	}
	if !strings.Contains(f.pane.Status().Note, "polling failed") {
		t.Fatalf("note = %q", f.pane.Status().Note)
	}
	f.failing = false
	for i := 0; i < 8 && !run(); i++ {
	}
	if f.pane.Status().Note != "" {
		t.Fatalf("note after recovery = %q", f.pane.Status().Note)
	}
	if !run() {
		t.Fatal("after a success the next tick still backs off")
	}
}

func pressKey(k string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(k)[0], Text: k} }
