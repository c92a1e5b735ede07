package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// waitLive waits until every stream table is "live" and every table without
// a stream is "polling".
func waitLive(t testing.TB, sink *collectSink, streamed []data.TableID, polled ...data.TableID) {
	t.Helper()
	sink.waitFor(t, 60*time.Second, "tables live", func() bool {
		for _, id := range streamed {
			if sink.lastState(id) != StateLive {
				return false
			}
		}
		for _, id := range polled {
			if sink.lastState(id) != StatePolling {
				return false
			}
		}
		return true
	})
}

// waitAll waits until as many records arrived as the ground truth holds.
// verifyExactly then tells missing from duplicated: a duplicate makes the
// count reach the target early and leaves the last writes missing.
func waitAll(t testing.TB, sink *collectSink, w *streamtest.Writer, timeout time.Duration) {
	t.Helper()
	n := len(w.Wants)
	sink.waitFor(t, timeout, "all records", func() bool { return len(sink.recs) >= n })
}

// TestEveryWriteArrivesOnce: inserts, modifies and removes across two
// stream tables (NEW_AND_OLD_IMAGES and NEW_IMAGE) each arrive once, in
// order per key, with the images the view type carries; a table without a
// stream reports "polling" and gets no reader.
func TestEveryWriteArrivesOnce(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, conn, data.TableSessions, data.TableEvents, data.TableProjects)
	sink := newCollectSink()
	startTailer(t, conn, tables, Options{Tables: append(ids, data.TableProjects)}, sink)
	waitLive(t, sink, ids, data.TableProjects)

	w := newWorkload(conn, tables, 1)
	ctx := context.Background()
	for i := 0; i < 300; i++ {
		if err := w.Step(ctx, ids[i%2], 20); err != nil {
			t.Fatal(err)
		}
	}
	kinds := map[string]int{}
	for _, wt := range w.Wants {
		kinds[wt.Event]++
	}
	if kinds["INSERT"] == 0 || kinds["MODIFY"] == 0 || kinds["REMOVE"] == 0 {
		t.Fatalf("workload lacks a kind of write: %v", kinds)
	}
	waitAll(t, sink, w, 60*time.Second)
	got, health := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	for _, r := range got {
		if r.TableName != tables.Name(r.Table) || r.ApproxTime.IsZero() || r.TTL || r.Shard == "" {
			t.Errorf("record metadata wrong: %+v", r)
			break
		}
	}
	for _, h := range health {
		if h.State == StateGap || h.State == StateReconnecting {
			// Nothing went wrong, so nothing may be reported. (DynamoDB
			// Local's empty-shard iterator looks "trimmed" once the first
			// record lands; that must not show as a gap.)
			t.Errorf("unexpected health %+v", h)
		}
		if h.Table == data.TableProjects && h.State != StatePolling {
			t.Errorf("projects has no stream, got health %+v", h)
		}
	}
}

// TestMissingTableIsOff: a table that does not exist ends its reader with
// "off" and a detail naming it, without disturbing the others.
func TestMissingTableIsOff(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableEvents) // sessions not created
	sink := newCollectSink()
	startTailer(t, conn, tables, Options{Tables: []data.TableID{data.TableSessions, data.TableEvents}}, sink)
	waitLive(t, sink, []data.TableID{data.TableEvents})
	sink.waitFor(t, 30*time.Second, "sessions off", func() bool { return sink.lastState(data.TableSessions) == StateOff })
	_, health := sink.snapshot()
	for _, h := range health {
		if h.Table == data.TableSessions && h.State == StateOff && !strings.Contains(h.Detail, tables.Name(data.TableSessions)) {
			t.Errorf("off detail does not name the table: %q", h.Detail)
		}
	}
}
