package stream

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
)

// DynamoDB Local never splits or rolls over a shard, so the lineage rules
// are checked here on the table reader's own bookkeeping. The context is
// already cancelled: every shard reader it starts ends at once without a
// call, and only the scheduling decisions remain to observe.

func shard(id, parent string, closed bool) st.Shard {
	s := st.Shard{ShardId: aws.String(id), SequenceNumberRange: &st.SequenceNumberRange{StartingSequenceNumber: aws.String("1")}}
	if parent != "" {
		s.ParentShardId = aws.String(parent)
	}
	if closed {
		s.SequenceNumberRange.EndingSequenceNumber = aws.String("9")
	}
	return s
}

func lineageReader(t *testing.T) (*tableReader, context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tl := &Tailer{opts: Options{Logf: t.Logf}.withDefaults(), budget: newBudget(50, nil)}
	r := newTableReader(tl, data.TableSessions, "phys", &recSink{}, newHealthTracker(data.TableSessions, &recSink{}, time.Now))
	t.Cleanup(r.wg.Wait)
	return r, ctx
}

func statusOf(r *tableReader) map[string]shardStatus {
	out := map[string]shardStatus{}
	for id, info := range r.shards {
		out[id] = info.status
	}
	return out
}

func TestStartReadsLeavesFromLatest(t *testing.T) {
	r, ctx := lineageReader(t)
	// A split into B and C; C already split into D.
	r.startAtLatest(ctx, []st.Shard{shard("A", "", true), shard("B", "A", false), shard("C", "A", true), shard("D", "C", false)})
	want := map[string]shardStatus{"A": shardDone, "B": shardReading, "C": shardDone, "D": shardReading}
	for id, s := range want {
		if got := statusOf(r)[id]; got != s {
			t.Errorf("shard %s: status %d, want %d", id, got, s)
		}
	}
	for _, id := range []string{"B", "D"} {
		if r.shards[id].start.typ != st.ShardIteratorTypeLatest {
			t.Errorf("leaf %s starts at %s, want LATEST", id, r.shards[id].start)
		}
	}
}

func TestChildrenWaitForTheirParent(t *testing.T) {
	r, ctx := lineageReader(t)
	r.startAtLatest(ctx, []st.Shard{shard("P", "", false)})
	// P is still being read when its children and a grandchild appear.
	found := r.merge(ctx, []st.Shard{shard("P", "", true), shard("K1", "P", false), shard("K2", "P", true), shard("G", "K2", false)}, "P")
	if !found {
		t.Errorf("merge did not see P's children")
	}
	st1 := statusOf(r)
	if st1["K1"] != shardIdle || st1["K2"] != shardIdle || st1["G"] != shardIdle {
		t.Fatalf("children started before their parent was read to the end: %v", st1)
	}
	r.shards["P"].status = shardDone
	r.schedule(ctx)
	st2 := statusOf(r)
	if st2["K1"] != shardReading || st2["K2"] != shardReading || st2["G"] != shardIdle {
		t.Fatalf("after P is done, its children (only) should be read: %v", st2)
	}
	for _, id := range []string{"K1", "K2", "G"} {
		if r.shards[id].start.typ != st.ShardIteratorTypeTrimHorizon {
			t.Errorf("child %s starts at %s, want TRIM_HORIZON", id, r.shards[id].start)
		}
	}
	r.shards["K2"].status = shardDone
	r.schedule(ctx)
	if statusOf(r)["G"] != shardReading {
		t.Errorf("grandchild not started after its parent was done")
	}
}

func TestOrphanShardIsReadAndAdoptedFloor(t *testing.T) {
	r, ctx := lineageReader(t)
	r.startAtLatest(ctx, []st.Shard{shard("OLD", "", false)})
	old := r.shards["OLD"]
	old.lastSeq = "120"
	old.status = shardDone
	// The old shard vanished and a parentless one replaced it (a restarted
	// emulator): it is read from TRIM_HORIZON, but never at or below what
	// was already delivered.
	r.adopt(old, []st.Shard{shard("NEW", "", false)})
	r.merge(ctx, []st.Shard{shard("NEW", "", false)}, "")
	n := r.shards["NEW"]
	if n == nil || n.status != shardReading || n.floor != "120" || n.start.typ != st.ShardIteratorTypeTrimHorizon {
		t.Fatalf("replacement shard: %+v", n)
	}
}
