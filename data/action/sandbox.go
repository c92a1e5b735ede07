package action

import (
	"fmt"
	"math"
	"strings"
	"time"

	"opsdeck/data"
)

// Sandboxes · Mark for deletion, with the broker's own guard: only the
// owning track, only while allocated, only within the lab duration. The
// broker's window is the item's lab_duration_hours, so the cutoff is
// computed from the duration seen and the duration is pinned too: if
// someone extended the lab, the cutoff we computed no longer applies.
//
// Sandboxes · Retry deletion puts a deletion_failed sandbox back in the
// cleanup job's queue; deletion_retry_count is left for the job to count.

var markSandboxSpec = kindSpec{
	target: sandboxID,
	check:  checkMarkSandbox,
	build:  buildMarkSandbox,
}

var retrySandboxSpec = kindSpec{
	target: sandboxID,
	check:  checkRetrySandbox,
	build:  buildRetrySandbox,
}

func sandboxID(seen data.Item) string {
	if id, ok := str(seen, "sandbox_id"); ok && id != "" {
		return id
	}
	pk, _ := str(seen, "PK")
	return strings.TrimPrefix(pk, "SBX#")
}

// labWindow reads allocated_at and lab_duration_hours and returns when the
// allocation expires.
func labWindow(it data.Item) (allocated, expires time.Time, hours float64, ok bool) {
	at, okAt := integer(it, "allocated_at")
	h, okH := num(it, "lab_duration_hours")
	if !okAt || !okH || at <= 0 || h <= 0 || h > 24*366 {
		return time.Time{}, time.Time{}, 0, false
	}
	allocated = time.Unix(at, 0)
	return allocated, allocated.Add(time.Duration(math.Round(h * float64(time.Hour)))), h, true
}

func checkMarkSandbox(seen data.Item, now time.Time, _ Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return notApplicable(MarkSandboxDeletion, "this sandbox has no readable status (%s)", show(seen["status"]))
	}
	if status != "allocated" {
		return notApplicable(MarkSandboxDeletion, "only allocated sandboxes can be marked for deletion; this one is %s", clip(status))
	}
	if err := requireScalar(seen, "status", "allocated_to_track", "allocated_at", "lab_duration_hours"); err != nil {
		return notApplicable(MarkSandboxDeletion, "%v", err)
	}
	allocated, expires, hours, ok := labWindow(seen)
	if !ok {
		return notApplicable(MarkSandboxDeletion, "allocated_at (%s) and lab_duration_hours (%s) must both be positive numbers to check the lab window",
			show(seen["allocated_at"]), show(seen["lab_duration_hours"]))
	}
	if !now.Before(expires) {
		return notApplicable(MarkSandboxDeletion, "allocation expired at %s (allocated %s, lab duration %gh); the broker's expiry job handles it",
			showTime(expires, now), showTime(allocated, now), hours)
	}
	return nil
}

func buildMarkSandbox(b *exprBuilder, seen data.Item, now time.Time, _ Options) ([]Clause, []setOp, []Change, error) {
	hours, _ := num(seen, "lab_duration_hours")
	cutoff := now.Unix() - int64(math.Round(hours*3600))

	allocated := b.eq("status", "allocated", sv("allocated"), "status is still allocated", FailWrongState)
	allocated.explain = func(it data.Item) string { return describeSandbox(it, now, "allocated") }
	allocated.classify = alreadyDoneWhenStatus("pending_deletion")

	owner := b.pin(seen, "allocated_to_track")
	owner.Text = "still allocated to " + show(seen["allocated_to_track"]) + ", as seen"
	owner.Why = FailDifferentOwner
	owner.explain = func(it data.Item) string {
		return "different owner: now allocated to " + show(it["allocated_to_track"]) + since(it, "allocated_at", now)
	}

	fresh := b.cmp("allocated_at", ">", "max_expiry", nv(cutoff),
		fmt.Sprintf("the allocation is younger than its lab duration (%gh)", hours), FailExpired)
	fresh.explain = func(it data.Item) string {
		if at, exp, h, ok := labWindow(it); ok {
			return fmt.Sprintf("allocation expired: allocated %s with a %gh lab duration, expired at %s", showTime(at, now), h, showTime(exp, now))
		}
		return "allocation expired: allocated_at is " + show(it["allocated_at"])
	}

	clauses := []Clause{
		b.exists("PK", "the sandbox still exists", FailGone),
		allocated,
		owner,
		fresh,
		b.pin(seen, "allocated_at"),
		b.pin(seen, "lab_duration_hours"),
	}
	sets, changes := requestDeletion(b, seen, now)
	return clauses, sets, changes, nil
}

// requestDeletion is the write both sandbox actions end in (marking an
// expired allocation, retrying a failed deletion): status pending_deletion,
// stamped now, for the cleanup job to pick up. One place, so the two can
// never drift apart.
func requestDeletion(b *exprBuilder, seen data.Item, now time.Time) ([]setOp, []Change) {
	vNow := b.value("now", nv(now.Unix()))
	sets := []setOp{
		{"status", b.value("pending_deletion", sv("pending_deletion"))},
		{"deletion_requested_at", vNow},
		{"updated_at", vNow},
	}
	stamp := fmt.Sprintf("%d (%s)", now.Unix(), showTime(now, now))
	changes := []Change{
		{"status", show(seen["status"]), "pending_deletion"},
		{"deletion_requested_at", show(seen["deletion_requested_at"]), stamp},
		{"updated_at", show(seen["updated_at"]), stamp},
	}
	return sets, changes
}

func checkRetrySandbox(seen data.Item, _ time.Time, _ Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return notApplicable(RetrySandboxDeletion, "this sandbox has no readable status (%s)", show(seen["status"]))
	}
	if status != "deletion_failed" {
		return notApplicable(RetrySandboxDeletion, "only sandboxes whose deletion failed can be retried; this one is %s", clip(status))
	}
	if err := requireScalar(seen, "deletion_retry_count"); err != nil {
		return notApplicable(RetrySandboxDeletion, "%v", err)
	}
	return nil
}

func buildRetrySandbox(b *exprBuilder, seen data.Item, now time.Time, _ Options) ([]Clause, []setOp, []Change, error) {
	failed := b.eq("status", "deletion_failed", sv("deletion_failed"), "status is still deletion_failed", FailWrongState)
	failed.explain = func(it data.Item) string { return describeSandbox(it, now, "deletion_failed") }
	failed.classify = alreadyDoneWhenStatus("pending_deletion")
	clauses := []Clause{
		b.exists("PK", "the sandbox still exists", FailGone),
		failed,
		// The cleanup job bumps the count on every failed attempt: a new
		// count means a new failure the operator has not seen yet.
		b.pin(seen, "deletion_retry_count"),
	}
	sets, changes := requestDeletion(b, seen, now)
	changes = append(changes, Change{"deletion_retry_count", show(seen["deletion_retry_count"]), show(seen["deletion_retry_count"]) + " (kept)"})
	return clauses, sets, changes, nil
}

// describeSandbox: "not allocated: status is available since 12:04:11" or
// "already marked for deletion at 12:04:11".
func describeSandbox(it data.Item, now time.Time, want string) string {
	status, _ := str(it, "status")
	if status == "pending_deletion" {
		if t, ok := attrTime(it, "deletion_requested_at"); ok {
			return "already marked for deletion at " + showTime(t, now)
		}
		return "already marked for deletion: status is pending_deletion"
	}
	prefix := ""
	if want == "allocated" && status != "allocated" {
		prefix = "not allocated: "
	}
	return prefix + "status is " + show(it["status"]) + since(it, "updated_at", now)
}
