package ui

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

func sessionKeys(it data.Item) data.Item { return data.Item{"sessionId": it["sessionId"]} }

// batch delivers records (and health) to the root model the way the feed
// does, without a feed: the returned command is not run.
func batch(t *testing.T, m Model, b livefeed.BatchMsg) Model {
	t.Helper()
	nm, _ := m.Update(b)
	return nm.(Model)
}

// TestLiveBatchUpdatesRowsInPlace feeds stream records into the root model
// over the seeded world: a MODIFY changes the selected row in place with
// the cursor staying on it, an INSERT in scope adds a row without moving
// the cursor, an INSERT out of scope adds nothing, a record whose new image
// left the scope removes the row, and a TTL delete removes it saying
// "expired (TTL)". The Stream pane receives every record, and the status
// bar shows each table's health.
func TestLiveBatchUpdatesRowsInPlace(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "j", "j")
	p := m.slotOf(views.PaneSessions)
	sel, ok := p.sel.Selected()
	if !ok {
		t.Fatal("no session selected")
	}
	selID := attr(sel, "sessionId")
	rows := p.Status().Rows
	if rows < 3 {
		t.Fatalf("the seeded project has %d sessions, want ≥ 3", rows)
	}

	// MODIFY the selected row: same item, new region.
	mod := maps.Clone(sel)
	mod["region"] = s("ap-zz-9")
	m = batch(t, m, livefeed.BatchMsg{
		Records: []stream.Record{{Table: data.TableSessions, EventName: "MODIFY", Keys: sessionKeys(sel), Old: sel, New: mod}},
		Health: []stream.Health{
			{Table: data.TableSessions, State: stream.StateLive},
			{Table: data.TableEvents, State: stream.StateLive},
			{Table: data.TableSandboxes, State: stream.StatePolling},
		},
	})
	got, _ := p.sel.Selected()
	if attr(got, "sessionId") != selID || attr(got, "region") != "ap-zz-9" {
		t.Fatalf("after MODIFY the cursor is on %s region %s, want %s region ap-zz-9", attr(got, "sessionId"), attr(got, "region"), selID)
	}
	if p.Status().Rows != rows {
		t.Fatalf("MODIFY changed the row count: %d → %d", rows, p.Status().Rows)
	}
	scr := stripANSI(m.Render())
	if !strings.Contains(scr, "ap-zz-9") {
		t.Fatalf("the modified value is not on screen:\n%s", scr)
	}
	lines := strings.Split(scr, "\n")
	if !strings.Contains(lines[1], "live") {
		t.Errorf("title line does not say live: %q", lines[1])
	}
	if st := lines[len(lines)-2]; !strings.Contains(st, "tail 2 live 1 polling") {
		t.Errorf("status bar lacks the stream health: %q", st)
	}

	// INSERT in scope: one more row, cursor unmoved.
	ins := maps.Clone(sel)
	ins["sessionId"] = s("sess_live_inserted")
	// INSERT of another project: not this pane's business.
	other := maps.Clone(sel)
	other["sessionId"] = s("sess_live_elsewhere")
	other["projectId"] = s("proj_somewhere_else")
	m = batch(t, m, livefeed.BatchMsg{Records: []stream.Record{
		{Table: data.TableSessions, EventName: "INSERT", Keys: sessionKeys(ins), New: ins},
		{Table: data.TableSessions, EventName: "INSERT", Keys: sessionKeys(other), New: other},
	}})
	if p.Status().Rows != rows+1 {
		t.Fatalf("rows after an in-scope and an out-of-scope INSERT = %d, want %d", p.Status().Rows, rows+1)
	}
	if got, _ := p.sel.Selected(); attr(got, "sessionId") != selID {
		t.Fatalf("INSERT moved the cursor to %s", attr(got, "sessionId"))
	}
	ids := strings.Join(m.sessionsPane().IDs(), " ")
	if !strings.Contains(ids, "sess_live_inserted") || strings.Contains(ids, "sess_live_elsewhere") {
		t.Fatalf("listed after the INSERTs: %s", ids)
	}

	// The inserted session moves to another project: it leaves the scope.
	moved := maps.Clone(ins)
	moved["projectId"] = s("proj_somewhere_else")
	m = batch(t, m, livefeed.BatchMsg{Records: []stream.Record{
		{Table: data.TableSessions, EventName: "MODIFY", Keys: sessionKeys(ins), Old: ins, New: moved},
	}})
	if p.Status().Rows != rows {
		t.Fatalf("a row that left the scope is still listed (%d rows, want %d)", p.Status().Rows, rows)
	}
	if got, _ := p.sel.Selected(); attr(got, "sessionId") != selID {
		t.Fatalf("removing another row moved the cursor to %s", attr(got, "sessionId"))
	}

	// DynamoDB's TTL process deletes the selected session.
	m = batch(t, m, livefeed.BatchMsg{Records: []stream.Record{
		{Table: data.TableSessions, EventName: "REMOVE", Keys: sessionKeys(sel), Old: mod, TTL: true},
	}})
	if p.Status().Rows != rows-1 {
		t.Fatalf("rows after a TTL delete = %d, want %d", p.Status().Rows, rows-1)
	}
	scr = stripANSI(m.Render())
	if strings.Contains(scr, selID+" ") && !strings.Contains(scr, selID+" expired (TTL)") {
		t.Fatalf("the expired row is still listed:\n%s", scr)
	}
	if !strings.Contains(scr, selID+" expired (TTL)") {
		t.Fatalf("no \"expired (TTL)\" notice:\n%s", scr)
	}

	// The Stream pane got every record, in order.
	live := m.streamLive()
	if live.Len() != 5 {
		t.Fatalf("Stream pane holds %d records, want 5", live.Len())
	}
	m, _ = press(t, m, "6")
	scr = stripANSI(m.Render())
	if !strings.Contains(scr, "5 records") || !strings.Contains(scr, "sess_live_elsewhere") {
		t.Fatalf("Stream pane:\n%s", scr)
	}
	lines = strings.Split(scr, "\n")
	if st := lines[len(lines)-2]; !strings.Contains(st, "live: sessions events") || !strings.Contains(st, "sandboxes polling") {
		t.Errorf("Stream pane's status bar lacks per-table health: %q", st)
	}
}

// TestLiveBatchInEveryMode: a batch is applied and the feed asked for the
// next one whatever owns the keyboard — help, command line, filter line, a
// dialog — so the tail never stalls behind a prompt.
func TestLiveBatchInEveryMode(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks := make(chan time.Time, 16)
	feed := livefeed.New(ctx, livefeed.Options{Ticks: ticks})
	defer feed.Close()
	m := New(Options{Now: func() time.Time { return fixedNow }, Feed: feed, FallbackInterval: time.Hour})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m = nm.(Model)

	enter := map[string]func(Model) Model{
		"help":    func(m Model) Model { return sendKey(m, "?") },
		"command": func(m Model) Model { return sendKey(m, ":") },
		"filter":  func(m Model) Model { return sendKey(m, "/") },
		"dialog": func(m Model) Model {
			nm, _ := m.Update(OpenDialogMsg{Dialog: stubDialog{}})
			return nm.(Model)
		},
	}
	n := 0
	for _, mode := range []string{"help", "command", "filter", "dialog"} {
		m = enter[mode](m)
		if m.Mode() != mode {
			t.Fatalf("could not enter mode %s (in %s)", mode, m.Mode())
		}
		n++
		rec := stream.Record{Table: data.TableEvents, EventName: "INSERT", Keys: data.Item{"user_id": s("u"), "timestamp#event_id": s(mode)}, New: data.Item{"user_id": s("u"), "timestamp#event_id": s(mode)}}
		nm, cmd := m.Update(livefeed.BatchMsg{Records: []stream.Record{rec}})
		m = nm.(Model)
		if m.Mode() != mode {
			t.Fatalf("a batch changed the mode from %s to %s", mode, m.Mode())
		}
		if got := m.streamLive().Len(); got != n {
			t.Fatalf("in %s mode the Stream pane holds %d records, want %d", mode, got, n)
		}
		// The returned command must include the feed's Next: give the feed
		// a record and a tick, and the command delivers them.
		next := rec
		next.Keys = data.Item{"user_id": s("u"), "timestamp#event_id": s(mode + "-next")}
		feed.Records([]stream.Record{next})
		ticks <- time.Now()
		b := awaitBatch(t, cmd)
		if len(b.Records) != 1 || attr(b.Records[0].Keys, "timestamp#event_id") != mode+"-next" {
			t.Fatalf("in %s mode the next batch is %+v", mode, b)
		}
		nm, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		m = nm.(Model)
		if mode == "dialog" {
			continue
		}
		if m.Mode() != "normal" {
			t.Fatalf("esc left %s mode as %s", mode, m.Mode())
		}
	}
}

func sendKey(m Model, k string) Model {
	nm, _ := m.Update(keyMsg(k))
	return nm.(Model)
}

// stubDialog is a dialog that stays open.
type stubDialog struct{}

func (d stubDialog) Update(tea.Msg) (Dialog, tea.Cmd) { return d, nil }
func (stubDialog) View(w, h int) string               { return "stub dialog" }

// awaitBatch runs cmd (not its timers, the highlight redraws) and returns
// the BatchMsg it yields: the feed's next batch, if the command re-armed it.
func awaitBatch(t *testing.T, cmd tea.Cmd) livefeed.BatchMsg {
	t.Helper()
	out := make(chan []tea.Msg, 1)
	go func() {
		msgs, _ := uitest.Messages(cmd)
		out <- msgs
	}()
	select {
	case msgs := <-out:
		for _, msg := range msgs {
			if b, ok := msg.(livefeed.BatchMsg); ok {
				return b
			}
		}
		t.Fatalf("the command delivered no batch (%d other messages): the feed was not re-armed", len(msgs))
	case <-time.After(10 * time.Second):
		t.Fatal("the command never delivered the next batch: the feed was not re-armed")
	}
	return livefeed.BatchMsg{}
}

// TestLiveDroppedRecordsReloadLists: when the feed says it dropped records,
// lists that were loaded are read again (they may have missed changes) and
// the operator is told.
func TestLiveDroppedRecordsReloadLists(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	p := m.slotOf(views.PaneSessions)
	rows := p.Status().Rows
	// A fake row the database does not hold: a reload must drop it.
	sel, _ := p.sel.Selected()
	ghost := maps.Clone(sel)
	ghost["sessionId"] = s("sess_ghost")
	nm, _ := m.Update(changesMsg([]views.Change{{Table: data.TableSessions, Event: "INSERT", New: ghost}}))
	m = nm.(Model)
	if p.Status().Rows != rows+1 {
		t.Fatalf("ghost row not added")
	}
	nm, cmd := m.Update(livefeed.BatchMsg{Dropped: 5})
	m, _ = settle(t, nm.(Model), cmd)
	if p.Status().Rows != rows {
		t.Fatalf("after dropped records the list was not reloaded: %d rows, want %d", p.Status().Rows, rows)
	}
	if !strings.Contains(m.Flash(), "5 stream records dropped") {
		t.Fatalf("flash = %q", m.Flash())
	}
	if d := m.streamLive().Dropped(); d != 5 {
		t.Fatalf("Stream pane counts %d dropped, want 5", d)
	}
}

// TestLiveBatchRefreshesTheDialog: a stream record about the target of an
// open confirmation reaches the dialog through the feed's batch, not only
// through a batch of the live tail.
func TestLiveBatchRefreshesTheDialog(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_feed", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_feed")
	m, _ = press(t, m, "x")
	if m.Mode() != "dialog" {
		t.Fatalf("no confirmation open (mode %s)", m.Mode())
	}
	now := w.set(data.TableSessions, sessKey("sess_feed"), data.Item{"internalStatus": sv("ACTIVE"), "updatedAt": sv("2026-11-21T11:30:00Z")})
	m = batch(t, m, livefeed.BatchMsg{Records: []stream.Record{
		{Table: data.TableSessions, EventName: "MODIFY", Keys: sessKey("sess_feed"), New: now},
	}})
	if out := stripANSI(m.Render()); !strings.Contains(out, "live: sess_feed changed") || !strings.Contains(out, "ACTIVE → STOPPED") {
		t.Fatalf("dialog did not follow the batch:\n%s", out)
	}
	if m.streamLive().Len() != 1 {
		t.Fatalf("the Stream pane missed the record while the dialog was open")
	}
}

// TestLiveTitleSaysWhy: the shown table's state in the title line follows
// its health, with the reason when the stream is in trouble.
func TestLiveTitleSaysWhy(t *testing.T) {
	m := New(Options{Now: func() time.Time { return fixedNow }})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m = nm.(Model)
	title := func() string { return strings.Split(stripANSI(m.Render()), "\n")[1] }
	if strings.Contains(title(), "live") || strings.Contains(title(), "polling") {
		t.Fatalf("a state is shown before any health report: %q", title())
	}
	for _, tc := range []struct {
		h    stream.Health
		want string
	}{
		// Reconnecting first: after live it would be debounced
		// (live_health_test.go covers that).
		{stream.Health{Table: data.TableSessions, State: stream.StateReconnecting, Detail: "throttled"}, "reconnecting (throttled)"},
		{stream.Health{Table: data.TableSessions, State: stream.StateLive}, "· live"},
		{stream.Health{Table: data.TableSessions, State: stream.StateGap, Detail: "records trimmed"}, "gap (records trimmed)"},
		{stream.Health{Table: data.TableSessions, State: stream.StateOff, Detail: "stream disabled"}, "stream off: polling every 5s"},
	} {
		m = batch(t, m, livefeed.BatchMsg{Health: []stream.Health{tc.h}})
		if !strings.Contains(title(), tc.want) {
			t.Errorf("after %s the title is %q, want %q in it", tc.h.State, title(), tc.want)
		}
	}
	// Another table's health does not change the Sessions pane's title.
	m = batch(t, m, livefeed.BatchMsg{Health: []stream.Health{{Table: data.TableEvents, State: stream.StateLive}}})
	if !strings.Contains(title(), "stream off") {
		t.Errorf("the events table's health changed the sessions title: %q", title())
	}
}
