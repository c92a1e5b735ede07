package data

import (
	"context"
	"testing"
	"time"
)

// sandboxes.deletion_failing counts the pending deletions whose cleanup
// has failed deletion_retry_count ≥ the configured number of times (the
// document's "deletion_retry_count | Number | Failed deletion attempts"),
// through StatusIndex with Select=COUNT, against DynamoDB Local; an alert
// on it fires, and the live tail moves it when a failed attempt is counted.
func TestSandboxesDeletionFailingCountsAndAlerts(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	now := time.Now()
	pending := func(id string, failed int64) Item {
		it := sandboxItem(id, SandboxPendingDeletion, "t1", now.Add(-time.Hour).Unix())
		it["deletion_retry_count"] = N(failed)
		return it
	}
	failing := pending("x-f5", 5)
	db.put(TableSandboxes, pending("x-f0", 0), pending("x-f2", 2), failing, pending("x-f3", 3),
		sandboxItem("x-al", SandboxAllocated, "t1", now.Add(-time.Hour).Unix())) // allocated: never counted

	plan := OverviewPlan{DeletionFailingAt: 3}
	ov := db.store.CountOverview(ctx, plan, now)
	var tally *Tally
	for i := range ov.Tallies {
		if ov.Tallies[i].Key == MetricSandboxesDeletionFailing {
			tally = &ov.Tallies[i]
		}
	}
	if tally == nil {
		t.Fatalf("the overview has no %s", MetricSandboxesDeletionFailing)
	}
	if tally.Err != nil || tally.N != 2 || tally.Block != BlockSandboxes || tally.Label != "del. failing ≥3" {
		t.Fatalf("%s = %d (%v), label %q: want 2 (x-f3, x-f5)", tally.Key, tally.N, tally.Err, tally.Label)
	}
	if tally.Test != nil {
		t.Errorf("the count should be Select=COUNT with a filter, not a read of items")
	}
	th := Threshold{Metric: MetricSandboxesDeletionFailing, Op: ">", Value: 0}
	if _, on := tally.Alerting([]Threshold{th}); !on {
		t.Errorf("alert %s does not fire at %d", th, tally.N)
	}

	// The cleanup job fails x-f2 a third time, after the count (its record
	// read by a call that found the shard without it after the count
	// ended): the live tail moves the count.
	x2 := pending("x-f2", 2)
	x2now := pending("x-f2", 3)
	after := ChangeAt{Table: TableSandboxes, Event: "MODIFY", Keys: SandboxKey("x-f2"), Old: x2, New: x2now,
		NotBy: tally.Span.To.Add(time.Second), ReadBy: tally.Span.To.Add(2 * time.Second)}
	if !ov.Apply(after) || tally.N != 3 {
		t.Errorf("a third failed attempt moved the count to %d, want 3", tally.N)
	}

	// A higher threshold counts fewer: the configured number is what counts.
	if got := db.store.CountOverview(ctx, OverviewPlan{DeletionFailingAt: 5}, now); tallyOf(got, MetricSandboxesDeletionFailing) != 1 {
		t.Errorf("at 5: %d, want 1 (x-f5)", tallyOf(got, MetricSandboxesDeletionFailing))
	}
	if got := (OverviewPlan{}).withDefaults().DeletionFailingAt; got != DefaultDeletionFailingAt {
		t.Errorf("default threshold %d", got)
	}
}

func tallyOf(ov Overview, key string) int64 {
	for _, t := range ov.Tallies {
		if t.Key == key {
			return t.N
		}
	}
	return -1
}
