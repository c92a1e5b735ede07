package action

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
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
			clause: "the allocation is younger than its window (4h lab duration)", why: FailExpired, msg: "not marked for deletion: allocation expired: allocated … with a 4h lab duration, expired at "},
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
		}, "1h lab duration"},
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
}

// The broker's mark window is four hours whatever lab_duration_hours says
// (the document's guard: allocated_at > :max_expiry, ":max_expiry" = now -
// 4 hours), and never longer than the lab. An 8h lab allocated 5h ago is
// past the window: D plans the expiry (labelled as such), the mark is not
// offered, and a mark written with the lab's own cutoff would be one the
// broker's API refuses. Written against DynamoDB Local.
func TestSandboxMarkWindowIsTheBrokersFourHours(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	long := allocatedSandbox("sb-long", w.now)
	at := w.now.Add(-5 * time.Hour).Unix()
	long["allocated_at"], long["lab_duration_hours"] = N(at), N(8)
	w.put(data.TableSandboxes, long)
	seen := w.get(data.TableSandboxes, sandboxKey("sb-long"))

	_, err := PlanFor(MarkSandboxDeletion, seen, w.now, Options{})
	if err == nil || !strings.Contains(err.Error(), "4h broker window; lab_duration_hours 8") ||
		!strings.Contains(err.Error(), "the broker refuses a mark, so D expires the allocation instead") {
		t.Fatalf("mark of an 8h lab allocated 5h ago: %v, want refused past the broker's 4h window", err)
	}
	p, err := PlanFirst([]Kind{MarkSandboxDeletion, ExpireSandbox}, seen, w.now, Options{})
	if err != nil || p.Kind != ExpireSandbox {
		t.Fatalf("D plans %v (%v), want %s", p.Kind, err, ExpireSandbox)
	}
	if !avEqual(p.Values[":expired_before"], N(w.now.Add(-4*time.Hour).Unix())) {
		t.Errorf(":expired_before = %v, want now - 4h (the broker's window, not the 8h lab)", p.Values[":expired_before"])
	}
	var shown []string
	for _, g := range p.Guard {
		shown = append(shown, g.Text)
	}
	if !strings.Contains(strings.Join(shown, "\n"), "older than its window (4h broker window; lab_duration_hours 8)") {
		t.Errorf("the dialog's guard does not say which window: %q", shown)
	}
	if spec, _ := ExpireSandbox.Spec(); spec.Title != "Expire sandbox allocation" || !strings.Contains(spec.Note, "the broker refuses a mark") {
		t.Errorf("expire is not labelled as the expiry path: %q / %q", spec.Title, spec.Note)
	}
	if r := w.exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("expire: %s", r.Message)
	}
	if got := w.get(data.TableSandboxes, sandboxKey("sb-long")); attrS(t, got, "status") != "pending_deletion" {
		t.Errorf("status after expiring: %v", got["status"])
	}

	// Within 4h of an 8h lab: the mark, with the broker's cutoff.
	young := allocatedSandbox("sb-young", w.now)
	young["allocated_at"], young["lab_duration_hours"] = N(w.now.Add(-3*time.Hour).Unix()), N(8)
	w.put(data.TableSandboxes, young)
	p = w.plan(MarkSandboxDeletion, sandboxKey("sb-young"), Options{})
	if !avEqual(p.Values[":max_expiry"], N(w.now.Add(-4*time.Hour).Unix())) {
		t.Errorf(":max_expiry = %v, want now - 4 hours as the document writes it", p.Values[":max_expiry"])
	}
	// The same plan sent two hours later (the dialog left open) is refused
	// by DynamoDB on the window clause: 5h is past the broker's 4.
	exec := *w.exec
	exec.Now = func() time.Time { return w.now.Add(2 * time.Hour) }
	expectGuardFailure(t, exec.Execute(w.ctx, p), "the allocation is younger than its window (4h broker window; lab_duration_hours 8)", FailExpired,
		"not marked for deletion: allocation expired: allocated ")

	// A lab shorter than four hours is its own limit.
	short := allocatedSandbox("sb-short", w.now)
	short["allocated_at"], short["lab_duration_hours"] = N(w.now.Add(-90*time.Minute).Unix()), N(1)
	if _, err := PlanFor(MarkSandboxDeletion, short, w.now, Options{}); err == nil || !strings.Contains(err.Error(), "1h lab duration") {
		t.Errorf("1h lab allocated 90 min ago: %v", err)
	}

	// The list's deadline and the Overview's past-window count use the
	// same window as the actions.
	if due, ok := data.DecodeSandbox(long).AllocationDeadline(); !ok || !due.Equal(time.Unix(at, 0).Add(4*time.Hour)) {
		t.Errorf("deadline of the 8h lab = %v %v, want allocated_at + 4h", due, ok)
	}
	if !data.SandboxPastWindow(long, w.now) {
		t.Errorf("the Overview does not count the 8h lab allocated 5h ago as past its window")
	}
}

// expiredSandbox was allocated to track-123 five hours before now, for 4 h:
// past its window, which the broker's auto-expiry job would have closed.
func expiredSandbox(id string, now time.Time) data.Item {
	it := allocatedSandbox(id, now)
	at := now.Add(-5 * time.Hour).Unix()
	it["allocated_at"], it["updated_at"] = N(at), N(at)
	return it
}

func TestExpireSandboxAllocation(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	w.put(data.TableSandboxes, expiredSandbox("sb-exp", w.now))
	seen := w.get(data.TableSandboxes, sandboxKey("sb-exp"))
	if got := Available(data.TableSandboxes, seen, w.now, Options{}); len(got) != 1 || got[0] != ExpireSandbox {
		t.Fatalf("Available = %v, want only %s", got, ExpireSandbox)
	}
	if p, err := PlanFirst([]Kind{MarkSandboxDeletion, ExpireSandbox}, seen, w.now, Options{}); err != nil || p.Kind != ExpireSandbox {
		t.Fatalf("D on an expired allocation plans %v (%v)", p.Kind, err)
	}
	p := w.plan(ExpireSandbox, sandboxKey("sb-exp"), Options{})
	want := "attribute_exists(#PK) AND #status = :allocated AND #allocated_to_track = :seen_allocated_to_track AND #allocated_at < :expired_before AND #allocated_at = :seen_allocated_at AND #lab_duration_hours = :seen_lab_duration_hours"
	if p.ConditionExpression != want {
		t.Errorf("condition\n got %s\nwant %s", p.ConditionExpression, want)
	}
	if !avEqual(p.Values[":expired_before"], N(w.now.Add(-4*time.Hour).Unix())) {
		t.Errorf(":expired_before = %v, want now - 4h in unix seconds", p.Values[":expired_before"])
	}
	r := w.exec.Execute(w.ctx, p)
	if !r.OK || r.Message != "expired sb-exp" {
		t.Fatalf("expire: %s", r.Message)
	}
	got := w.get(data.TableSandboxes, sandboxKey("sb-exp"))
	now := strconv.FormatInt(w.now.Unix(), 10)
	if attrS(t, got, "status") != "pending_deletion" || attrN(t, got, "deletion_requested_at") != now || attrN(t, got, "updated_at") != now {
		t.Errorf("item after expiring: %v", got)
	}
	if attrS(t, got, "allocated_to_track") != "track-123" || attrN(t, got, "deletion_retry_count") != "0" ||
		attrN(t, got, "allocated_at") != strconv.FormatInt(w.now.Add(-5*time.Hour).Unix(), 10) {
		t.Errorf("attributes the action must not touch changed: %v", got)
	}
	// The cleanup job's selection (status = pending_deletion) finds it,
	// through the StatusIndex the broker reads.
	out, err := w.conn.DB.Query(w.ctx, &dynamodb.QueryInput{
		TableName: aws.String(w.tables.Name(data.TableSandboxes)), IndexName: aws.String("StatusIndex"),
		KeyConditionExpression:   aws.String("#s = :s"),
		ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: data.Item{":s": S("pending_deletion")},
	})
	if err != nil || len(out.Items) != 1 {
		t.Errorf("StatusIndex pending_deletion: %v items, %v", len(out.Items), err)
	}
}

func TestExpireSandboxGuardClauses(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	seenAt := strconv.FormatInt(w.now.Add(-5*time.Hour).Unix(), 10)
	cases := []struct {
		name, expr string // "" deletes the item
		values     data.Item
		clause     string
		why        Failure
		msg        string
	}{
		{"the expiry job was first", "SET #s = :v", data.Item{":v": S("pending_deletion")},
			"status is still allocated", FailAlreadyDone, "not expired: already marked for deletion: status is pending_deletion"},
		{"released to the pool", "SET #s = :v", data.Item{":v": S("available")},
			"status is still allocated", FailWrongState, "not expired: not allocated: status is available since "},
		{"another track owns it", "SET allocated_to_track = :v", data.Item{":v": S("track-456")},
			"still allocated to track-123, as seen", FailDifferentOwner, "not expired: different owner: now allocated to track-456 since "},
		{"re-allocated", "SET allocated_at = :v", data.Item{":v": N(w.now.Add(-6 * time.Hour).Unix())},
			"allocated_at is still " + seenAt + ", as seen", FailChangedSinceSeen, "changed since seen: allocated_at was " + seenAt + ", is now "},
		{"lab extended", "SET lab_duration_hours = :v", data.Item{":v": N(8)},
			"lab_duration_hours is still 4, as seen", FailChangedSinceSeen, "changed since seen: lab_duration_hours was 4, is now 8"},
		{"deleted", "", nil, "the sandbox still exists", FailGone, "not expired: the item no longer exists"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "sb-exp-" + string(rune('a'+i))
			w.put(data.TableSandboxes, expiredSandbox(id, w.now))
			p := w.plan(ExpireSandbox, sandboxKey(id), Options{})
			if tc.expr == "" {
				w.del(data.TableSandboxes, sandboxKey(id))
			} else {
				var names map[string]string
				if strings.Contains(tc.expr, "#s ") {
					names = map[string]string{"#s": "status"}
				}
				w.update(data.TableSandboxes, sandboxKey(id), tc.expr, names, tc.values)
			}
			before := w.get(data.TableSandboxes, sandboxKey(id))
			expectGuardFailure(t, w.exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
			if after := w.get(data.TableSandboxes, sandboxKey(id)); !sameItem(before, after) {
				t.Errorf("a failed guard changed the item")
			}
		})
	}
	// The window clause alone: planned as expired, sent at an instant
	// when (by the executor's clock) the allocation is inside its window.
	w.put(data.TableSandboxes, expiredSandbox("sb-exp-clock", w.now))
	p := w.plan(ExpireSandbox, sandboxKey("sb-exp-clock"), Options{})
	exec := *w.exec
	exec.Now = func() time.Time { return w.now.Add(-2 * time.Hour) }
	expectGuardFailure(t, exec.Execute(w.ctx, p), "the allocation is older than its window (4h lab duration)", FailNotExpired, "not expired: not expired: allocated ")
}

func TestExpireSandboxNotApplicable(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		name string
		edit func(data.Item)
		want string
	}{
		{"within window", func(it data.Item) { it["allocated_at"] = N(now.Add(-time.Hour).Unix()) }, "the allocation is within its window until "},
		{"not allocated", func(it data.Item) { it["status"] = S("pending_deletion") }, "only allocated sandboxes can have their allocation expired; this one is pending_deletion"},
		{"milliseconds", func(it data.Item) { it["allocated_at"] = N(now.Add(-5 * time.Hour).UnixMilli()) }, "looks like milliseconds"},
		{"allocated_at as a string", func(it data.Item) { it["allocated_at"] = S("1763700000") }, "allocated_at is a string"},
		{"no duration", func(it data.Item) { delete(it, "lab_duration_hours") }, "lab_duration_hours is absent"},
		{"future", func(it data.Item) { it["allocated_at"] = N(now.Add(time.Hour).Unix()) }, "is in the future"},
	} {
		it := expiredSandbox("sb-x", now)
		tc.edit(it)
		if _, err := PlanFor(ExpireSandbox, it, now, Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
