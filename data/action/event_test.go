package action

import (
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

func TestRetryEventMovesStatusAndStatusIndexKeyTogether(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-ok", 1))
	r := w.exec.Execute(w.ctx, w.plan(RetryEvent, eventKey("ev-ok"), Options{}))
	if !r.OK {
		t.Fatalf("retry failed: %s", r.Message)
	}
	got := w.get(data.TableEvents, eventKey("ev-ok"))
	if s := attrS(t, got, "status"); s != "retrying" {
		t.Errorf("status = %q", s)
	}
	if s := attrS(t, got, "status#timestamp"); s != "retrying#"+evTS {
		t.Errorf("status#timestamp = %q", s)
	}
	if n := attrN(t, got, "retry_count"); n != "2" {
		t.Errorf("retry_count = %s, want 2", n)
	}
	if s := attrS(t, got, "last_retry_at"); s != w.now.UTC().Format(eventTime) {
		t.Errorf("last_retry_at = %q", s)
	}
	if attrS(t, got, "event_type#timestamp") != "order.completed#"+evTS || attrN(t, got, "ttl") != "1900000000" {
		t.Errorf("untouched attributes changed: %v", got)
	}

	// The delivery worker's query (StatusIndex, begins_with "retrying")
	// finds the event: that is the point of moving status#timestamp.
	out, err := w.conn.DB.Query(w.ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(w.tables.Name(data.TableEvents)),
		IndexName:                 aws.String("StatusIndex"),
		KeyConditionExpression:    aws.String("user_id = :u AND begins_with(#st, :p)"),
		ExpressionAttributeNames:  map[string]string{"#st": "status#timestamp"},
		ExpressionAttributeValues: data.Item{":u": S("user-1"), ":p": S("retrying")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 1 || attrS(t, out.Items[0], "event_id") != "ev-ok" {
		t.Fatalf("StatusIndex query found %d items", len(out.Items))
	}
}

func TestRetryEventWithoutRetryCountStartsAtOne(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-nocount", -1))
	p := w.plan(RetryEvent, eventKey("ev-nocount"), Options{})
	if !strings.Contains(p.ConditionExpression, "attribute_not_exists(#retry_count)") {
		t.Errorf("absent retry_count must be pinned as absent: %s", p.ConditionExpression)
	}
	if r := w.exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("retry failed: %s", r.Message)
	}
	if n := attrN(t, w.get(data.TableEvents, eventKey("ev-nocount")), "retry_count"); n != "1" {
		t.Errorf("retry_count = %s, want 1", n)
	}
}

func TestRetryEventGuardClauses(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	cases := []struct {
		name   string
		expr   string // "" deletes the item
		values data.Item
		clause string
		why    Failure
		msg    string
	}{
		{"already retried by someone", "SET #s = :v, retry_count = :n", data.Item{":v": S("retrying"), ":n": N(2)},
			"status is still failed", FailAlreadyDone, "not queued for retry: already being retried: status is retrying (retry_count 2)"},
		{"delivered meanwhile", "SET #s = :v", data.Item{":v": S("delivered")},
			"status is still failed", FailWrongState, "not queued for retry: status is delivered (retry_count 1)"},
		{"retry_count moved", "SET retry_count = :n", data.Item{":n": N(2)},
			"retry_count is still 1, as seen", FailChangedSinceSeen, "changed since seen: retry_count was 1, is now 2"},
		{"timestamp rewritten", "SET #ts = :v", data.Item{":v": S("2026-11-21T10:30:46Z")},
			"timestamp is still " + evTS + ", as seen", FailChangedSinceSeen, "changed since seen: timestamp was " + evTS},
		{"deleted", "", nil, "the event still exists", FailGone, "not queued for retry: the item no longer exists"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "ev-guard-" + string(rune('a'+i))
			w.put(data.TableEvents, failedEvent(id, 1))
			p := w.plan(RetryEvent, eventKey(id), Options{})
			if tc.expr == "" {
				w.del(data.TableEvents, eventKey(id))
			} else {
				names := map[string]string{}
				if strings.Contains(tc.expr, "#s ") {
					names["#s"] = "status"
				}
				if strings.Contains(tc.expr, "#ts") {
					names["#ts"] = "timestamp"
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

// "retry_count < max" cannot fail on its own in normal use (the pin on the
// seen count holds it below max), so this checks the clause itself: a plan
// made under a looser max is sent with max lowered to the current count.
func TestRetryEventMaxClauseIsEnforcedByDynamoDB(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-max", 3))
	p := w.plan(RetryEvent, eventKey("ev-max"), Options{RetryMax: 5})
	p.opts.RetryMax = 3
	expectGuardFailure(t, w.exec.Execute(w.ctx, p), "retry_count is below 3", FailRetriesExhausted,
		"not queued for retry: retries exhausted: retry_count is 3 (max 3)")
	if n := attrN(t, w.get(data.TableEvents, eventKey("ev-max")), "retry_count"); n != "3" {
		t.Errorf("retry_count = %s after a refused retry", n)
	}
}

func TestRetryEventNotApplicable(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name string
		edit func(data.Item)
		opts Options
		want string
	}{
		{"delivered", func(it data.Item) { it["status"] = S("delivered") }, Options{}, "only failed events can be retried; this one is delivered"},
		{"exhausted at default max", func(it data.Item) { it["retry_count"] = N(3) }, Options{}, "retries exhausted: retry_count is 3 of 3 allowed"},
		{"exhausted at configured max", func(it data.Item) { it["retry_count"] = N(1) }, Options{RetryMax: 1}, "retries exhausted: retry_count is 1 of 1 allowed"},
		{"count stored as a string", func(it data.Item) { it["retry_count"] = S("2") }, Options{}, `retry_count is a string ("2"), not a number; opsdeck will not count on it`},
		{"count with a fraction", func(it data.Item) { it["retry_count"] = &types.AttributeValueMemberN{Value: "1.5"} }, Options{}, "retry_count is 1.5, not a whole number"},
		{"negative count", func(it data.Item) { it["retry_count"] = N(-1) }, Options{}, "retry_count is -1, below zero"},
		{"count beyond int64", func(it data.Item) { it["retry_count"] = &types.AttributeValueMemberN{Value: "1e30"} }, Options{}, "retry_count is 1e30, too large"},
		{"no timestamp anywhere", func(it data.Item) { delete(it, "timestamp"); it["timestamp#event_id"] = S("nohash") }, Options{}, "the event has no timestamp"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := failedEvent("ev-x", 1)
			tc.edit(it)
			if _, err := PlanFor(RetryEvent, it, now, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// The sort key's timestamp stands in for a missing attribute.
	it := failedEvent("ev-sk", 0)
	delete(it, "timestamp")
	p, err := PlanFor(RetryEvent, it, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Values[":status_timestamp"]; !avEqual(v, S("retrying#"+evTS)) {
		t.Errorf("status#timestamp from the sort key = %v", v)
	}
}
