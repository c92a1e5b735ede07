package action

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

func sandboxKey(id string) data.Item { return data.Item{"PK": S("SBX#" + id), "SK": S("META")} }

// allocatedSandbox is allocated to track-123 an hour before now, for 4 h.
func allocatedSandbox(id string, now time.Time) data.Item {
	at := now.Add(-time.Hour).Unix()
	return data.Item{
		"PK": S("SBX#" + id), "SK": S("META"),
		"sandbox_id": S(id), "name": S("lab-" + id), "external_id": S("ext-" + id),
		"status": S("allocated"), "lab_duration_hours": N(4), "deletion_retry_count": N(0),
		"allocated_at": N(at), "allocated_to_track": S("track-123"), "idempotency_key": S("track-123"),
		"created_at": N(at - 3600), "updated_at": N(at),
	}
}

func TestMarkSandboxForDeletion(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	w.put(data.TableSandboxes, allocatedSandbox("sb-ok", w.now))
	r := w.exec.Execute(w.ctx, w.plan(MarkSandboxDeletion, sandboxKey("sb-ok"), Options{}))
	if !r.OK {
		t.Fatalf("mark failed: %s", r.Message)
	}
	got := w.get(data.TableSandboxes, sandboxKey("sb-ok"))
	now := strconv.FormatInt(w.now.Unix(), 10)
	if attrS(t, got, "status") != "pending_deletion" || attrN(t, got, "deletion_requested_at") != now || attrN(t, got, "updated_at") != now {
		t.Errorf("item after marking: %v", got)
	}
	// The broker's cleanup job and its audit need the owner and allocation kept.
	if attrS(t, got, "allocated_to_track") != "track-123" || attrN(t, got, "deletion_retry_count") != "0" ||
		attrN(t, got, "allocated_at") != strconv.FormatInt(w.now.Add(-time.Hour).Unix(), 10) {
		t.Errorf("attributes the action must not touch changed: %v", got)
	}
	if r.Message != "marked for deletion sb-ok" {
		t.Errorf("message %q", r.Message)
	}
}

func TestMarkSandboxGuardClauses(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	names := map[string]string{"#s": "status"}
	seenAt := strconv.FormatInt(w.now.Add(-time.Hour).Unix(), 10)
	cases := []struct {
		name    string
		expr    string // "" deletes the item
		values  data.Item
		later   time.Duration // how long the dialog stayed open
		clause  string
		why     Failure
		msg     string
		noNames bool
	}{
		{name: "someone marked it first", expr: "SET #s = :v, deletion_requested_at = :t", values: data.Item{":v": S("pending_deletion"), ":t": N(1)},
			clause: "status is still allocated", why: FailAlreadyDone, msg: "not marked for deletion: already marked for deletion at "},
		{name: "released back to the pool", expr: "SET #s = :v", values: data.Item{":v": S("available")},
			clause: "status is still allocated", why: FailWrongState, msg: "not marked for deletion: not allocated: status is available since "},
		{name: "another track owns it", expr: "SET allocated_to_track = :v", values: data.Item{":v": S("track-456")}, noNames: true,
			clause: "still allocated to track-123, as seen", why: FailDifferentOwner, msg: "not marked for deletion: different owner: now allocated to track-456 since "},
		{name: "allocation expired while the dialog was open", later: 4 * time.Hour,
			clause: "the allocation is younger than its lab duration (4h)", why: FailExpired, msg: "not marked for deletion: allocation expired: allocated … with a 4h lab duration, expired at "},
		{name: "re-allocated (new allocated_at)", expr: "SET allocated_at = :v", values: data.Item{":v": N(w.now.Add(-time.Minute).Unix())}, noNames: true,
			clause: "allocated_at is still " + seenAt + ", as seen", why: FailChangedSinceSeen, msg: "changed since seen: allocated_at was " + seenAt + ", is now "},
		{name: "lab extended", expr: "SET lab_duration_hours = :v", values: data.Item{":v": N(8)}, noNames: true,
			clause: "lab_duration_hours is still 4, as seen", why: FailChangedSinceSeen, msg: "changed since seen: lab_duration_hours was 4, is now 8"},
		{name: "deleted", clause: "the sandbox still exists", why: FailGone, msg: "not marked for deletion: the item no longer exists"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "sb-guard-" + string(rune('a'+i))
			w.put(data.TableSandboxes, allocatedSandbox(id, w.now))
			p := w.plan(MarkSandboxDeletion, sandboxKey(id), Options{})
			switch {
			case tc.expr == "" && tc.later == 0:
				w.del(data.TableSandboxes, sandboxKey(id))
			case tc.expr != "":
				n := names
				if tc.noNames {
					n = nil
				}
				w.update(data.TableSandboxes, sandboxKey(id), tc.expr, n, tc.values)
			}
			before := w.get(data.TableSandboxes, sandboxKey(id))
			exec := *w.exec
			exec.Now = func() time.Time { return w.now.Add(tc.later) }
			expectGuardFailure(t, exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
			if after := w.get(data.TableSandboxes, sandboxKey(id)); !sameItem(before, after) {
				t.Errorf("a failed guard changed the item")
			}
		})
	}
}

func TestMarkSandboxNotApplicable(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name string
		edit func(data.Item)
		want string
	}{
		{"available", func(it data.Item) { it["status"] = S("available") }, "only allocated sandboxes can be marked for deletion; this one is available"},
		{"already pending", func(it data.Item) { it["status"] = S("pending_deletion") }, "this one is pending_deletion"},
		{"expired", func(it data.Item) { it["allocated_at"] = N(now.Add(-5 * time.Hour).Unix()) }, "allocation expired at "},
		{"own duration counts", func(it data.Item) {
			it["allocated_at"] = N(now.Add(-90 * time.Minute).Unix())
			it["lab_duration_hours"] = N(1)
		}, "lab duration 1h"},
		{"duration not a number", func(it data.Item) { it["lab_duration_hours"] = S("4") }, `lab_duration_hours is a string ("4"), not a number of hours`},
		{"duration zero", func(it data.Item) { it["lab_duration_hours"] = N(0) }, "lab_duration_hours is 0; a lab lasts more than 0 and at most 8784 hours"},
		// Beyond int64 and any float's whole range of hours: the message names
		// that attribute only, and says what it holds.
		{"duration huge", func(it data.Item) {
			it["lab_duration_hours"] = &types.AttributeValueMemberN{Value: "99999999999999999999"}
		},
			"lab_duration_hours is 99999999999999999999; a lab lasts more than 0 and at most 8784 hours"},
		{"allocated_at zero", func(it data.Item) { it["allocated_at"] = N(0) }, "allocated_at is 0: the sandbox carries no allocation time"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := allocatedSandbox("sb-x", now)
			tc.edit(it)
			_, err := PlanFor(MarkSandboxDeletion, it, now, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "both") || tc.name == "duration huge" && strings.Contains(err.Error(), "allocated_at") {
				t.Errorf("the message blames more than the bad attribute: %v", err)
			}
		})
	}
	// A longer lab duration keeps an old allocation markable.
	it := allocatedSandbox("sb-long", now)
	it["allocated_at"] = N(now.Add(-5 * time.Hour).Unix())
	it["lab_duration_hours"] = N(8)
	if _, err := PlanFor(MarkSandboxDeletion, it, now, Options{}); err != nil {
		t.Fatalf("8h lab allocated 5h ago: %v", err)
	}
}

func deletionFailedSandbox(id string, now time.Time) data.Item {
	it := allocatedSandbox(id, now)
	it["status"] = S("deletion_failed")
	it["deletion_retry_count"] = N(2)
	it["deletion_requested_at"] = N(now.Add(-30 * time.Minute).Unix())
	return it
}

func TestRetrySandboxDeletionKeepsTheRetryCount(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	w.put(data.TableSandboxes, deletionFailedSandbox("sb-rd", w.now))
	if got := Available(data.TableSandboxes, w.get(data.TableSandboxes, sandboxKey("sb-rd")), w.now, Options{}); len(got) != 1 || got[0] != RetrySandboxDeletion {
		t.Fatalf("Available = %v, want [retry-sandbox-deletion]", got)
	}
	r := w.exec.Execute(w.ctx, w.plan(RetrySandboxDeletion, sandboxKey("sb-rd"), Options{}))
	if !r.OK {
		t.Fatalf("retry deletion failed: %s", r.Message)
	}
	got := w.get(data.TableSandboxes, sandboxKey("sb-rd"))
	now := strconv.FormatInt(w.now.Unix(), 10)
	if attrS(t, got, "status") != "pending_deletion" || attrN(t, got, "deletion_retry_count") != "2" ||
		attrN(t, got, "deletion_requested_at") != now || attrN(t, got, "updated_at") != now {
		t.Errorf("item after retry: %v", got)
	}
}

func TestRetrySandboxDeletionGuardClauses(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	cases := []struct {
		name   string
		expr   string
		values data.Item
		clause string
		why    Failure
		msg    string
	}{
		{"already requeued", "SET #s = :v", data.Item{":v": S("pending_deletion")}, "status is still deletion_failed", FailAlreadyDone, "not queued for deletion again: already marked for deletion at "},
		{"the job failed again", "SET deletion_retry_count = :v", data.Item{":v": N(3)}, "deletion_retry_count is still 2, as seen", FailChangedSinceSeen, "changed since seen: deletion_retry_count was 2, is now 3"},
		{"deleted", "", nil, "the sandbox still exists", FailGone, "the item no longer exists"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "sb-rdg-" + string(rune('a'+i))
			w.put(data.TableSandboxes, deletionFailedSandbox(id, w.now))
			p := w.plan(RetrySandboxDeletion, sandboxKey(id), Options{})
			if tc.expr == "" {
				w.del(data.TableSandboxes, sandboxKey(id))
			} else {
				var names map[string]string
				if strings.Contains(tc.expr, "#s") {
					names = map[string]string{"#s": "status"}
				}
				w.update(data.TableSandboxes, sandboxKey(id), tc.expr, names, tc.values)
			}
			expectGuardFailure(t, w.exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
		})
	}
	if _, err := PlanFor(RetrySandboxDeletion, allocatedSandbox("sb-a", w.now), w.now, Options{}); err == nil ||
		!strings.Contains(err.Error(), "only sandboxes whose deletion failed can be retried; this one is allocated") {
		t.Errorf("retry deletion on an allocated sandbox: %v", err)
	}
}
