package action

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

const evTS = "2026-11-21T10:30:45.123456Z"

func eventKey(id string) data.Item {
	return data.Item{"user_id": S("user-1"), "timestamp#event_id": S(evTS + "#" + id)}
}

func failedEvent(id string, retries int64) data.Item {
	it := data.Item{
		"user_id":              S("user-1"),
		"timestamp#event_id":   S(evTS + "#" + id),
		"event_id":             S(id),
		"event_type":           S("order.completed"),
		"status":               S("failed"),
		"timestamp":            S(evTS),
		"ttl":                  N(1900000000),
		"event_type#timestamp": S("order.completed#" + evTS),
		"status#timestamp":     S("failed#" + evTS),
	}
	if retries >= 0 {
		it["retry_count"] = N(retries)
	}
	return it
}

func eventIn(status string, retries int64) func(string) data.Item {
	return func(id string) data.Item {
		it := failedEvent(id, retries)
		it["status"] = S(status)
		it["status#timestamp"] = S(status + "#" + evTS)
		return it
	}
}

// statusSlice is what the service's Pattern 5 query returns for a status:
// the event ids in that StatusIndex slice of user-1.
func statusSlice(w *world, status string) []string {
	w.t.Helper()
	out, err := w.conn.DB.Query(w.ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(w.tables.Name(data.TableEvents)),
		IndexName:                 aws.String("StatusIndex"),
		KeyConditionExpression:    aws.String("user_id = :u AND begins_with(#st, :p)"),
		ExpressionAttributeNames:  map[string]string{"#st": "status#timestamp"},
		ExpressionAttributeValues: data.Item{":u": S("user-1"), ":p": S(status)},
	})
	if err != nil {
		w.t.Fatal(err)
	}
	var ids []string
	for _, it := range out.Items {
		ids = append(ids, attrS(w.t, it, "event_id"))
	}
	return ids
}

// expectEventAt checks the event as the service reads it: status and
// status#timestamp in step, in the StatusIndex slice of its status and no
// other, the attributes the action does not own untouched.
func expectEventAt(w *world, id, status, retries string) {
	t := w.t
	t.Helper()
	got := w.get(data.TableEvents, eventKey(id))
	if s := attrS(t, got, "status"); s != status {
		t.Errorf("status = %q, want %q", s, status)
	}
	if s := attrS(t, got, "status#timestamp"); s != status+"#"+evTS {
		t.Errorf("status#timestamp = %q, want %q", s, status+"#"+evTS)
	}
	if n := attrN(t, got, "retry_count"); n != retries {
		t.Errorf("retry_count = %s, want %s", n, retries)
	}
	if attrS(t, got, "event_type#timestamp") != "order.completed#"+evTS || attrN(t, got, "ttl") != "1900000000" || attrS(t, got, "timestamp") != evTS {
		t.Errorf("attributes the action does not own changed: %v", got)
	}
	for _, st := range []string{"received", "delivered", "failed", "retrying"} {
		found := strings.Contains(strings.Join(statusSlice(w, st), " "), id)
		if found != (st == status) {
			t.Errorf("StatusIndex slice %q finds %s: %v", st, id, found)
		}
	}
}

type eventGuardCase struct {
	name   string
	expr   string // "" deletes the item
	values data.Item
	clause string
	why    Failure
	msg    string
}

// runEventGuards plans kind on a fresh item per case, changes the item
// behind the operator's back, and expects the write refused on the named
// clause with the item untouched.
func runEventGuards(t *testing.T, kind Kind, mk func(string) data.Item, opts Options, cases []eventGuardCase) {
	w := newWorld(t, data.TableEvents)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w.t = t
			id := fmt.Sprintf("ev-%s-%d", kind, i)
			w.put(data.TableEvents, mk(id))
			p := w.plan(kind, eventKey(id), opts)
			if tc.expr == "" {
				w.del(data.TableEvents, eventKey(id))
			} else {
				names := map[string]string{}
				for ph, n := range map[string]string{"#s ": "status", "#ts ": "timestamp", "#sts ": "status#timestamp"} {
					if strings.Contains(tc.expr, ph) {
						names[strings.TrimSpace(ph)] = n
					}
				}
				if len(names) == 0 {
					names = nil
				}
				w.update(data.TableEvents, eventKey(id), tc.expr, names, tc.values)
			}
			before := w.get(data.TableEvents, eventKey(id))
			expectGuardFailure(t, w.exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
			if after := w.get(data.TableEvents, eventKey(id)); !sameItem(before, after) {
				t.Errorf("a failed guard changed the item")
			}
		})
	}
}

func TestRequeueResetsAnExhaustedEventForTheRetryJob(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-rq", 3))
	p := w.plan(RequeueEvent, eventKey("ev-rq"), Options{})
	want := "attribute_exists(#user_id) AND #status = :failed AND #retry_count >= :retry_max AND #retry_count = :seen_retry_count AND #status_timestamp = :seen_status_timestamp AND #timestamp = :seen_timestamp"
	if p.ConditionExpression != want {
		t.Errorf("condition\n got %s\nwant %s", p.ConditionExpression, want)
	}
	if r := w.exec.Execute(w.ctx, p); !r.OK || r.Message != "requeued ev-rq" {
		t.Fatalf("requeue: %s", r.Message)
	}
	expectEventAt(w, "ev-rq", "failed", "0")
}

func TestRequeueGuardClauses(t *testing.T) {
	runEventGuards(t, RequeueEvent, eventIn("failed", 3), Options{}, []eventGuardCase{
		{"delivered meanwhile", "SET #s = :v", data.Item{":v": S("delivered")},
			"status is still failed", FailWrongState, "not requeued: status is delivered (retry_count 3)"},
		{"requeued by someone", "SET retry_count = :n", data.Item{":n": N(0)},
			"retry_count is at least 3 (retries exhausted)", FailWrongState, "not requeued: retries not exhausted: retry_count is 0 (max 3)"},
		{"the worker counted another attempt", "SET retry_count = :n", data.Item{":n": N(4)},
			"retry_count is still 3, as seen", FailChangedSinceSeen, "not requeued: changed since seen: retry_count was 3, is now 4"},
		{"index key rewritten", "SET #sts = :v", data.Item{":v": S("failed#2026-11-21T10:30:46Z")},
			"status#timestamp is still failed#" + evTS + ", as seen", FailChangedSinceSeen, "changed since seen: status#timestamp was failed#" + evTS},
		{"timestamp rewritten", "SET #ts = :v", data.Item{":v": S("2026-11-21T10:30:46Z")},
			"timestamp is still " + evTS + ", as seen", FailChangedSinceSeen, "changed since seen: timestamp was " + evTS},
		{"deleted", "", nil, "the event still exists", FailGone, "not requeued: the item no longer exists"},
	})
}

// "retry_count >= max" cannot fail on its own while the pin holds the count
// where it was seen, so this checks the clause itself: a plan made under a
// lower max is sent with the max raised above the count.
func TestRequeueExhaustedClauseIsEnforcedByDynamoDB(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-max", 3))
	p := w.plan(RequeueEvent, eventKey("ev-max"), Options{RetryMax: 3})
	p.opts.RetryMax = 5
	expectGuardFailure(t, w.exec.Execute(w.ctx, p), "retry_count is at least 5 (retries exhausted)", FailWrongState,
		"not requeued: retries not exhausted: retry_count is 3 (max 5)")
}

func TestRequeueNotApplicable(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		name string
		it   data.Item
		opts Options
		want string
	}{
		{"not exhausted", failedEvent("e", 1), Options{}, "retries are not exhausted (retry_count 1 of 3): the retry job still takes this event up"},
		{"no count", failedEvent("e", -1), Options{}, "retries are not exhausted (retry_count absent of 3)"},
		{"retrying", eventIn("retrying", 3)("e"), Options{}, "only failed events can be requeued; this one is retrying"},
		{"count as a string", func() data.Item { it := failedEvent("e", 3); it["retry_count"] = S("3"); return it }(), Options{}, `retry_count is a string ("3"), not a number; opsdeck will not count on it`},
		{"count with a fraction", func() data.Item {
			it := failedEvent("e", 3)
			it["retry_count"] = &types.AttributeValueMemberN{Value: "3.5"}
			return it
		}(), Options{}, "retry_count is 3.5, not a whole number"},
		{"no timestamp anywhere", func() data.Item {
			it := failedEvent("e", 3)
			delete(it, "timestamp")
			it["timestamp#event_id"] = S("nohash")
			return it
		}(), Options{}, "the event has no timestamp"},
	} {
		if _, err := PlanFor(RequeueEvent, tc.it, now, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	// The sort key's timestamp stands in for a missing attribute.
	it := failedEvent("ev-sk", 3)
	delete(it, "timestamp")
	p, err := PlanFor(RequeueEvent, it, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Values[":status_timestamp"]; !avEqual(v, S("failed#"+evTS)) {
		t.Errorf("status#timestamp from the sort key = %v", v)
	}
}

func TestMarkDeliveredIsTerminalAndKeepsTheCount(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-dl", 2))
	if r := w.exec.Execute(w.ctx, w.plan(MarkEventDelivered, eventKey("ev-dl"), Options{})); !r.OK || r.Message != "marked delivered ev-dl" {
		t.Fatalf("mark delivered: %s", r.Message)
	}
	expectEventAt(w, "ev-dl", "delivered", "2")
}

func TestMarkDeliveredGuardClauses(t *testing.T) {
	runEventGuards(t, MarkEventDelivered, eventIn("failed", 1), Options{}, []eventGuardCase{
		{"delivered by the worker", "SET #s = :v", data.Item{":v": S("delivered")},
			"status is still failed", FailAlreadyDone, "not marked delivered: status is delivered (retry_count 1)"},
		{"taken up by the retry job", "SET #s = :v", data.Item{":v": S("retrying")},
			"status is still failed", FailWrongState, "not marked delivered: status is retrying (retry_count 1)"},
		{"another attempt counted", "SET retry_count = :n", data.Item{":n": N(2)},
			"retry_count is still 1, as seen", FailChangedSinceSeen, "changed since seen: retry_count was 1, is now 2"},
		{"index key rewritten", "SET #sts = :v", data.Item{":v": S("received#" + evTS)},
			"status#timestamp is still failed#" + evTS + ", as seen", FailChangedSinceSeen, "changed since seen: status#timestamp was failed#" + evTS},
		{"timestamp rewritten", "SET #ts = :v", data.Item{":v": S("2026-11-21T10:30:46Z")},
			"timestamp is still " + evTS + ", as seen", FailChangedSinceSeen, "changed since seen: timestamp was " + evTS},
		{"deleted", "", nil, "the event still exists", FailGone, "not marked delivered: the item no longer exists"},
	})
}

func TestUnstickReturnsAStuckRetryToFailed(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, eventIn("retrying", 2)("ev-us"))
	p := w.plan(UnstickEvent, eventKey("ev-us"), Options{})
	if !strings.Contains(p.ConditionExpression, "#timestamp < :stuck_before") ||
		!avEqual(p.Values[":stuck_before"], S(w.now.Add(-time.Hour).UTC().Format("2006-01-02T15:04:05.000000000Z"))) {
		t.Errorf("condition %s, cutoff %v", p.ConditionExpression, p.Values[":stuck_before"])
	}
	if r := w.exec.Execute(w.ctx, p); !r.OK || r.Message != "back to failed ev-us" {
		t.Fatalf("unstick: %s", r.Message)
	}
	expectEventAt(w, "ev-us", "failed", "2")
}

func TestUnstickGuardClauses(t *testing.T) {
	runEventGuards(t, UnstickEvent, eventIn("retrying", 2), Options{}, []eventGuardCase{
		{"unstuck by someone", "SET #s = :v", data.Item{":v": S("failed")},
			"status is still retrying", FailAlreadyDone, "not back to failed: status is failed (retry_count 2)"},
		{"delivered after all", "SET #s = :v", data.Item{":v": S("delivered")},
			"status is still retrying", FailWrongState, "not back to failed: status is delivered (retry_count 2)"},
		{"the worker counted an attempt", "SET retry_count = :n", data.Item{":n": N(3)},
			"retry_count is still 2, as seen", FailChangedSinceSeen, "changed since seen: retry_count was 2, is now 3"},
		{"index key rewritten", "SET #sts = :v", data.Item{":v": S("retrying#2026-11-21T10:30:46Z")},
			"status#timestamp is still retrying#" + evTS + ", as seen", FailChangedSinceSeen, "changed since seen: status#timestamp was retrying#" + evTS},
		{"deleted", "", nil, "the event still exists", FailGone, "not back to failed: the item no longer exists"},
	})
	// The age clause alone: a plan made under a short threshold, sent
	// with one longer than the event's age.
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, eventIn("retrying", 2)("ev-young"))
	p := w.plan(UnstickEvent, eventKey("ev-young"), Options{})
	p.opts.StuckRetry = 1000 * time.Hour
	expectGuardFailure(t, w.exec.Execute(w.ctx, p), "the event is more than 1000h0m0s old, judged by "+noRetryTime, FailNotStale, "not back to failed: not stuck: timestamp is "+evTS+", less than 1000h0m0s before now")
	// The timestamp pin alone: a rewritten timestamp older still.
	w.put(data.TableEvents, eventIn("retrying", 2)("ev-ts"))
	p = w.plan(UnstickEvent, eventKey("ev-ts"), Options{})
	w.update(data.TableEvents, eventKey("ev-ts"), "SET #ts = :v", map[string]string{"#ts": "timestamp"}, data.Item{":v": S("2026-11-20T10:30:45.123456Z")})
	expectGuardFailure(t, w.exec.Execute(w.ctx, p), "timestamp is still "+evTS+", as seen", FailChangedSinceSeen, "changed since seen: timestamp was "+evTS)
}

// noRetryTime is what the unstick dialog says when the item records no retry.
const noRetryTime = "the event's own timestamp: the item carries no retry time, so this is the event's age, not the time since its last retry"

// Unstick judges "stuck" from the newest time the item carries: an event
// created hours ago but retried a minute ago is being delivered now, not
// stuck. The dialog's guard says which time it used. Against DynamoDB
// Local: the condition is on that attribute, and a worker that records an
// attempt after the dialog opened makes the write fail.
func TestUnstickJudgesFromTheNewestTime(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	iso := func(d time.Duration) string { return w.now.Add(-d).UTC().Format(eventTime) }

	// Created 3 h ago, retried 5 min ago: a worker is on it.
	busy := eventIn("retrying", 2)("ev-busy")
	busy["timestamp"], busy["last_retry_at"] = S(iso(3*time.Hour)), S(iso(5*time.Minute))
	w.put(data.TableEvents, busy)
	if _, err := PlanFor(UnstickEvent, w.get(data.TableEvents, eventKey("ev-busy")), w.now, Options{}); err == nil ||
		!strings.Contains(err.Error(), "the event was last retried 5m0s ago (last_retry_at") {
		t.Errorf("an event retried 5 min ago is offered as stuck: %v", err)
	}

	// Created 3 h ago, last retried 90 min ago: stuck, judged by the retry.
	stale := eventIn("retrying", 2)("ev-stale")
	stale["timestamp"], stale["last_retry_at"] = S(iso(3*time.Hour)), S(iso(90*time.Minute))
	w.put(data.TableEvents, stale)
	p := w.plan(UnstickEvent, eventKey("ev-stale"), Options{})
	if !strings.Contains(p.ConditionExpression, "#last_retry_at < :stuck_before") || !strings.Contains(p.ConditionExpression, "#last_retry_at = :seen_last_retry_at") {
		t.Errorf("condition %s: want the cutoff and the pin on last_retry_at", p.ConditionExpression)
	}
	if !guardSays(p, "the last retry is more than 1h0m0s ago, judged by its last retry (last_retry_at), the newest time the item carries") {
		t.Errorf("the dialog does not say which time it used: %v", p.Guard)
	}
	if r := w.exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("unstick: %s", r.Message)
	}
	if got := w.get(data.TableEvents, eventKey("ev-stale")); attrS(t, got, "status") != "failed" || attrN(t, got, "retry_count") != "2" ||
		attrS(t, got, "status#timestamp") != "failed#"+iso(3*time.Hour) {
		t.Errorf("after unstick: %v", got)
	}

	// No retry time: the event's age, said as such, and a retry recorded
	// after the dialog opened makes the write fail.
	old := eventIn("retrying", 2)("ev-old")
	old["timestamp"] = S(iso(2 * time.Hour))
	w.put(data.TableEvents, old)
	p = w.plan(UnstickEvent, eventKey("ev-old"), Options{})
	if !guardSays(p, "the event is more than 1h0m0s old, judged by "+noRetryTime) || !strings.Contains(p.ConditionExpression, "attribute_not_exists(#last_retry_at)") {
		t.Errorf("guard %v / condition %s", p.Guard, p.ConditionExpression)
	}
	w.update(data.TableEvents, eventKey("ev-old"), "SET last_retry_at = :t", nil, data.Item{":t": S(iso(time.Second))})
	expectGuardFailure(t, w.exec.Execute(w.ctx, p), "last_retry_at is still absent, as seen", FailChangedSinceSeen, "changed since seen: last_retry_at was absent, is now ")
}

func guardSays(p Plan, text string) bool {
	for _, g := range p.Guard {
		if g.Text == text {
			return true
		}
	}
	return false
}

func TestUnstickNotApplicable(t *testing.T) {
	now := time.Now()
	fresh := now.Add(-10 * time.Minute).UTC().Format(eventTime)
	for _, tc := range []struct {
		name string
		edit func(data.Item)
		want string
	}{
		{"failed", func(it data.Item) { it["status"] = S("failed") }, "only retrying events can be unstuck; this one is failed"},
		{"young", func(it data.Item) { it["timestamp"] = S(fresh) }, "old (its timestamp; the item carries no retry time); only events retrying for more than 1h0m0s count as stuck"},
		{"retried recently", func(it data.Item) { it["last_retry_at"] = S(fresh) }, "the event was last retried 10m0s ago (last_retry_at " + fresh + "); only events retrying"},
		{"retry time unreadable", func(it data.Item) { it["last_retry_at"] = S("yesterday") }, "last_retry_at is yesterday, not an ISO 8601 time"},
		{"retry time a number", func(it data.Item) { it["last_retry_at"] = N(1763720000) }, "last_retry_at is a N (1763720000), not the ISO 8601 string"},
		{"numeric timestamp", func(it data.Item) { it["timestamp"] = N(1763720000) }, "timestamp is a N (1763720000), not the ISO 8601 string"},
		{"local time", func(it data.Item) { it["timestamp"] = S("2026-11-21T10:30:45+01:00") }, `not a UTC timestamp ending in "Z"`},
		{"future", func(it data.Item) { it["timestamp"] = S(now.Add(time.Hour).UTC().Format(eventTime)) }, "is in the future"},
		{"no timestamp", func(it data.Item) { delete(it, "timestamp") }, "the event has no timestamp attribute"},
	} {
		it := eventIn("retrying", 1)("e")
		tc.edit(it)
		if _, err := PlanFor(UnstickEvent, it, now, Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
