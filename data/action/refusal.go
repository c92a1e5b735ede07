package action

import "opsdeck/data"

// Refusal is why DynamoDB refused a guarded write, or would refuse it now:
// the first clause of the guard that does not hold on the item as it is.
// It is data, for the UI to word and colour; Error is the one line the
// status bar and the audit log show ("not released: already released: …").
type Refusal struct {
	Kind    Kind
	Failure Failure // gone, already-done, changed-since-seen, …
	// Clause is the plain-words text of the clause that failed ("status is
	// still RUNNING"); the audit line's result is "guard failed: <Clause>".
	// "" when every clause holds on the item returned: it changed twice.
	Clause string
	// Reason says what the item holds now, in the action's words
	// ("already released: status is COMPLETED since 12:04:11").
	Reason string
	// Current is the item as it is now; nil when it no longer exists.
	Current data.Item

	done string // the action's Done word
}

// Error is "not <done>: <reason>".
func (r *Refusal) Error() string { return "not " + r.done + ": " + r.Reason }

// refusal re-evaluates the guard against the item as it is now (ALL_OLD of
// a refused write, or a newer image seen live) to name the clause that
// fails and say what the item holds. Clauses are in evaluation order
// (existence, the business guard, the values seen), so the first failing
// one is the most telling.
func refusal(spec Spec, clauses []Clause, current data.Item) *Refusal {
	r := &Refusal{Kind: spec.Kind, Current: current, done: spec.Done}
	if len(current) == 0 {
		r.Clause, r.Failure, r.Reason = "the item still exists", FailGone, "the item no longer exists"
		if len(clauses) > 0 {
			r.Clause = clauses[0].Text
		}
		return r
	}
	if c, ok := firstFailing(clauses, current); ok {
		r.Clause, r.Failure, r.Reason = c.Text, c.FailureOn(current), c.Explain(current)
		return r
	}
	// Every clause holds on the returned item, so it changed twice: once
	// to fail the check and back again before we read it. Rare, but say so.
	r.Failure, r.Reason = FailChangedSinceSeen, "the item changed while the write was checked; refresh and try again"
	return r
}
