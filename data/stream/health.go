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
// A reader failing outright wins over one throttled, which wins over live.
type healthTracker struct {
	mu        sync.Mutex
	table     data.TableID
	sink      Sink
	clock     func() time.Time
	state     State
	detail    string
	gapAt     time.Time
	failing   map[string]string // reader name → what went wrong
	throttled map[string]string // reader name → what refused it
	// pending readers have not yet taken their position; "live" waits for
	// them, so a caller that sees "live" knows every shard is being read
	// and a write made now will be delivered.
	pending map[string]bool
	final   bool // the table cannot be read at all (unknown id)
	// down: the table's reader stopped ("off" or "polling") and checks
	// again later; reports of its cancelled shard readers are ignored
	// until it resumes.
	down bool
	// paused: not read while nothing needs it; shard reports are ignored
	// until it is wanted again.
	paused bool
}

func newHealthTracker(table data.TableID, sink Sink, clock func() time.Time) *healthTracker {
	return &healthTracker{table: table, sink: sink, clock: clock,
		failing: map[string]string{}, throttled: map[string]string{}, pending: map[string]bool{}}
}

func (h *healthTracker) emitLocked(s State, detail string) {
	h.emitGapLocked(Health{State: s, Detail: detail})
}

func (h *healthTracker) emitGapLocked(hl Health) {
	h.state, h.detail = hl.State, hl.Detail
	hl.Table, hl.At = h.table, h.clock()
	h.sink.Health(hl)
}

func (h *healthTracker) quietLocked() bool { return h.final || h.down || h.paused }

// failed records that reader name's last call failed.
func (h *healthTracker) failed(name, detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.quietLocked() {
		return
	}
	h.failing[name] = detail
	if h.state != StateReconnecting {
		h.emitLocked(StateReconnecting, detail)
	}
}

// throttledBy records that reader name's last call was refused for going
// over the shard's (or account's) read limit.
func (h *healthTracker) throttledBy(name, detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.quietLocked() {
		return
	}
	delete(h.failing, name)
	h.throttled[name] = detail
	if len(h.failing) == 0 && h.state != StateThrottled {
		h.emitLocked(StateThrottled, detail)
	}
}

// ok records that reader name's last call succeeded.
func (h *healthTracker) ok(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.paused && !h.final && !h.down {
		// Nothing is reported while paused, but a reader that took its
		// position has: "live" must not wait for it once wanted again.
		delete(h.pending, name)
		return
	}
	if h.quietLocked() {
		return
	}
	delete(h.failing, name)
	delete(h.throttled, name)
	delete(h.pending, name)
	h.settleLocked()
}

// settleLocked reports what the readers' states add up to, once nothing
// worse is going on.
func (h *healthTracker) settleLocked() {
	switch {
	case len(h.failing) > 0:
		return
	case len(h.throttled) > 0:
		if h.state != StateThrottled {
			for _, d := range h.throttled {
				h.emitLocked(StateThrottled, d)
				break
			}
		}
		return
	case len(h.pending) > 0, h.state == StateLive:
		return
	case h.state == StateGap && h.clock().Sub(h.gapAt) < gapHold:
		return
	}
	h.emitLocked(StateLive, "")
}

// starting registers a reader that has not taken its position yet.
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
	delete(h.throttled, name)
	delete(h.pending, name)
	if !h.quietLocked() && (h.state == StateThrottled || h.state == StateReconnecting) {
		h.settleLocked()
	}
}

// gap reports that the changes from..to may be missing.
func (h *healthTracker) gap(detail string, from, to time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.quietLocked() {
		return
	}
	h.gapAt = h.clock()
	h.emitGapLocked(Health{State: StateGap, Detail: detail, GapFrom: from, GapTo: to})
}

// replaced reports that the table's stream was replaced by another: a gap
// from..to with Health.Replaced set. Sent even while the table was down
// ("off" and back): whoever shows the table must read it again.
func (h *healthTracker) replaced(detail string, from, to time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final {
		return
	}
	h.gapAt = h.clock()
	h.emitGapLocked(Health{State: StateGap, Detail: detail, GapFrom: from, GapTo: to, Replaced: true})
}

// pause reports that the table is not read for now (nothing needs it).
func (h *healthTracker) pause(detail string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final || h.down || h.paused {
		return
	}
	h.paused = true
	clear(h.failing)
	clear(h.throttled)
	h.emitLocked(StatePaused, detail)
}

// unpause: the table is wanted again; the next good poll reports "live".
func (h *healthTracker) unpause() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.paused = false
}

// stopped reports "off" or "polling": the table's reader stopped and will
// check again. A repeat of the same report (each failed re-check) is not
// sent again. Until resume, shard readers' reports are ignored: they are
// being cancelled.
func (h *healthTracker) stopped(s State, detail string) {
	h.stop(Health{State: s, Detail: detail})
}

// stop is stopped with the whole report (NotAllowed).
func (h *healthTracker) stop(hl Health) {
	s, detail := hl.State, hl.Detail
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.final {
		return
	}
	clear(h.failing)
	clear(h.throttled)
	clear(h.pending)
	h.paused = false
	if h.down && h.state == s && h.detail == detail {
		return
	}
	h.down = true
	h.emitGapLocked(hl)
}

// resume starts a new attempt to read the table: "live" is reported once
// the manager (name "") and every shard reader it starts have taken their
// position.
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
