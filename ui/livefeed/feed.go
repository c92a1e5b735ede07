// Package livefeed carries DynamoDB Streams records from the reader's
// goroutines into the bubbletea program.
//
// The reader can deliver thousands of records in a burst; sending each one as
// its own message would make the program redraw thousands of times and starve
// the keyboard. So the Feed buffers what the reader hands it and gives the
// program at most one BatchMsg per tick (30 per second by default): the
// program sees a steady, bounded stream of messages whatever the write rate,
// and the reader never waits on the UI — it only takes a mutex for an append.
//
// The backlog is bounded. If the program falls behind by more than the cap,
// the oldest pending records are dropped and the next batch says how many, so
// a pane can tell the operator and reload instead of silently going stale.
package livefeed

import (
	"context"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data/stream"
)

// DefaultInterval spaces batches so the program redraws at most 30 times a
// second because of the stream.
const DefaultInterval = time.Second / 30

// DefaultMaxBacklog is how many undelivered records the Feed holds before it
// drops the oldest: far more than any burst the demo or a real on-call
// session produces; it exists so a UI that stopped reading cannot grow
// memory without bound.
const DefaultMaxBacklog = 100_000

// DefaultMaxBacklogBytes bounds the same backlog by size: a record of the
// largest item (400 KB, both images) weighs 800 KB, so a count alone would
// allow 80 GB.
const DefaultMaxBacklogBytes = 64 << 20

// maxHealth bounds the pending health notices (they are tiny, but a flapping
// connection must not grow them without bound either).
const maxHealth = 1024

// Options configure a Feed. The zero value is usable.
type Options struct {
	// Interval is the minimum spacing of batches when Ticks is nil.
	Interval time.Duration
	// Ticks, when set, replaces the internal ticker: each value received
	// allows one batch. Tests drive it by hand; nothing else should set it.
	Ticks <-chan time.Time
	// MaxBacklog caps the undelivered records (DefaultMaxBacklog when 0).
	MaxBacklog int
	// MaxBacklogBytes caps their size (DefaultMaxBacklogBytes when 0); the
	// newest record is always kept.
	MaxBacklogBytes int64
}

// BatchMsg is what the program receives: every record and health change
// since the previous batch, in arrival order, and how many records were
// dropped because the backlog overflowed in between.
type BatchMsg struct {
	Records []stream.Record
	Health  []stream.Health
	// Lineage is each table's latest shard turnover report since the
	// previous batch (one per table: the counts are running totals).
	Lineage []stream.Lineage
	Dropped int
}

// Stats is a snapshot of the Feed's counters, for the status bar and tests.
type Stats struct {
	Pending   int // records waiting for the next batch
	Delivered int // records handed to the program so far
	Dropped   int // records dropped because of overflow, ever
	Batches   int // batches handed to the program
}

// Feed implements stream.Sink. Records and Health may be called from any
// number of goroutines; Next is meant for the program's command loop.
type Feed struct {
	ctx    context.Context
	cancel context.CancelFunc
	ticks  <-chan time.Time
	ticker *time.Ticker
	max    int
	maxB   int64

	// notify has room for one signal: "something is pending". Senders
	// never block on it; a full channel already says what they would.
	notify chan struct{}

	mu      sync.Mutex
	records []stream.Record
	bytes   int64 // size of records
	health  []stream.Health
	lineage []stream.Lineage // at most one per table
	dropped int              // since the last batch
	stats   Stats
	closed  bool
}

var (
	_ stream.Sink        = (*Feed)(nil)
	_ stream.LineageSink = (*Feed)(nil)
)

// New returns a Feed that stops when ctx is cancelled or Close is called.
func New(ctx context.Context, o Options) *Feed {
	if ctx == nil {
		ctx = context.Background()
	}
	f := &Feed{max: o.MaxBacklog, maxB: o.MaxBacklogBytes, notify: make(chan struct{}, 1)}
	if f.max <= 0 {
		f.max = DefaultMaxBacklog
	}
	if f.maxB <= 0 {
		f.maxB = DefaultMaxBacklogBytes
	}
	f.ctx, f.cancel = context.WithCancel(ctx)
	f.ticks = o.Ticks
	if f.ticks == nil {
		iv := o.Interval
		if iv <= 0 {
			iv = DefaultInterval
		}
		// A ticker nobody waits on costs nothing since Go 1.23 (its timer
		// leaves the heap), so an idle feed does not wake the process.
		f.ticker = time.NewTicker(iv)
		f.ticks = f.ticker.C
	}
	return f
}

// Records queues records for the next batch. It never blocks on the program:
// when the backlog is full the oldest pending records are dropped and
// counted. Order is kept, so records of one key stay in the order the reader
// delivered them.
func (f *Feed) Records(recs []stream.Record) {
	if len(recs) == 0 {
		return
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.records = append(f.records, recs...)
	for _, r := range recs {
		f.bytes += int64(r.Size())
	}
	// Drop the oldest while over either bound, keeping the newest record.
	over := 0
	for b := f.bytes; over < len(f.records)-1 && (len(f.records)-over > f.max || b > f.maxB); over++ {
		b -= int64(f.records[over].Size())
	}
	if over > 0 {
		for _, r := range f.records[:over] {
			f.bytes -= int64(r.Size())
		}
		f.dropped += over
		f.stats.Dropped += over
		// Shift rather than reslice so the backing array does not creep
		// forward and leak its head.
		n := copy(f.records, f.records[over:])
		clear(f.records[n:])
		f.records = f.records[:n]
	}
	f.stats.Pending = len(f.records)
	f.mu.Unlock()
	f.signal()
}

// Health queues a health change. Consecutive notices for one table with the
// same state and detail collapse into the latest; transitions are all kept
// (a brief "gap" must reach the status bar even if "live" follows at once).
func (f *Feed) Health(h stream.Health) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	replaced := false
	for i := len(f.health) - 1; i >= 0; i-- {
		if f.health[i].Table != h.Table {
			continue
		}
		if f.health[i].State == h.State && f.health[i].Detail == h.Detail {
			f.health[i] = h
			replaced = true
		}
		break
	}
	if !replaced {
		if len(f.health) >= maxHealth {
			n := copy(f.health, f.health[1:])
			f.health = f.health[:n]
		}
		f.health = append(f.health, h)
	}
	f.mu.Unlock()
	f.signal()
}

// Lineage queues a table's shard turnover counts, replacing an earlier
// report of the same table not yet delivered (they are running totals).
func (f *Feed) Lineage(l stream.Lineage) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	i := slices.IndexFunc(f.lineage, func(p stream.Lineage) bool { return p.Table == l.Table })
	if i >= 0 {
		f.lineage[i] = l
	} else {
		f.lineage = append(f.lineage, l)
	}
	f.mu.Unlock()
	f.signal()
}

func (f *Feed) signal() {
	select {
	case f.notify <- struct{}{}:
	default:
	}
}

// Next returns a command that waits until something is pending and the next
// tick has come, then returns a BatchMsg with everything pending. The
// program should call Next again after each BatchMsg (and once at start).
// After Close, or when the context ends, the command returns nil, which the
// program ignores — the loop simply stops.
func (f *Feed) Next() tea.Cmd {
	return func() tea.Msg {
		for {
			select {
			case <-f.notify:
			case <-f.ctx.Done():
				return nil
			}
			select {
			case <-f.ticks:
			case <-f.ctx.Done():
				return nil
			}
			if m, ok := f.take(); ok {
				return m
			}
			// Another Next (if the program runs two) took it first.
		}
	}
}

// take moves everything pending into a batch.
func (f *Feed) take() (BatchMsg, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.records) == 0 && len(f.health) == 0 && len(f.lineage) == 0 && f.dropped == 0 {
		return BatchMsg{}, false
	}
	m := BatchMsg{Records: f.records, Health: f.health, Lineage: f.lineage, Dropped: f.dropped}
	// Fresh slices: the batch now belongs to the program.
	f.records, f.health, f.lineage, f.dropped, f.bytes = nil, nil, nil, 0, 0
	f.stats.Pending = 0
	f.stats.Delivered += len(m.Records)
	f.stats.Batches++
	return m, true
}

// Stats returns the counters.
func (f *Feed) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// Close stops the Feed: pending and later records are discarded and any
// waiting Next command returns nil. It is safe to call more than once.
func (f *Feed) Close() {
	f.mu.Lock()
	f.closed = true
	f.records, f.health, f.lineage, f.bytes = nil, nil, nil, 0
	f.mu.Unlock()
	f.cancel()
	if f.ticker != nil {
		f.ticker.Stop()
	}
}
