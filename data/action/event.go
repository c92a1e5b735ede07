package action

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Inbox actions. The retry job finds work through StatusIndex, whose sort
// key is "status#timestamp"; setting status alone would leave the event
// invisible to it, so both move together, as the service's own updates do.

// eventTime is the Triggers API's timestamp shape (Python isoformat + "Z").
const eventTime = "2006-01-02T15:04:05.000000Z"

const eventSortKey = "timestamp#event_id"

func eventID(seen data.Item) string {
	if id, ok := str(seen, "event_id"); ok && id != "" {
		return id
	}
	s, _ := str(seen, eventSortKey)
	return s
}

// eventTimestamp is the event's own timestamp: the `timestamp` attribute, or
// the first half of the sort key when that attribute is missing.
func eventTimestamp(seen data.Item) (string, bool) {
	if ts, ok := str(seen, "timestamp"); ok && ts != "" {
		return ts, true
	}
	if sk, ok := str(seen, eventSortKey); ok {
		if i := strings.IndexByte(sk, '#'); i > 0 {
			return sk[:i], true
		}
	}
	return "", false
}

// The Inbox actions leave each event where the service acts on it, or in
// a terminal state the operator chose:
//   - Requeue: an exhausted failed event gets retry_count 0, so the retry
//     job, which reads the StatusIndex slice "failed" (Pattern 5), takes it
//     up again. The worker counts its own attempts (Pattern 6); opsdeck
//     never adds one.
//   - Mark delivered: a failed event resolved by hand becomes delivered.
//   - Unstick: an event left in retrying (its worker died) goes back to
//     failed, where the retry job sees it; retry_count is kept.
// Every one writes status#timestamp with status, from the event's own
// timestamp, as the service's own updates do.

// checkEventStatus is what every Inbox action first asks of the item: a
// readable status equal to want, scalar attributes where the guard pins
// them, and a timestamp to rebuild status#timestamp from.
func checkEventStatus(seen data.Item, want, verb string) error {
	status, ok := str(seen, "status")
	if !ok {
		return fmt.Errorf("this event has no readable status (%s)", show(seen["status"]))
	}
	if status != want {
		return fmt.Errorf("only %s events can be %s; this one is %s", want, verb, clip(status))
	}
	if err := requireScalar(seen, "status", "retry_count", "timestamp", "status#timestamp"); err != nil {
		return err
	}
	if _, ok := eventTimestamp(seen); !ok {
		return errors.New("the event has no timestamp (neither the attribute nor the sort key carries one), so status#timestamp cannot be rebuilt")
	}
	return nil
}

// retryCount reads retry_count by value; absent counts as 0 (the service
// writes 0 on create).
func retryCount(seen data.Item) (int64, error) {
	if seen["retry_count"] == nil {
		return 0, nil
	}
	n, problem := wholeNumber(seen, "retry_count")
	if problem != "" {
		return 0, fmt.Errorf("%s; opsdeck will not count on it", problem)
	}
	if n < 0 {
		return 0, fmt.Errorf("retry_count is %d, below zero; opsdeck will not count on it", n)
	}
	return n, nil
}

// eventPins are the clauses every Inbox action ends with: the values the
// new status#timestamp is built from and the worker's count, as seen. A
// worker that touched the event since (Pattern 6 writes retry_count) makes
// the write fail instead of racing it.
func eventPins(b *exprBuilder, seen data.Item) []Clause {
	cs := []Clause{b.pin(seen, "retry_count"), b.pin(seen, "status#timestamp")}
	if seen["timestamp"] != nil {
		cs = append(cs, b.pin(seen, "timestamp"))
	}
	return cs
}

// moveEvent is the write of every Inbox action: status and its StatusIndex
// key together.
func moveEvent(b *exprBuilder, seen data.Item, to string) ([]setOp, []Change) {
	ts, _ := eventTimestamp(seen)
	sets := []setOp{
		{"status", b.value("to_status", sv(to))},
		{"status#timestamp", b.value("status_timestamp", sv(to+"#"+ts))},
	}
	changes := []Change{
		{"status", show(seen["status"]), kept(seen["status"], to)},
		{"status#timestamp", show(seen["status#timestamp"]), kept(seen["status#timestamp"], to+"#"+ts)},
	}
	return sets, changes
}

func eventStatusClause(b *exprBuilder, want, done string, now time.Time) Clause {
	c := b.eq("status", want, sv(want), "status is still "+want, FailWrongState)
	c.explain = func(it data.Item) string { return describeEvent(it, now) }
	c.classify = alreadyDoneWhenStatus(done)
	return c
}

func checkRequeueEvent(seen data.Item, _ time.Time, o Options) error {
	if err := checkEventStatus(seen, "failed", "requeued"); err != nil {
		return err
	}
	n, err := retryCount(seen)
	if err != nil {
		return err
	}
	if seen["retry_count"] == nil || n < int64(o.RetryMax) {
		return fmt.Errorf("retries are not exhausted (retry_count %s of %d): the retry job still takes this event up", show(seen["retry_count"]), o.RetryMax)
	}
	return nil
}

func buildRequeueEvent(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error) {
	exhausted := b.cmp("retry_count", ">=", "retry_max", nv(int64(o.RetryMax)),
		fmt.Sprintf("retry_count is at least %d (retries exhausted)", o.RetryMax), FailWrongState)
	exhausted.explain = func(it data.Item) string {
		return fmt.Sprintf("retries not exhausted: retry_count is %s (max %d)", show(it["retry_count"]), o.RetryMax)
	}
	clauses := append([]Clause{
		b.exists("user_id", "the event still exists", FailGone),
		eventStatusClause(b, "failed", "", now),
		exhausted,
	}, eventPins(b, seen)...)
	sets, changes := moveEvent(b, seen, "failed")
	sets = append(sets, setOp{"retry_count", b.value("zero", nv(0))})
	changes = append(changes, Change{"retry_count", show(seen["retry_count"]), "0 (the retry job takes it up again)"})
	return clauses, sets, changes, nil
}

func checkDeliverEvent(seen data.Item, _ time.Time, _ Options) error {
	if err := checkEventStatus(seen, "failed", "marked delivered"); err != nil {
		return err
	}
	_, err := retryCount(seen)
	return err
}

func buildDeliverEvent(b *exprBuilder, seen data.Item, now time.Time, _ Options) ([]Clause, []setOp, []Change, error) {
	clauses := append([]Clause{
		b.exists("user_id", "the event still exists", FailGone),
		eventStatusClause(b, "failed", "delivered", now),
	}, eventPins(b, seen)...)
	sets, changes := moveEvent(b, seen, "delivered")
	changes = append(changes, Change{"retry_count", show(seen["retry_count"]), show(seen["retry_count"]) + " (kept)"})
	return clauses, sets, changes, nil
}

// stamp reads a time attribute of an event for the staleness check: an ISO
// 8601 UTC "Z" string, as the service writes its times (text order is then
// time order, which is what lets DynamoDB compare it with the cutoff).
func stamp(seen data.Item, attr string, now time.Time) (string, time.Time, error) {
	v := seen[attr]
	raw, isS := str(seen, attr)
	switch {
	case v == nil:
		return "", time.Time{}, fmt.Errorf("the event has no %s attribute, so opsdeck cannot tell how long it has been retrying", attr)
	case !isS:
		return "", time.Time{}, fmt.Errorf("%s is %s, not the ISO 8601 string the service writes", attr, typed(v))
	}
	at, _, err := data.ParseTime(raw)
	switch {
	case err != nil:
		return "", time.Time{}, fmt.Errorf("%s is %s, not an ISO 8601 time", attr, show(v))
	case !utcStamp.MatchString(raw):
		return "", time.Time{}, fmt.Errorf("%s %s is not a UTC timestamp ending in \"Z\" (as the service writes), so DynamoDB cannot compare it with the cutoff", attr, show(v))
	case !now.IsZero() && at.After(now.Add(clockSkew)):
		return "", time.Time{}, fmt.Errorf("%s %s is in the future; a clock is wrong, so opsdeck will not judge whether the event is stuck", attr, show(v))
	}
	return raw, at, nil
}

// retryTime is the attribute that carries the time of an event's latest
// delivery attempt. The Triggers API's document writes none (its Pattern 6
// sets status, retry_count and status#timestamp only); the worker that
// does write one (the demo's, and opsdeck's former retry) calls it this.
const retryTime = "last_retry_at"

// stuckClock is the time "stuck" is judged from: the newest time the item
// carries. That is its last retry when it records one, else the event's
// own timestamp — and then the age is the event's, not the retry's: an
// event retried a minute ago looks an hour old. attr says which it is, so
// the dialog can say so.
type stuckClock struct {
	attr string    // "timestamp" or retryTime
	raw  string    // the attribute's text, as stored
	at   time.Time // its reading
}

func readStuckClock(seen data.Item, now time.Time) (stuckClock, error) {
	raw, at, err := stamp(seen, "timestamp", now)
	if err != nil {
		return stuckClock{}, err
	}
	c := stuckClock{attr: "timestamp", raw: raw, at: at}
	if seen[retryTime] == nil {
		return c, nil
	}
	// A retry time that cannot be read is not ignored: it may be the
	// newer one, and a live worker's event must not be judged by the
	// older time.
	rraw, rat, err := stamp(seen, retryTime, now)
	if err != nil {
		return stuckClock{}, err
	}
	if rat.After(at) {
		c = stuckClock{attr: retryTime, raw: rraw, at: rat}
	}
	return c, nil
}

// what says which time the judgement uses, in the dialog's words.
func (c stuckClock) what() string {
	if c.attr == retryTime {
		return "its last retry (" + retryTime + "), the newest time the item carries"
	}
	return "the event's own timestamp: the item carries no retry time, so this is the event's age, not the time since its last retry"
}

// age is how long ago the clock's time was, for messages.
func (c stuckClock) age(now time.Time) time.Duration {
	return max(now.Sub(c.at), 0).Truncate(time.Second)
}

func checkUnstickEvent(seen data.Item, now time.Time, o Options) error {
	if err := checkEventStatus(seen, "retrying", "unstuck"); err != nil {
		return err
	}
	if _, err := retryCount(seen); err != nil {
		return err
	}
	if err := requireScalar(seen, retryTime); err != nil {
		return err
	}
	c, err := readStuckClock(seen, now)
	if err != nil {
		return err
	}
	if c.raw >= cutoffText(c.raw, now.Add(-o.StuckRetry)) {
		if c.attr == retryTime {
			return fmt.Errorf("the event was last retried %s ago (%s %s); only events retrying for more than %s count as stuck",
				c.age(now), retryTime, show(seen[retryTime]), o.StuckRetry)
		}
		return fmt.Errorf("the event is %s old (its timestamp; the item carries no retry time); only events retrying for more than %s count as stuck",
			c.age(now), o.StuckRetry)
	}
	return nil
}

func buildUnstickEvent(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error) {
	// The clock is read as at plan time; the future-time check is
	// PlanFor's (an accepted plan is not refused later for it).
	c, err := readStuckClock(seen, time.Time{})
	if err != nil {
		return nil, nil, nil, err
	}
	text := fmt.Sprintf("the event is more than %s old, judged by %s", o.StuckRetry, c.what())
	if c.attr == retryTime {
		text = fmt.Sprintf("the last retry is more than %s ago, judged by %s", o.StuckRetry, c.what())
	}
	old := b.cmp(c.attr, "<", "stuck_before", sv(cutoffText(c.raw, now.Add(-o.StuckRetry))), text, FailNotStale)
	old.explain = func(it data.Item) string {
		return fmt.Sprintf("not stuck: %s is %s, less than %s before now", c.attr, show(it[c.attr]), o.StuckRetry)
	}
	clauses := append([]Clause{
		b.exists("user_id", "the event still exists", FailGone),
		eventStatusClause(b, "retrying", "failed", now),
		old,
	}, eventPins(b, seen)...)
	// A worker that records its attempts moves the retry time: pinned as
	// seen (absent stays absent), so its attempt makes the write fail.
	clauses = append(clauses, b.pin(seen, retryTime))
	sets, changes := moveEvent(b, seen, "failed")
	changes = append(changes, Change{"retry_count", show(seen["retry_count"]), show(seen["retry_count"]) + " (kept: the worker counts its attempts)"})
	return clauses, sets, changes, nil
}

// describeEvent: "status is delivered (retry_count 2)".
func describeEvent(it data.Item, _ time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status is %s", show(it["status"]))
	if v := it["retry_count"]; v != nil {
		fmt.Fprintf(&b, " (retry_count %s)", show(v))
	}
	return b.String()
}

// kept is a change's "after" text, marked when the value written is the
// one already there (a requeue keeps failed): the write is still sent.
func kept(before types.AttributeValue, after string) string {
	if s, ok := before.(*types.AttributeValueMemberS); ok && s.Value == after {
		return after + " (kept)"
	}
	return after
}
