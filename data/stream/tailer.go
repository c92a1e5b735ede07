package stream

import (
	"context"
	"sync"

	"opsdeck/data"
)

// Tailer reads the streams of a set of tables and hands every change to a
// Sink exactly once.
type Tailer struct {
	conn   *data.Conn
	tables data.Tables
	opts   Options
}

// New prepares a Tailer; nothing is called until Run.
func New(conn *data.Conn, tables data.Tables, opts Options) *Tailer {
	return &Tailer{conn: conn, tables: tables, opts: opts.withDefaults()}
}

// Run reads every selected table's stream until ctx is done, then waits for
// its goroutines and returns nil. Failures never end Run: they are reported
// through sink.Health and retried, or (stream disabled, table gone) end that
// one table's reader with Health "off".
func (t *Tailer) Run(ctx context.Context, sink Sink) error {
	var wg sync.WaitGroup
	seen := map[data.TableID]bool{}
	for _, id := range t.opts.Tables {
		if seen[id] {
			continue
		}
		seen[id] = true
		h := newHealthTracker(id, sink, t.opts.Clock)
		if _, ok := data.Schema(id); !ok {
			h.terminal(StateOff, "unknown table id "+string(id))
			continue
		}
		r := newTableReader(t, id, t.tables.Name(id), sink, h)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.run(ctx)
		}()
	}
	<-ctx.Done()
	wg.Wait()
	return nil
}
