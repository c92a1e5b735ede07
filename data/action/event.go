package action

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"opsdeck/data"
)

// Inbox · Retry. The delivery worker finds work through StatusIndex, whose
// sort key is "status#timestamp"; setting status alone would leave the event
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

func checkRetryEvent(seen data.Item, _ time.Time, o Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return fmt.Errorf("this event has no readable status (%s)", show(seen["status"]))
	}
	if status != "failed" {
		return fmt.Errorf("only failed events can be retried; this one is %s", clip(status))
	}
	if seen["retry_count"] != nil {
		n, problem := wholeNumber(seen, "retry_count")
		if problem != "" {
			return fmt.Errorf("%s; opsdeck will not count on it", problem)
		}
		if n < 0 {
			return fmt.Errorf("retry_count is %d, below zero; opsdeck will not count on it", n)
		}
		if n >= int64(o.RetryMax) {
			return fmt.Errorf("retries exhausted: retry_count is %d of %d allowed", n, o.RetryMax)
		}
	}
	if _, ok := eventTimestamp(seen); !ok {
		return errors.New("the event has no timestamp (neither the attribute nor the sort key carries one), so status#timestamp cannot be rebuilt")
	}
	return requireScalar(seen, "status", "retry_count", "timestamp")
}

func buildRetryEvent(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error) {
	ts, _ := eventTimestamp(seen)

	failed := b.eq("status", "failed", sv("failed"), "status is still failed", FailWrongState)
	failed.explain = func(it data.Item) string { return describeEvent(it, now) }
	failed.classify = alreadyDoneWhenStatus("retrying")
	clauses := []Clause{
		b.exists("user_id", "the event still exists", FailGone),
		failed,
		b.pin(seen, "retry_count"),
	}
	if seen["retry_count"] != nil {
		under := b.cmp("retry_count", "<", "retry_max", nv(int64(o.RetryMax)),
			fmt.Sprintf("retry_count is below %d", o.RetryMax), FailRetriesExhausted)
		under.explain = func(it data.Item) string {
			return fmt.Sprintf("retries exhausted: retry_count is %s (max %d)", show(it["retry_count"]), o.RetryMax)
		}
		clauses = append(clauses, under)
	}
	if seen["timestamp"] != nil {
		// status#timestamp is rebuilt from it, so it must be the one seen.
		clauses = append(clauses, b.pin(seen, "timestamp"))
	}

	at := now.UTC().Format(eventTime)
	sets := []setOp{
		{"status", b.value("retrying", sv("retrying"))},
		{"status#timestamp", b.value("status_timestamp", sv("retrying#"+ts))},
		{"retry_count", fmt.Sprintf("if_not_exists(%s, %s) + %s", b.name("retry_count"), b.value("zero", nv(0)), b.value("one", nv(1)))},
		{"last_retry_at", b.value("now", sv(at))},
	}

	// The same reading check used: absent counts as 0.
	var next int64 = 1
	if n, problem := wholeNumber(seen, "retry_count"); problem == "" {
		next = n + 1
	}
	changes := []Change{
		{"status", show(seen["status"]), "retrying"},
		{"status#timestamp", show(seen["status#timestamp"]), "retrying#" + ts},
		{"retry_count", show(seen["retry_count"]), strconv.FormatInt(next, 10)},
		{"last_retry_at", show(seen["last_retry_at"]), at},
	}
	return clauses, sets, changes, nil
}

// describeEvent: "already being retried: status is retrying since 12:04:11
// (retry_count 2)" or "status is delivered".
func describeEvent(it data.Item, now time.Time) string {
	status, _ := str(it, "status")
	var b strings.Builder
	if status == "retrying" {
		b.WriteString("already being retried: ")
	}
	fmt.Fprintf(&b, "status is %s", show(it["status"]))
	if status == "retrying" {
		b.WriteString(since(it, "last_retry_at", now))
	}
	if v := it["retry_count"]; v != nil {
		fmt.Fprintf(&b, " (retry_count %s)", show(v))
	}
	return b.String()
}
