package action

import "context"

// BulkSummary is the outcome of ExecuteBulk, every plan in exactly one list.
type BulkSummary struct {
	Total       int
	Succeeded   []Result
	GuardFailed []Result
	// Unknown: the request may have been applied and the item could not
	// be read back to tell (Result.Unknown).
	Unknown []Result
	Errors  []Result // includes plans not attempted because ctx ended
}

// ExecuteBulk runs the plans one after another, each with its own guard: a
// guard failure on one row never stops the others. Sequential on purpose:
// an operator's bulk action should not add a burst of writes to a table that
// is probably already in trouble. progress (may be nil) is called after
// each plan with the number done so far. Cancelling ctx stops before the
// next plan; the rest are listed under Errors with the context's error.
func (e *Executor) ExecuteBulk(ctx context.Context, plans []Plan, progress func(done, total int)) BulkSummary {
	s := BulkSummary{Total: len(plans)}
	for i, p := range plans {
		var r Result
		if err := ctx.Err(); err != nil {
			r = Result{Plan: p, Err: err, At: e.now(), Message: "not " + p.Kind.done() + ": cancelled"}
		} else {
			r = e.Execute(ctx, p)
		}
		switch {
		case r.OK:
			s.Succeeded = append(s.Succeeded, r)
		case r.GuardFailed:
			s.GuardFailed = append(s.GuardFailed, r)
		case r.Unknown:
			s.Unknown = append(s.Unknown, r)
		default:
			s.Errors = append(s.Errors, r)
		}
		if progress != nil {
			progress(i+1, len(plans))
		}
	}
	return s
}
