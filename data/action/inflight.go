package action

import (
	"errors"
	"fmt"
	"sync"
)

// Flights are the writes executors sharing it have started and not yet
// settled (the write, its audit line, the step after it and the step's
// line). A console that quits waits for them, or gives them up knowingly:
// Abandon writes, for each one still in flight, the audit line of a write
// whose outcome nobody will learn, with its attempt token, so whoever reads
// the log can find the item it may have changed. The zero value is ready.
type Flights struct {
	mu     sync.Mutex
	seq    uint64
	live   map[uint64]*flight
	closed bool // abandoned: nothing more is sent
}

type flight struct {
	exec *Executor
	res  Result // the plan, the attempt and the request as sent
	// wrote: the write's own line is written; what remains is the step
	// after it.
	wrote bool
}

// Abandoned is the text of an abandoned write's outcome.
const Abandoned = "outcome unknown, abandoned at quit"

// errQuitting refuses a write asked for after Abandon: the console is
// going, and a write started now would have no one to report it.
var errQuitting = errors.New("the console is quitting: not sent")

// Len is the number of writes in flight.
func (f *Flights) Len() int {
	if f == nil {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.live)
}

// start registers a write about to be sent; done (never nil) removes it,
// and wrote marks its own audit line as written. After Abandon it refuses.
func (f *Flights) start(e *Executor, r Result) (wrote, done func(), err error) {
	nop := func() {}
	if f == nil {
		return nop, nop, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nop, nop, errQuitting
	}
	if f.live == nil {
		f.live = map[uint64]*flight{}
	}
	f.seq++
	id := f.seq
	fl := &flight{exec: e, res: r}
	f.live[id] = fl
	wrote = func() {
		f.mu.Lock()
		fl.wrote = true
		f.mu.Unlock()
	}
	done = func() {
		f.mu.Lock()
		delete(f.live, id)
		f.mu.Unlock()
	}
	return wrote, done, nil
}

// Abandon gives up every write in flight: each gets an audit line saying
// its outcome is unknown (result "unknown: outcome unknown, abandoned at
// quit", the attempt token in its values), or, when the write's own line
// is written and its step runs, a step line saying the step was abandoned.
// Nothing is sent after it. It returns the lines' messages, and the first
// error writing them.
func (f *Flights) Abandon() ([]string, error) {
	if f == nil {
		return nil, nil
	}
	f.mu.Lock()
	f.closed = true
	live := make([]*flight, 0, len(f.live))
	for _, fl := range f.live {
		live = append(live, fl)
	}
	f.live = nil
	f.mu.Unlock()

	var msgs []string
	var first error
	for _, fl := range live {
		r := fl.res
		spec := r.Plan.Spec()
		var err error
		switch {
		case fl.wrote && spec.Then == nil:
			// Its line is written and nothing follows: it is settled.
			continue
		case fl.wrote:
			// The write happened and is on record; its step was cut short.
			r.OK = true
			r.Then = &StepResult{Step: spec.Then.Name, Err: errors.New(Abandoned),
				Message: fmt.Sprintf("%s: %s; check it by hand", spec.Then.Title, Abandoned)}
			msgs = append(msgs, r.Then.Message)
			err = fl.exec.auditStep(r)
		default:
			r.Unknown = true
			r.Message = fmt.Sprintf("%s %s: %s (attempt %s); check the row", spec.Title, clip(r.Plan.Target), Abandoned, r.Attempt)
			msgs = append(msgs, r.Message)
			err = fl.exec.audit(r)
		}
		if first == nil {
			first = err
		}
	}
	return msgs, first
}
