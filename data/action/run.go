package action

import (
	"fmt"
	"strings"
	"time"

	"opsdeck/data"
)

// Runs · Mark failed. A run whose Lambda died stays PROCESSING forever and
// blocks the user's dashboard; the operator may close it, but only once it
// has been silent for longer than the threshold, and only if it is still the
// same silence they saw (updatedAt pinned).

// runTime is AppLens's timestamp shape.
const runTime = time.RFC3339

var markRunSpec = kindSpec{
	target: func(seen data.Item) string {
		if id, ok := str(seen, "runId"); ok && id != "" {
			return id
		}
		s, _ := str(seen, "SK")
		return s
	},
	check: checkMarkRun,
	build: buildMarkRun,
}

func checkMarkRun(seen data.Item, now time.Time, o Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return notApplicable(MarkRunFailed, "this run has no readable status (%s)", show(seen["status"]))
	}
	if status != "PROCESSING" {
		return notApplicable(MarkRunFailed, "only runs stuck in PROCESSING can be marked failed; this one is %s", clip(status))
	}
	if err := requireScalar(seen, "updatedAt"); err != nil {
		return notApplicable(MarkRunFailed, "%v", err)
	}
	raw, _ := str(seen, "updatedAt")
	updated, _, err := data.ParseTime(raw)
	if err != nil {
		return notApplicable(MarkRunFailed, "updatedAt is %s, not an ISO 8601 time, so opsdeck cannot tell how long the run has been stuck", show(seen["updatedAt"]))
	}
	age := now.Sub(updated)
	if age < 0 {
		// Offsets are honoured, so this is a clock (or zone) error on one
		// side; never "updated -2h59m ago".
		return notApplicable(MarkRunFailed, "updatedAt %s is %s in the future by this machine's clock, so opsdeck cannot tell how long the run has been silent",
			show(seen["updatedAt"]), (-age).Round(time.Second))
	}
	if age < o.StaleRun {
		return notApplicable(MarkRunFailed, "the run was updated %s ago; only runs silent in PROCESSING for more than %s count as stuck",
			age.Round(time.Second), o.StaleRun)
	}
	// The condition compares strings; that is time order only for UTC
	// timestamps written with "Z". Say so rather than send a write that
	// can never succeed.
	if raw >= now.Add(-o.StaleRun).UTC().Format(runTime) {
		return notApplicable(MarkRunFailed, "updatedAt %s is not a UTC (\"Z\") timestamp, so DynamoDB cannot compare it with the staleness cutoff", show(seen["updatedAt"]))
	}
	return nil
}

func buildMarkRun(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error) {
	processing := b.eq("status", "processing", sv("PROCESSING"), "status is still PROCESSING", FailWrongState)
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
	staleBefore := now.Add(-o.StaleRun).UTC().Format(runTime)
	stale := b.cmp("updatedAt", "<", "stale_before", sv(staleBefore),
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
		raw, _ := str(seen, "updatedAt")
		reason = fmt.Sprintf("marked failed by %s via opsdeck: stuck in PROCESSING since %s", o.Operator.User, raw)
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
