package stream

import (
	"context"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
	"opsdeck/demo/ddblocal"
)

// TestLineageThroughRollingFront: through a front that rolls every shard
// over every 40 records and splits every third generation (DescribeStream
// in pages of 3), every write of two tables arrives exactly once, in order
// per key.
func TestLineageThroughRollingFront(t *testing.T) {
	front := streamtest.NewFront(ddblocal.TestEndpoint(), streamtest.FrontOptions{
		RecordsPerGen: 40, Split: 2, SplitEvery: 3, MaxOpenShards: 16, PageSize: 3, Seed: 1,
	})
	readConn := testConn(t, "", data.ConnOptions{HTTPClient: front.Client()})
	writeConn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, writeConn, ids...)
	sink := newCollectSink()
	startTailer(t, readConn, tables, Options{Tables: ids, MaxBackoff: 400 * time.Millisecond}, sink)
	waitLive(t, sink, ids)
	w := newWorkload(writeConn, tables, 61)
	for i := 0; i < 600; i++ {
		if err := w.Step(context.Background(), ids[i%2], 40); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 120*time.Second)
	got, _ := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	st := front.Stats()
	t.Logf("rollovers %d splits %d shards %d open %d calls %v", st.Rollovers, st.Splits, st.Shards, st.OpenShards, st.Calls)
	if st.Rollovers < 4 || st.Splits < 2 {
		t.Errorf("the front rolled %d times and split %d times: the lineage was not exercised", st.Rollovers, st.Splits)
	}
}
