package stream

import (
	"context"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
)

// TestRecoversAfterServerRestart: a DynamoDB Local of our own (with -dbPath,
// so the data survives) is stopped while the reader tails it: both tables
// report "reconnecting". It starts again, more writes are made, and the
// reader reports "live" again and delivers them: every record before and
// after the outage exactly once.
func TestRecoversAfterServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own DynamoDB Local")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv := ddblocal.StartTest(ctx, t, ddblocal.Options{DBPath: t.TempDir()})

	conn := testConn(t, srv.Endpoint(), data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, conn, ids...)
	sink := newCollectSink()
	startTailer(t, conn, tables, Options{Tables: ids, MaxBackoff: time.Second}, sink)
	waitLive(t, sink, ids)

	w := newWorkload(conn, tables, 5)
	for i := 0; i < 40; i++ {
		if err := w.Step(ctx, ids[i%2], 8); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 30*time.Second)

	sink.mu.Lock()
	mark := len(sink.health)
	sink.mu.Unlock()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, 30*time.Second, "reconnecting on both tables", func() bool {
		return sink.sawState(data.TableSessions, StateReconnecting, mark) && sink.sawState(data.TableEvents, StateReconnecting, mark)
	})
	if err := srv.Restart(ctx); err != nil {
		t.Fatalf("restarting DynamoDB Local: %v", err)
	}
	for i := 0; i < 40; i++ {
		if err := w.Step(ctx, ids[i%2], 8); err != nil {
			t.Fatal(err)
		}
	}
	sink.waitFor(t, 60*time.Second, "live again on both tables", func() bool {
		return sink.lastState(data.TableSessions) == StateLive && sink.lastState(data.TableEvents) == StateLive
	})
	waitAll(t, sink, w, 60*time.Second)
	got, health := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	for _, h := range health[mark:] {
		if h.State == StateOff {
			t.Errorf("a restart must not stop the reader: %+v", h)
		}
	}
}

// TestRestartWithoutDataThenRecreatedTablesEndLive: the server restarts
// without its data (-inMemory), so the tables and their streams are gone:
// the reader says "off". Then the tables are created again (as `make demo`
// or a deploy would) and the reader goes "live" on the new streams and
// delivers their records: "off" is not the end.
func TestRestartWithoutDataThenRecreatedTablesEndLive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own DynamoDB Local")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := ddblocal.Start(ctx, ddblocal.Options{})
	if err != nil {
		t.Fatalf("starting DynamoDB Local: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })

	conn := testConn(t, srv.Endpoint(), data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, conn, ids...)
	sink := newCollectSink()
	opts := comeBackOptions(ids)
	opts.MaxBackoff = time.Second
	startTailer(t, conn, tables, opts, sink)
	waitLive(t, sink, ids)
	w := newWorkload(conn, tables, 51)
	for i := 0; i < 20; i++ {
		if err := w.Step(ctx, ids[i%2], 5); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 30*time.Second)

	if err := srv.Restart(ctx); err != nil {
		t.Fatalf("restarting DynamoDB Local: %v", err)
	}
	sink.waitFor(t, 60*time.Second, "off on both tables", func() bool {
		return sink.lastState(data.TableSessions) == StateOff && sink.lastState(data.TableEvents) == StateOff
	})
	for _, id := range ids {
		if _, err := conn.DB.CreateTable(ctx, demo.CreateTableInput(data.MustSchema(id), tables.Name(id), false)); err != nil {
			t.Fatal(err)
		}
	}
	sink.waitFor(t, 60*time.Second, "live again on both tables", func() bool {
		return sink.lastState(data.TableSessions) == StateLive && sink.lastState(data.TableEvents) == StateLive
	})
	_, health := sink.snapshot()
	for _, id := range ids {
		if replacedReports(health, id) != 1 {
			t.Errorf("%s: the new stream was not reported as a replacement once: %s", id, healthString(health))
		}
	}

	// Again, the tables re-created at once, before the reader could see
	// them gone (the "within 2.5 s"): still a replacement, said.
	if err := srv.Restart(ctx); err != nil {
		t.Fatalf("restarting DynamoDB Local: %v", err)
	}
	for _, id := range ids {
		if _, err := conn.DB.CreateTable(ctx, demo.CreateTableInput(data.MustSchema(id), tables.Name(id), false)); err != nil {
			t.Fatal(err)
		}
	}
	sink.waitFor(t, 60*time.Second, "the second replacement on both tables", func() bool {
		return replacedReports(sink.health, data.TableSessions) == 2 && replacedReports(sink.health, data.TableEvents) == 2
	})
	sink.waitFor(t, 60*time.Second, "live again on both tables", func() bool {
		return sink.lastState(data.TableSessions) == StateLive && sink.lastState(data.TableEvents) == StateLive
	})
	from := len(sink.recs)
	w2 := newWorkload(conn, tables, 52)
	for i := 0; i < 20; i++ {
		if err := w2.Step(ctx, ids[i%2], 5); err != nil {
			t.Fatal(err)
		}
	}
	sink.waitFor(t, 30*time.Second, "the new tables' records", func() bool { return len(sink.recs) >= from+len(w2.Wants) })
	got, _ := sink.snapshot()
	verifyExactly(t, got[:len(w.Wants)], w.Wants)
	verifyExactly(t, got[from:], w2.Wants)
}

// replacedReports counts the reports that table id's stream was replaced.
// Call under the sink's lock, or on a snapshot.
func replacedReports(hs []Health, id data.TableID) int {
	n := 0
	for _, h := range hs {
		if h.Table == id && h.Replaced {
			if h.State != StateGap || h.GapTo.IsZero() {
				return -1 // a replacement is a gap with its span
			}
			n++
		}
	}
	return n
}
