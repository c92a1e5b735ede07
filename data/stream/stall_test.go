package stream

import (
	"context"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
	"opsdeck/demo/ddblocal"
)

// TestStallBeforeFirstRecordLosesNothing is the stall of a closed laptop
// lid: through a front that rolls and splits shards, 90% of reads are
// throttled and every iterator expires after 0.5 s while writes land, so
// shards that have not delivered a record yet lose their LATEST position.
// Re-opening them at LATEST would skip those writes silently. After the
// faults stop, every write must arrive exactly once (or a gap be reported).
func TestStallBeforeFirstRecordLosesNothing(t *testing.T) {
	front := streamtest.NewFront(ddblocal.TestEndpoint(t), streamtest.FrontOptions{
		RecordsPerGen: 30, Split: 2, SplitEvery: 2, MaxOpenShards: 16, InitialShards: 4, Seed: 5,
	})
	readConn := testConn(t, "", data.ConnOptions{HTTPClient: front.Client()})
	writeConn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, writeConn, ids...)
	sink := newCollectSink()
	startTailer(t, readConn, tables, Options{Tables: ids, MaxBackoff: 400 * time.Millisecond,
		ThrottleBackoff: 100 * time.Millisecond, ThrottleBackoffMax: 2 * time.Second}, sink)
	waitLive(t, sink, ids)

	front.SetFaults(0.9, 500*time.Millisecond)
	w := newWorkload(writeConn, tables, 81)
	for i := 0; i < 150; i++ {
		if err := w.Step(context.Background(), ids[i%2], 30); err != nil {
			t.Fatal(err)
		}
	}
	// The stall lasts until iterators have expired under the reader a few
	// times over, whatever the machine's speed.
	deadline := time.Now().Add(60 * time.Second)
	for front.Stats().Expired[streamtest.DefaultReader] < 12 {
		if time.Now().After(deadline) {
			t.Fatalf("iterators never expired under the reader: %+v", front.Stats())
		}
		time.Sleep(20 * time.Millisecond)
	}
	front.SetFaults(0, 0)
	waitAll(t, sink, w, 120*time.Second)
	got, health := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	st := front.Stats()
	t.Logf("throttled %v expired %v rollovers %d splits %d", st.Throttled, st.Expired, st.Rollovers, st.Splits)
	if st.Throttled[streamtest.DefaultReader] == 0 || st.Expired[streamtest.DefaultReader] == 0 {
		t.Fatalf("the faults never hit the reader: the test proves nothing")
	}
	sawThrottled := false
	for _, h := range health {
		if h.State == StateGap {
			t.Errorf("a gap was reported though every write arrived: %+v", h)
		}
		sawThrottled = sawThrottled || h.State == StateThrottled
	}
	if !sawThrottled {
		t.Errorf("health never said throttled: %s", healthString(health))
	}
}
