package action

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Sandboxes · Mark for deletion, with the broker's own guard: only the
// owning track, only while allocated, only within the window. The window
// is the broker's four hours ("allocated_at > :max_expiry", ":max_expiry =
// now - 4 hours"), shortened to the item's lab_duration_hours when that is
// less (data.Sandbox.AllocationWindow); the duration seen is pinned, so a
// lab changed since no longer matches the cutoff computed from it.

func sandboxID(seen data.Item) string {
	if id, ok := str(seen, "sandbox_id"); ok && id != "" {
		return id
	}
	pk, _ := str(seen, "PK")
	return strings.TrimPrefix(pk, "SBX#")
}

// labReading is the one reading of an allocation's window that both the
// check shown to the operator and the condition sent to DynamoDB are built
// from: allocated_at in unix seconds and lab_duration_hours, as stored.
type labReading struct {
	allocatedAt int64   // unix seconds, as stored
	hours       float64 // lab_duration_hours, as stored
	// window is the allocation's window in whole seconds: the lab
	// duration, at most the broker's 4-hour mark window.
	window int64
	capped bool // the broker's 4 hours, shorter than the lab duration
}

// Plausible unix seconds for an allocation: after 2000-01-01 and before the
// year 5138, past which a number is more likely milliseconds.
const (
	minUnixSeconds = 946684800
	maxUnixSeconds = 1e11 - 1
	// maxLabHours bounds lab_duration_hours: a year, as the list's
	// deadline does.
	maxLabHours = data.MaxLabHours
	// clockSkew is how far in the future an allocation may lie before its
	// time is in doubt (another machine's clock).
	clockSkew = 5 * time.Minute
)

// readLab reads allocated_at and lab_duration_hours. A value whose unit or
// type is in doubt is refused with the reason, naming only the attribute
// that is wrong: the broker writes whole unix seconds and a positive number
// of hours, and anything else could make the window mean something else.
func readLab(it data.Item, now time.Time) (labReading, string) {
	at, problem := wholeNumber(it, "allocated_at")
	switch {
	case problem != "":
		return labReading{}, problem + ", so the lab window cannot be checked"
	case at <= 0:
		return labReading{}, fmt.Sprintf("allocated_at is %d: the sandbox carries no allocation time, so the lab window cannot be checked", at)
	case at > maxUnixSeconds:
		return labReading{}, fmt.Sprintf("allocated_at is %d, which looks like milliseconds, not the unix seconds the broker writes; opsdeck will not guess the unit", at)
	case at < minUnixSeconds:
		return labReading{}, fmt.Sprintf("allocated_at is %d, before the year 2000 as unix seconds; opsdeck will not guess the unit", at)
	case !now.IsZero() && time.Unix(at, 0).After(now.Add(clockSkew)):
		return labReading{}, fmt.Sprintf("allocated_at %d (%s) is in the future; a clock or the unit is wrong, so the lab window cannot be checked",
			at, showTime(time.Unix(at, 0), now))
	}
	hv := it["lab_duration_hours"]
	n, isN := hv.(*types.AttributeValueMemberN)
	if hv == nil {
		return labReading{}, "lab_duration_hours is absent, so the lab window cannot be checked"
	}
	if !isN {
		return labReading{}, "lab_duration_hours is " + typed(hv) + ", not a number of hours"
	}
	hf, ok := data.ParseNumber(n.Value)
	if !ok {
		return labReading{}, "lab_duration_hours is " + show(hv) + ", not a number of hours"
	}
	h, _ := hf.Float64()
	if h <= 0 || h > maxLabHours {
		return labReading{}, fmt.Sprintf("lab_duration_hours is %s; a lab lasts more than 0 and at most %d hours", show(hv), maxLabHours)
	}
	r := labReading{allocatedAt: at, hours: h, window: int64(math.Round(h * 3600))}
	if broker := int64(data.BrokerMarkWindow / time.Second); r.window > broker {
		r.window, r.capped = broker, true
	}
	return r, ""
}

// windowText names the window and where it comes from, for guards and
// messages: "4h lab duration", or "4h broker window; lab_duration_hours 8".
func (r labReading) windowText() string {
	if r.capped {
		return fmt.Sprintf("%gh broker window; lab_duration_hours %g", data.BrokerMarkWindow.Hours(), r.hours)
	}
	return fmt.Sprintf("%gh lab duration", r.hours)
}

func (r labReading) allocated() time.Time { return time.Unix(r.allocatedAt, 0) }
func (r labReading) expires() time.Time   { return time.Unix(r.allocatedAt+r.window, 0) }

// cutoff is the condition's :max_expiry at now: allocations after it are
// within their window.
func (r labReading) cutoff(now time.Time) int64 { return now.Unix() - r.window }

// within is the condition itself, evaluated in Go: allocated_at > cutoff.
func (r labReading) within(now time.Time) bool { return r.allocatedAt > r.cutoff(now) }

// expired is the auto-expiry job's selection, evaluated in Go:
// allocated_at < cutoff. At the cutoff itself neither holds, for one
// second: both conditions are the documents' own.
func (r labReading) expired(now time.Time) bool { return r.allocatedAt < r.cutoff(now) }

func checkMarkSandbox(seen data.Item, now time.Time, _ Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return fmt.Errorf("this sandbox has no readable status (%s)", show(seen["status"]))
	}
	if status != "allocated" {
		return fmt.Errorf("only allocated sandboxes can be marked for deletion; this one is %s", clip(status))
	}
	if err := requireScalar(seen, "status", "allocated_to_track", "allocated_at", "lab_duration_hours"); err != nil {
		return err
	}
	lab, problem := readLab(seen, now)
	if problem != "" {
		return errors.New(problem)
	}
	if !lab.within(now) {
		return fmt.Errorf("allocation expired at %s (allocated %s, %s); past it the broker refuses a mark, so D expires the allocation instead",
			showTime(lab.expires(), now), showTime(lab.allocated(), now), lab.windowText())
	}
	return nil
}

func buildMarkSandbox(b *exprBuilder, seen data.Item, now time.Time, _ Options) ([]Clause, []setOp, []Change, error) {
	// The write is checked and sent from the same reading. The future-time
	// check belongs to PlanFor's moment (a plan already accepted is not
	// refused later for it), so it is not repeated here.
	lab, problem := readLab(seen, time.Time{})
	if problem != "" {
		return nil, nil, nil, errors.New(problem)
	}

	allocated, owner := allocationGuards(b, seen, now)

	fresh := b.cmp("allocated_at", ">", "max_expiry", nv(lab.cutoff(now)),
		fmt.Sprintf("the allocation is younger than its window (%s)", lab.windowText()), FailExpired)
	fresh.explain = func(it data.Item) string {
		if r, problem := readLab(it, time.Time{}); problem == "" {
			return fmt.Sprintf("allocation expired: allocated %s with a %s, expired at %s", showTime(r.allocated(), now), r.windowText(), showTime(r.expires(), now))
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

func checkExpireSandbox(seen data.Item, now time.Time, _ Options) error {
	status, ok := str(seen, "status")
	if !ok {
		return fmt.Errorf("this sandbox has no readable status (%s)", show(seen["status"]))
	}
	if status != "allocated" {
		return fmt.Errorf("only allocated sandboxes can have their allocation expired; this one is %s", clip(status))
	}
	if err := requireScalar(seen, "status", "allocated_to_track", "allocated_at", "lab_duration_hours"); err != nil {
		return err
	}
	lab, problem := readLab(seen, now)
	if problem != "" {
		return errors.New(problem)
	}
	if !lab.expired(now) {
		return fmt.Errorf("the allocation is within its window until %s (allocated %s, %s)",
			showTime(lab.expires(), now), showTime(lab.allocated(), now), lab.windowText())
	}
	return nil
}

// allocationGuards are the two clauses both sandbox transitions start
// with: the sandbox is still allocated (pending_deletion already means done)
// and still to the track the operator saw.
func allocationGuards(b *exprBuilder, seen data.Item, now time.Time) (allocated, owner Clause) {
	allocated = b.eq("status", "allocated", sv("allocated"), "status is still allocated", FailWrongState)
	allocated.explain = func(it data.Item) string { return describeSandbox(it, now, "allocated") }
	allocated.classify = alreadyDoneWhenStatus("pending_deletion")

	owner = b.pin(seen, "allocated_to_track")
	owner.Text = "still allocated to " + show(seen["allocated_to_track"]) + ", as seen"
	owner.Why = FailDifferentOwner
	owner.explain = func(it data.Item) string {
		return "different owner: now allocated to " + show(it["allocated_to_track"]) + since(it, "allocated_at", now)
	}
	return allocated, owner
}

// Sandboxes · Expire allocation does what the broker's auto-expiry job
// does, for when that job is down: an allocation past its window (the
// same window as the mark's, so every allocation is offered exactly one of
// the two, bar the cutoff second) goes to pending_deletion, for the
// cleanup job. The job's own selection is the
// condition: status = allocated AND allocated_at < cutoff; the owner and
// the window are pinned as seen, so a re-allocation or an extended lab in
// between makes the write fail.
func buildExpireSandbox(b *exprBuilder, seen data.Item, now time.Time, _ Options) ([]Clause, []setOp, []Change, error) {
	lab, problem := readLab(seen, time.Time{})
	if problem != "" {
		return nil, nil, nil, errors.New(problem)
	}
	allocated, owner := allocationGuards(b, seen, now)

	expired := b.cmp("allocated_at", "<", "expired_before", nv(lab.cutoff(now)),
		fmt.Sprintf("the allocation is older than its window (%s)", lab.windowText()), FailNotExpired)
	expired.explain = func(it data.Item) string {
		if r, problem := readLab(it, time.Time{}); problem == "" {
			return fmt.Sprintf("not expired: allocated %s with a %s, expires at %s", showTime(r.allocated(), now), r.windowText(), showTime(r.expires(), now))
		}
		return "not expired: allocated_at is " + show(it["allocated_at"])
	}

	clauses := []Clause{
		b.exists("PK", "the sandbox still exists", FailGone),
		allocated,
		owner,
		expired,
		b.pin(seen, "allocated_at"),
		b.pin(seen, "lab_duration_hours"),
	}
	sets, changes := requestDeletion(b, seen, now)
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
