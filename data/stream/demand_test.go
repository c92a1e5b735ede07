package stream

import (
	"context"
	"testing"
	"time"

	"opsdeck/data"
)

// TestDemandPausesAndResumesWithoutLoss: with Background RateOff, a table
// no pane needs is not read ("paused"), and nothing written to it arrives
// meanwhile while the wanted table's writes do; when it is wanted again it
// resumes where it stopped and every write arrives exactly once.
func TestDemandPausesAndResumesWithoutLoss(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, conn, ids...)
	sink := newCollectSink()
	tl := startTailer(t, conn, tables, Options{Tables: ids, Background: RateOff}, sink)
	waitLive(t, sink, ids)
	w := newWorkload(conn, tables, 71)
	ctx := context.Background()
	step := func(id data.TableID, n int) {
		for i := 0; i < n; i++ {
			if err := w.Step(ctx, id, 8); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(data.TableEvents, 5) // read at full rate: delivered
	waitAll(t, sink, w, 30*time.Second)

	tl.SetDemand([]data.TableID{data.TableSessions})
	if d := tl.Demand(); d[data.TableSessions] != RateFull || d[data.TableEvents] != RateOff {
		t.Fatalf("demand %v", d)
	}
	sink.waitFor(t, 30*time.Second, "events paused", func() bool { return sink.lastState(data.TableEvents) == StatePaused })
	before := len(sink.recs)
	step(data.TableEvents, 10)
	step(data.TableSessions, 10)
	sessions := 0
	for _, wt := range w.Wants {
		if wt.Table == data.TableSessions {
			sessions++
		}
	}
	sink.waitFor(t, 30*time.Second, "the sessions writes", func() bool {
		n := 0
		for _, r := range sink.recs {
			if r.Table == data.TableSessions {
				n++
			}
		}
		return n == sessions
	})
	got, _ := sink.snapshot()
	for _, r := range got[before:] {
		if r.Table == data.TableEvents {
			t.Fatalf("a paused table delivered a record: %+v", r.Keys)
		}
	}

	tl.SetDemand(ids)
	sink.waitFor(t, 30*time.Second, "events live again", func() bool { return sink.lastState(data.TableEvents) == StateLive })
	waitAll(t, sink, w, 30*time.Second)
	got, _ = sink.snapshot()
	verifyExactly(t, got, w.Wants)
}

// TestDemandSlowStillDelivers: a table read slowly (the default for tables
// no pane needs) still delivers every write, and reports live.
func TestDemandSlowStillDelivers(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, conn, ids...)
	sink := newCollectSink()
	tl := startTailer(t, conn, tables, Options{Tables: ids, SlowPollInterval: 2 * time.Second}, sink)
	tl.SetDemand(nil)
	if d := tl.Demand(); d[data.TableSessions] != RateSlow || len(tl.FullRate()) != 0 {
		t.Fatalf("demand %v, full %v", d, tl.FullRate())
	}
	waitLive(t, sink, ids)
	w := newWorkload(conn, tables, 72)
	for i := 0; i < 20; i++ {
		if err := w.Step(context.Background(), ids[i%2], 8); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 60*time.Second)
	got, _ := sink.snapshot()
	verifyExactly(t, got, w.Wants)
}
