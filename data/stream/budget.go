package stream

import (
	"context"
	"sync"
	"time"
)

// class orders the shard readers waiting for a call: a shard that just
// delivered records first, then idle shards of tables on screen, then the
// shards of tables read slowly.
type class int

const (
	classBusy class = iota
	classIdle
	classSlow
	numClasses
)

// budget is the console's ceiling on stream reads (GetRecords and
// GetShardIterator), a token bucket shared by every shard reader of every
// table. A reader asks for a token before each call; when none is left it
// queues in its class, and tokens go to the busiest class first and, within
// a class, in the order asked (each reader has at most one request queued,
// so that is round robin). Without it, cost would grow with shards: 1,000
// shards polled every second are 1,000 calls a second.
type budget struct {
	rate  float64 // tokens per second
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	tokens  float64
	last    time.Time
	queue   [numClasses][]*ticket
	timer   *time.Timer
	pending bool // timer armed
	granted int  // tokens handed out, for tests and benchmarks
}

type ticket struct {
	ch      chan struct{}
	granted bool
}

func newBudget(rate float64, now func() time.Time) *budget {
	if now == nil {
		now = time.Now
	}
	burst := max(rate/4, 1)
	return &budget{rate: rate, burst: burst, tokens: burst, now: now, last: now()}
}

func (b *budget) refillLocked(now time.Time) {
	if now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
}

func (b *budget) queuedAtOrAbove(c class) bool {
	for i := classBusy; i <= c; i++ {
		if len(b.queue[i]) > 0 {
			return true
		}
	}
	return false
}

// acquire waits for a token for a reader of class c, or for ctx to end.
func (b *budget) acquire(ctx context.Context, c class) error {
	t := b.ask(c)
	if t == nil {
		return nil
	}
	select {
	case <-t.ch:
		return nil
	case <-ctx.Done():
		b.cancel(c, t)
		return ctx.Err()
	}
}

// ask takes a token at once (nil) when one is free and nobody of the same
// or a busier class waits; else it queues a ticket and arms the dispatch.
func (b *budget) ask(c class) *ticket {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refillLocked(b.now())
	if b.tokens >= 1 && !b.queuedAtOrAbove(c) {
		b.tokens--
		b.granted++
		return nil
	}
	t := &ticket{ch: make(chan struct{})}
	b.queue[c] = append(b.queue[c], t)
	b.armLocked()
	return t
}

// cancel withdraws a ticket; a token granted meanwhile goes back.
func (b *budget) cancel(c class, t *ticket) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t.granted {
		b.tokens++
		b.granted--
		return
	}
	q := b.queue[c]
	for i, x := range q {
		if x == t {
			b.queue[c] = append(q[:i], q[i+1:]...)
			break
		}
	}
}

// dispatchLocked hands the tokens there are to the queue, busiest class
// first, and reports whether anyone still waits.
func (b *budget) dispatchLocked(now time.Time) bool {
	b.refillLocked(now)
	for c := classBusy; c < numClasses; c++ {
		for len(b.queue[c]) > 0 && b.tokens >= 1 {
			t := b.queue[c][0]
			b.queue[c][0] = nil
			b.queue[c] = b.queue[c][1:]
			b.tokens--
			b.granted++
			t.granted = true
			close(t.ch)
		}
	}
	return b.queuedAtOrAbove(classSlow)
}

// armLocked schedules the next dispatch for when a token will be there.
func (b *budget) armLocked() {
	if b.pending {
		return
	}
	wait := time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
	if wait < time.Millisecond {
		wait = time.Millisecond
	}
	b.pending = true
	if b.timer == nil {
		b.timer = time.AfterFunc(wait, b.fire)
	} else {
		b.timer.Reset(wait)
	}
}

func (b *budget) fire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = false
	if b.dispatchLocked(b.now()) {
		b.armLocked()
	}
}
