package action

// BulkSummary is the outcome of an action over marked rows, which the UI
// runs one row after another (each with its own guard): every result in
// exactly one list.
type BulkSummary struct {
	Total       int
	Succeeded   []Result // including writes whose lost response was recognised
	GuardFailed []Result
	// Unknown: the request may have been applied, or may still be
	// (Result.Unknown). Never filed as an error: those rows must be
	// checked, not retried blind.
	Unknown []Result
	Errors  []Result // including rows not attempted because the run was stopped
}

// Add files one result under the list it belongs to.
func (s *BulkSummary) Add(r Result) {
	switch {
	case r.OK:
		s.Succeeded = append(s.Succeeded, r)
	case r.Refusal != nil:
		s.GuardFailed = append(s.GuardFailed, r)
	case r.Unknown:
		s.Unknown = append(s.Unknown, r)
	default:
		s.Errors = append(s.Errors, r)
	}
}

// Done is how many results have been filed.
func (s *BulkSummary) Done() int {
	return len(s.Succeeded) + len(s.GuardFailed) + len(s.Unknown) + len(s.Errors)
}

// All is every result, in the order of the lists.
func (s *BulkSummary) All() []Result {
	out := make([]Result, 0, s.Done())
	return append(append(append(append(out, s.Succeeded...), s.GuardFailed...), s.Unknown...), s.Errors...)
}
