package action

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"opsdeck/data"
)

// Runs · Mark failed. A run whose Lambda died stays PROCESSING forever, and
// one whose analysis never started stays UPLOADED, blocking the user's
// dashboard either way; the operator may close it, but only once it
// has been silent for longer than the threshold, and only if it is still the
// same silence they saw (updatedAt pinned).

// runTime is AppLens's timestamp shape.
const runTime = time.RFC3339

func runID(seen data.Item) string {
	if id, ok := str(seen, "runId"); ok && id != "" {
		return id
	}
	s, _ := str(seen, "SK")
	return s
}

// utcStamp is the only shape of updatedAt whose text order is time order:
// RFC 3339 in UTC with "Z", as AppLens writes it. DynamoDB compares the
// condition's strings byte by byte, so the Go check must read the same text
// the same way, and anything else is refused rather than compared.
var utcStamp = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$`)

// staleBefore is the condition's :stale_before at now. When the stored
// value has a fraction of a second, the cutoff is written with nine digits,
// so that "…:11.5Z" compares with "…:11.000000000Z" by time ("." sorts
// before "Z" and would make a fractional value look older than it is).
func staleBefore(raw string, now time.Time, o Options) string {
	return cutoffText(raw, now.Add(-o.StaleRun))
}

// cutoffText writes cut in the shape that compares with raw by time.
func cutoffText(raw string, cut time.Time) string {
	cut = cut.UTC()
	if strings.Contains(raw, ".") {
		return cut.Format("2006-01-02T15:04:05.000000000Z")
	}
	return cut.Format(runTime)
}

func checkMarkRun(seen data.Item, now time.Time, o Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return fmt.Errorf("this run has no readable status (%s)", show(seen["status"]))
	}
	if status != "PROCESSING" && status != "UPLOADED" {
		return fmt.Errorf("only runs stuck in UPLOADED or PROCESSING can be marked failed; this one is %s", clip(status))
	}
	if err := requireScalar(seen, "updatedAt"); err != nil {
		return err
	}
	v := seen["updatedAt"]
	raw, isS := str(seen, "updatedAt")
	switch {
	case v == nil:
		return errors.New("the run has no updatedAt, so opsdeck cannot tell how long it has been stuck")
	case !isS:
		return fmt.Errorf("updatedAt is %s, not the ISO 8601 string AppLens writes, so opsdeck cannot tell how long the run has been stuck", typed(v))
	}
	updated, _, err := data.ParseTime(raw)
	switch {
	case err != nil:
		return fmt.Errorf("updatedAt is %s, not an ISO 8601 time, so opsdeck cannot tell how long the run has been stuck", show(v))
	case updated.After(now.Add(clockSkew)):
		return fmt.Errorf("updatedAt %s is %s in the future; a clock is wrong, so opsdeck will not judge how long the run has been stuck",
			show(v), updated.Sub(now).Truncate(time.Second))
	case !utcStamp.MatchString(raw):
		// Text order is time order only for UTC "Z" stamps of one shape;
		// a condition on any other would not mean what it says.
		return fmt.Errorf("updatedAt %s is not a UTC timestamp ending in \"Z\" (as AppLens writes), so DynamoDB cannot compare it with the staleness cutoff", show(v))
	}
	// The decision is the condition's own comparison, on the same text.
	if raw >= staleBefore(raw, now, o) {
		age := max(now.Sub(updated), 0).Truncate(time.Second)
		return fmt.Errorf("the run was updated %s ago; only runs silent in %s for more than %s count as stuck", age, status, o.StaleRun)
	}
	return nil
}

func buildMarkRun(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error) {
	status, _ := str(seen, "status")
	processing := b.eq("status", "stuck_status", sv(status), "status is still "+status, FailWrongState)
	processing.explain = func(it data.Item) string {
		prefix := ""
		if s, _ := str(it, "status"); s == "FAILED" {
			prefix = "already failed: "
		}
		return prefix + "status is " + show(it["status"]) + since(it, "updatedAt", now)
	}
	processing.classify = alreadyDoneWhenStatus("FAILED")

	// ISO 8601 strings in UTC compare in time order, which is what lets
	// DynamoDB check staleness itself; the pin on updatedAt keeps it exact.
	raw, _ := str(seen, "updatedAt")
	stale := b.cmp("updatedAt", "<", "stale_before", sv(staleBefore(raw, now, o)),
		fmt.Sprintf("updatedAt is more than %s old", o.StaleRun), FailNotStale)
	stale.explain = func(it data.Item) string {
		return "not stuck: updated at " + show(it["updatedAt"]) + ", less than " + o.StaleRun.String() + " ago"
	}

	clauses := []Clause{
		b.exists("PK", "the run still exists", FailGone),
		processing,
		b.pin(seen, "updatedAt"),
		stale,
	}

	at := now.UTC().Format(runTime)
	reason := o.FailureReason
	if strings.TrimSpace(reason) == "" {
		reason = fmt.Sprintf("marked failed by %s via opsdeck: stuck in %s since %s", o.Operator.User, status, raw)
	}
	sets := []setOp{
		{"status", b.value("failed", sv("FAILED"))},
		{"updatedAt", b.value("now", sv(at))},
		{"failureReason", b.value("reason", sv(reason))},
	}
	changes := []Change{
		{"status", show(seen["status"]), "FAILED"},
		{"updatedAt", show(seen["updatedAt"]), at},
		{"failureReason", show(seen["failureReason"]), clip(reason)},
	}
	return clauses, sets, changes, nil
}
