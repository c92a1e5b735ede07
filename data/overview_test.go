package data

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestThresholdsAndQuotaAlert(t *testing.T) {
	ths := []Threshold{{Metric: MetricSandboxesAvailable, Op: "<", Value: 5}, {Metric: MetricEventsFailed, Op: ">", Value: 0}}
	at := time.Unix(1e9, 0)
	cases := []struct {
		t    Tally
		want bool
	}{
		{Tally{Metric: Metric{Key: MetricSandboxesAvailable}, N: 4, CountedAt: at}, true},
		{Tally{Metric: Metric{Key: MetricSandboxesAvailable}, N: 5, CountedAt: at}, false},
		{Tally{Metric: Metric{Key: MetricEventsFailed}, N: 1, CountedAt: at}, true},
		{Tally{Metric: Metric{Key: MetricEventsFailed}, N: 0, CountedAt: at}, false},
		{Tally{Metric: Metric{Key: MetricEventsRetrying}, N: 9, CountedAt: at}, false},
		// Never counted, or the count failed: the number is unknown.
		{Tally{Metric: Metric{Key: MetricSandboxesAvailable}, N: 0}, false},
		{Tally{Metric: Metric{Key: MetricSandboxesAvailable}, N: 0, CountedAt: at, Err: errors.New("throttled")}, false},
		{Tally{Metric: Metric{Key: MetricProjectRunning}, N: 5, Limit: 5, HasLimit: true, CountedAt: at}, true},
		{Tally{Metric: Metric{Key: MetricProjectRunning}, N: 4, Limit: 5, HasLimit: true, CountedAt: at}, false},
		{Tally{Metric: Metric{Key: MetricProjectRunning}, N: 9, CountedAt: at}, false},
	}
	for i, c := range cases {
		if _, got := c.t.Alerting(ths); got != c.want {
			t.Errorf("case %d (%s = %d): alerting %v, want %v", i, c.t.Key, c.t.N, got, c.want)
		}
	}
	for _, op := range []string{"<", "<=", ">", ">=", "==", "!="} {
		th := Threshold{Op: op, Value: 3}
		got := [3]bool{th.Holds(2), th.Holds(3), th.Holds(4)}
		want := map[string][3]bool{"<": {true, false, false}, "<=": {true, true, false}, ">": {false, false, true},
			">=": {false, true, true}, "==": {false, true, false}, "!=": {true, false, true}}[op]
		if got != want {
			t.Errorf("%s: %v, want %v", op, got, want)
		}
	}
}

// TestApplyPlacesChangesByTheirImages: the live deltas, without a database.
func TestApplyPlacesChangesByTheirImages(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	o := Overview{Tallies: []Tally{
		{Metric: Metric{Key: MetricSandboxesAvailable, Scope: SandboxesByStatus(SandboxAvailable)}, N: 2, CountedAt: now},
		{Metric: SandboxesPastWindow(now), N: 0, CountedAt: now},
		{Metric: Metric{Key: MetricEventsFailed, Subject: "u1", Scope: EventsByStatus("u1", "failed#")}, N: 1, CountedAt: now},
	}}
	sbx := func(status string, at int64) Item {
		return Item{"PK": S("SBX#a"), "SK": S("META"), "status": S(status), "allocated_at": N(at), "lab_duration_hours": N(4)}
	}
	// available → allocated long ago: available −1, past window +1.
	if !o.Apply(ChangeAt{Table: TableSandboxes, Event: "MODIFY", Old: sbx("available", 0), New: sbx("allocated", now.Unix()-5*3600)}) {
		t.Fatal("nothing moved")
	}
	if o.Tallies[0].N != 1 || o.Tallies[1].N != 1 || o.Tallies[0].Estimated {
		t.Fatalf("after allocation: %+v %+v", o.Tallies[0].N, o.Tallies[1].N)
	}
	// A MODIFY with no old image (NEW_IMAGE stream) of u1's event: estimated.
	ev := Item{"user_id": S("u1"), "timestamp#event_id": S("t#1"), "status#timestamp": S("failed#t")}
	o.Apply(ChangeAt{Table: TableEvents, Event: "MODIFY", Keys: Item{"user_id": S("u1"), "timestamp#event_id": S("t#1")}, New: ev})
	if !o.Tallies[2].Estimated || o.Tallies[2].N != 1 {
		t.Fatalf("unplaceable change: %+v", o.Tallies[2])
	}
	// Another user's, by its key alone: not this tally's business.
	o.Tallies[2].Estimated = false
	o.Apply(ChangeAt{Table: TableEvents, Event: "REMOVE", Keys: Item{"user_id": S("u2"), "timestamp#event_id": S("t#2")}})
	if o.Tallies[2].Estimated {
		t.Fatal("a change of another user's partition marked u1's count estimated")
	}
	// An INSERT carries all there is to know.
	o.Apply(ChangeAt{Table: TableEvents, Event: "INSERT", New: ev})
	if o.Tallies[2].N != 2 || o.Tallies[2].Estimated {
		t.Fatalf("insert: %+v", o.Tallies[2])
	}
}

// TestTroubleIsWhatTheOverviewCounts: a row is marked exactly when the
// overview's metric for it counts the item.
func TestTroubleIsWhatTheOverviewCounts(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tr := Trouble{ExpiringWithin: 15 * time.Minute, StaleRun: 30 * time.Minute, RetryMax: 3}
	upd := func(d time.Duration) types.AttributeValue { return S(now.Add(-d).UTC().Format("2006-01-02T15:04:05Z")) }
	cases := []struct {
		table TableID
		item  Item
		want  bool
	}{
		{TableSessions, Item{"sessionId": S("a"), "status": S("RUNNING"), "expiresAt": N(now.Unix() + 60)}, true},
		{TableSessions, Item{"sessionId": S("a"), "status": S("RUNNING"), "expiresAt": N(now.Unix() + 3600)}, false},
		{TableSessions, Item{"sessionId": S("a"), "status": S("STOPPED"), "expiresAt": N(now.Unix() + 60)}, false},
		{TableGraphRuns, Item{"PK": S("USER#1"), "SK": S("RUN#x#r"), "status": S("PROCESSING"), "updatedAt": upd(time.Hour)}, true},
		{TableGraphRuns, Item{"PK": S("USER#1"), "SK": S("RUN#x#r"), "status": S("UPLOADED"), "updatedAt": upd(time.Hour)}, true},
		{TableGraphRuns, Item{"PK": S("USER#1"), "SK": S("RUN#x#r"), "status": S("PROCESSING"), "updatedAt": upd(time.Minute)}, false},
		{TableGraphRuns, Item{"PK": S("USER#1"), "SK": S("RUN#x#r"), "status": S("COMPLETE"), "updatedAt": upd(time.Hour)}, false},
		{TableEvents, Item{"user_id": S("u"), "status#timestamp": S("failed#t"), "retry_count": N(3)}, true},
		{TableEvents, Item{"user_id": S("u"), "status#timestamp": S("failed#t"), "retry_count": N(2)}, false},
		{TableEvents, Item{"user_id": S("u"), "status#timestamp": S("retrying#t"), "retry_count": N(5)}, false},
		{TableSandboxes, Item{"status": S("allocated"), "allocated_at": N(now.Unix() - 5*3600), "lab_duration_hours": N(4)}, true},
		{TableSandboxes, Item{"status": S("allocated"), "allocated_at": N(now.Unix() - 3*3600), "lab_duration_hours": N(4)}, false},
		{TableSandboxes, Item{"status": S("allocated"), "allocated_at": N(now.Unix() - 5*3600)}, false}, // window unknown
	}
	for i, c := range cases {
		why, got := tr.Of(c.table, c.item, now)
		if got != c.want || (got && why == "") {
			t.Errorf("case %d (%s): trouble %v %q, want %v", i, c.table, got, why, c.want)
		}
	}
}

// TestPlaceAgainstACount: a change is before a count when its bounds end
// before the count began, after it when they start after it ended, and
// unknown otherwise; and a record of a shard at or past one known to be
// after the count is after it too (the shard's order).
func TestPlaceAgainstACount(t *testing.T) {
	from := time.Date(2026, 11, 27, 12, 0, 30, 0, time.UTC)
	sp := ReadSpan{From: from, To: from.Add(200 * time.Millisecond), Slack: 100 * time.Millisecond}
	minute := from.Truncate(time.Minute) // DynamoDB Local's rounding
	cases := []struct {
		name string
		c    ChangeAt
		want Placement
	}{
		{"read long before", ChangeAt{At: minute, ReadBy: from.Add(-time.Second)}, PlacedBefore},
		{"read just before: an index may lag", ChangeAt{At: minute, ReadBy: from.Add(-50 * time.Millisecond)}, PlacedUnknown},
		{"read after, made in the count's minute", ChangeAt{At: minute, NotBy: from.Add(-time.Second), ReadBy: from.Add(time.Second)}, PlacedUnknown},
		{"not there when read after the count", ChangeAt{At: minute, NotBy: from.Add(time.Second), ReadBy: from.Add(2 * time.Second)}, PlacedAfter},
		{"a minute before, by its time alone", ChangeAt{At: minute.Add(-2 * time.Minute)}, PlacedBefore},
		{"a second-precise time after", ChangeAt{At: from.Add(3 * time.Second)}, PlacedAfter},
		{"no bounds at all", ChangeAt{}, PlacedUnknown},
	}
	for _, c := range cases {
		if got := sp.Place(c.c); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := (ReadSpan{}).Place(ChangeAt{}); got != PlacedAfter {
		t.Errorf("a tally not made by a count takes changes as after it: %v", got)
	}

	// The bug this prevents: a session completed just before a count, its
	// record read after it. Both numbers keep the count and say ≈.
	run := Item{"sessionId": S("s1"), "status": S("RUNNING"), "expiresAt": N(1)}
	done := Item{"sessionId": S("s1"), "status": S("COMPLETED"), "expiresAt": N(1)}
	o := Overview{Tallies: []Tally{
		{Metric: Metric{Key: MetricSessionsRunning, Scope: SessionsByStatus("RUNNING")}, N: 4, CountedAt: from, Span: sp},
		{Metric: Metric{Key: MetricSessionsCompleted, Scope: SessionsByStatus("COMPLETED")}, N: 7, CountedAt: from, Span: sp},
	}}
	o.Apply(ChangeAt{Table: TableSessions, Event: "MODIFY", Old: run, New: done, At: minute, Shard: "sh", Seq: "10",
		NotBy: from.Add(-time.Second), ReadBy: from.Add(time.Second)})
	for _, tl := range o.Tallies {
		if !tl.Estimated {
			t.Errorf("%s = %d, not marked an estimate", tl.Key, tl.N)
		}
	}
	if o.Tallies[0].N != 4 || o.Tallies[1].N != 7 {
		t.Errorf("an unplaced change moved the numbers: %d %d", o.Tallies[0].N, o.Tallies[1].N)
	}
	// A record past the count, then — by the shard's order — one with no
	// bounds of its own after it: both move the numbers exactly.
	for i := range o.Tallies {
		o.Tallies[i].Estimated = false
	}
	o.Apply(ChangeAt{Table: TableSessions, Event: "MODIFY", Old: done, New: run, At: minute, Shard: "sh", Seq: "11", NotBy: from.Add(time.Second)})
	o.Apply(ChangeAt{Table: TableSessions, Event: "MODIFY", Old: run, New: done, Shard: "sh", Seq: "12"})
	if o.Tallies[0].N != 4 || o.Tallies[1].N != 7 || o.Tallies[0].Estimated || o.Tallies[1].Estimated {
		t.Errorf("after two placed changes: %+v %+v", o.Tallies[0], o.Tallies[1])
	}
	if !SeqLess("000000000000000000009", "10") || SeqLess("10", "9") || SeqLess("7", "7") {
		t.Error("sequence numbers compare by value")
	}
}
