package stream

import (
	"context"
	"slices"
	"sync"

	"opsdeck/data"
)

// Tailer reads the streams of a set of tables and hands every change to a
// Sink exactly once.
type Tailer struct {
	conn   *data.Conn
	tables data.Tables
	opts   Options
	budget *budget

	mu      sync.Mutex
	full    map[data.TableID]bool // nil: every table at full rate
	readers map[data.TableID]*tableReader

	// followMu guards followed, the tables added at run time (Follow),
	// and run, set while Run runs (follow.go). It is never taken under mu.
	followMu sync.Mutex
	followed []followedTable
	run      *running
}

// New prepares a Tailer; nothing is called until Run.
func New(conn *data.Conn, tables data.Tables, opts Options) *Tailer {
	endpoint := ""
	if conn != nil {
		endpoint = conn.StreamsEndpoint
		if endpoint == "" {
			endpoint = conn.Endpoint
		}
	}
	opts = opts.withEndpoint(endpoint)
	return &Tailer{conn: conn, tables: tables, opts: opts,
		budget: newBudget(opts.MaxCallsPerSecond, nil), readers: map[data.TableID]*tableReader{}}
}

// Options are the options the Tailer runs with: defaults filled in, the
// etiquette resolved from the endpoint, and the poll interval raised to
// what the etiquette allows.
func (t *Tailer) Options() Options { return t.opts }

// SetDemand says which tables something on screen needs live: they are read
// at full rate, every other table at Options.Background (slowly, or not at
// all). Until it is first called every table is read at full rate. It
// never blocks and may be called at any time from any goroutine; a table
// that becomes wanted is polled again within its normal interval, not after
// the slow one.
func (t *Tailer) SetDemand(full []data.TableID) {
	set := make(map[data.TableID]bool, len(full))
	for _, id := range full {
		set[id] = true
	}
	t.mu.Lock()
	t.full = set
	readers := make([]*tableReader, 0, len(t.readers))
	for _, r := range t.readers {
		readers = append(readers, r)
	}
	t.mu.Unlock()
	for _, r := range readers {
		r.setRate(t.rateOf(r.id))
	}
}

// Demand is the rate each tailed table is read at now.
func (t *Tailer) Demand() map[data.TableID]Rate {
	out := map[data.TableID]Rate{}
	for _, id := range t.tableIDs() {
		out[id] = t.rateOf(id)
	}
	return out
}

// FullRate lists the tables read at full rate now, in the order of
// Options.Tables.
func (t *Tailer) FullRate() []data.TableID {
	var out []data.TableID
	for _, id := range t.tableIDs() {
		if t.rateOf(id) == RateFull && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func (t *Tailer) rateOf(id data.TableID) Rate {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.full == nil || t.full[id] {
		return RateFull
	}
	return t.opts.Background
}

// Run reads every selected table's stream until ctx is done, then waits for
// its goroutines and returns nil. Failures never end Run: they are reported
// through sink.Health and retried; a table whose stream is gone is checked
// again until it has one.
func (t *Tailer) Run(ctx context.Context, sink Sink) error {
	run := &running{ctx: ctx, sink: sink, cancels: map[data.TableID]context.CancelFunc{}}
	seen := map[data.TableID]bool{}
	for _, id := range t.opts.Tables {
		if seen[id] {
			continue
		}
		seen[id] = true
		if _, ok := data.Schema(id); !ok {
			newHealthTracker(id, sink, t.opts.Clock).terminal(StateOff, "unknown table id "+string(id))
			continue
		}
		t.start(run, id, t.tables.Name(id))
	}
	// Tables followed before Run start now; later ones start in Follow.
	t.followMu.Lock()
	t.run = run
	for _, f := range t.followed {
		if !seen[f.id] {
			t.start(run, f.id, f.name)
		}
	}
	t.followMu.Unlock()
	<-ctx.Done()
	t.followMu.Lock()
	t.run = nil // no reader starts after this: Wait below sees them all
	t.followMu.Unlock()
	run.wg.Wait()
	return nil
}
