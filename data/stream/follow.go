package stream

import (
	"context"
	"slices"
	"sync"

	"opsdeck/data"
)

// Following a table at run time: a table the operator opens with :table
// (a table no pane models, found with :tables) is tailed like a
// configured one — the same budget, the same demand rules — from the
// moment it is followed until it is unfollowed or Run ends.

type followedTable struct {
	id   data.TableID
	name string // physical
}

// running is what one Run shares with Follow and Unfollow.
type running struct {
	ctx     context.Context
	sink    Sink
	wg      sync.WaitGroup
	cancels map[data.TableID]context.CancelFunc
}

// start runs one table's reader under run. The caller holds followMu, or
// is Run before it publishes run.
func (t *Tailer) start(run *running, id data.TableID, name string) {
	r := newTableReader(t, id, name, run.sink, newHealthTracker(id, run.sink, t.opts.Clock))
	r.setRate(t.rateOf(id))
	ctx, cancel := context.WithCancel(run.ctx)
	t.mu.Lock()
	t.readers[id] = r
	t.mu.Unlock()
	run.cancels[id] = cancel
	run.wg.Add(1)
	go func() {
		defer run.wg.Done()
		r.run(ctx)
	}()
}

// Follow adds a table to tail, by id and physical name (empty: the name
// the Tailer's Tables give id), from now on: at once when Run runs, else
// when it starts. Its stream is read from its latest position, within
// the console's budget, at the rate SetDemand gives it (a table not in the
// last SetDemand list is read at the background rate). A table already
// tailed is left as it is. Safe from any goroutine; it never blocks on
// the network.
func (t *Tailer) Follow(id data.TableID, physical string) {
	if id == "" {
		return
	}
	if physical == "" {
		if _, ok := data.Schema(id); !ok && !data.IsUnmodeled(id) {
			return // no name to read it by
		}
		physical = t.tables.Name(id)
	}
	t.followMu.Lock()
	defer t.followMu.Unlock()
	if slices.Contains(t.opts.Tables, id) || slices.ContainsFunc(t.followed, func(f followedTable) bool { return f.id == id }) {
		return
	}
	f := followedTable{id: id, name: physical}
	t.followed = append(t.followed, f)
	if t.run != nil {
		t.start(t.run, id, physical)
	}
}

// Unfollow stops tailing a table Follow added (the configured tables stay
// tailed): its reader is cancelled and makes no more calls once its
// current one returns.
func (t *Tailer) Unfollow(id data.TableID) {
	t.followMu.Lock()
	defer t.followMu.Unlock()
	i := slices.IndexFunc(t.followed, func(f followedTable) bool { return f.id == id })
	if i < 0 {
		return
	}
	t.followed = slices.Delete(t.followed, i, i+1)
	if t.run == nil {
		return
	}
	if cancel, ok := t.run.cancels[id]; ok {
		cancel()
		delete(t.run.cancels, id)
	}
	t.mu.Lock()
	delete(t.readers, id)
	t.mu.Unlock()
}

// Following lists the tables Follow added, in order.
func (t *Tailer) Following() []data.TableID {
	t.followMu.Lock()
	defer t.followMu.Unlock()
	out := make([]data.TableID, len(t.followed))
	for i, f := range t.followed {
		out[i] = f.id
	}
	return out
}

// tableIDs is every table tailed: the configured ones, then the followed.
func (t *Tailer) tableIDs() []data.TableID {
	ids := slices.Clone(t.opts.Tables)
	for _, id := range t.Following() {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}
