package stream

import (
	"sync"
	"time"

	"opsdeck/data"
)

// gapHold is how long a "gap" notice stays up before a healthy poll may
// replace it with "live": long enough for the status bar to show it.
const gapHold = 5 * time.Second

// healthTracker folds the state of one table's shard readers (and its
// manager, under the name "") into one State and reports changes only, so
// the sink sees "reconnecting" once per outage, not once per failed call.
type healthTracker struct {
	mu      sync.Mutex
	table   data.TableID
	sink    Sink
	clock   func() time.Time
	state   State
	gapAt   time.Time
	failing map[string]string // reader name → what went wrong
	// pending readers have not yet completed their first poll; "live" waits
	// for them, so a caller that sees "live" knows every shard is being read
	// and a write made now will be delivered.
	pending map[string]bool
	final   bool // the table cannot be read at all (unknown id)
	// down: the table's reader stopped ("off" or "polling") and checks
	// again later; reports of its cancelled shard readers are ignored
	// until it resumes.
	down   bool
	detail string
}

func newHealthTracker(table data.TableID, sink Sink, clock func() time.Time) *healthTracker {
	return &healthTracker{table: table, sink: sink, clock: clock, failing: map[string]string{}, pending: map[string]bool{}}
}

func (h *healthTracker) emitLocked(s State, detail string) {
	h.state, h.detail = s, detail
	h.sink.Health(Health{Table: h.table, State: s, Detail: detail, At: h.clock()})
}

// failed records that reader name's last call failed.
func (h *healthTracker) failed(name, detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final || h.down {
		return
	}
	h.failing[name] = detail
	if h.state != StateReconnecting {
		h.emitLocked(StateReconnecting, detail)
	}
}

// ok records that reader name's last call succeeded.
func (h *healthTracker) ok(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final || h.down {
		return
	}
	delete(h.failing, name)
	delete(h.pending, name)
	if len(h.failing) > 0 || len(h.pending) > 0 || h.state == StateLive {
		return
	}
	if h.state == StateGap && h.clock().Sub(h.gapAt) < gapHold {
		return
	}
	h.emitLocked(StateLive, "")
}

// starting registers a reader that has not polled yet.
func (h *healthTracker) starting(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pending[name] = true
}

// forget drops a reader that has finished (its shard closed or vanished).
func (h *healthTracker) forget(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.failing, name)
	delete(h.pending, name)
}

func (h *healthTracker) gap(detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final || h.down {
		return
	}
	h.gapAt = h.clock()
	h.emitLocked(StateGap, detail)
}

// stopped reports "off" or "polling": the table's reader stopped and will
// check again. A repeat of the same report (each failed re-check) is not
// sent again. Until resume, shard readers' reports are ignored: they are
// being cancelled.
func (h *healthTracker) stopped(s State, detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final {
		return
	}
	clear(h.failing)
	clear(h.pending)
	if h.down && h.state == s && h.detail == detail {
		return
	}
	h.down = true
	h.emitLocked(s, detail)
}

// resume starts a new attempt to read the table: "live" is reported once
// the manager (name "") and every shard reader it starts have polled.
func (h *healthTracker) resume() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.down = false
	h.pending[""] = true
}

// terminal reports "off" for good; later reports are ignored.
func (h *healthTracker) terminal(s State, detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final {
		return
	}
	h.final = true
	h.emitLocked(s, detail)
}
