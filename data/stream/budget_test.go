package stream

import (
	"context"
	"fmt"
	"testing"
	"time"

	"opsdeck/data"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// grants moves the clock by d and dispatches, returning the names of the
// tickets granted, in order.
func grants(b *budget, clk *fakeClock, d time.Duration, names map[*ticket]string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	clk.t = clk.t.Add(d)
	before := map[*ticket]bool{}
	for t := range names {
		before[t] = t.granted
	}
	var order []*ticket
	for c := classBusy; c < numClasses; c++ {
		order = append(order, b.queue[c]...)
	}
	b.dispatchLocked(clk.t)
	var out []string
	for _, t := range order {
		if t.granted && !before[t] {
			out = append(out, names[t])
		}
	}
	return out
}

// TestBudgetServesBusyFirstThenInTurn: when the console's ceiling binds,
// each token goes to a busy shard before an idle one and an idle one
// before a slow table's, and within a class in the order they asked.
func TestBudgetServesBusyFirstThenInTurn(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1763726400, 0)}
	b := newBudget(10, clk.now) // one token per 100 ms, burst 2.5
	defer func() {
		if b.timer != nil {
			b.timer.Stop()
		}
	}()
	for i := 0; i < 2; i++ {
		if b.ask(classSlow) != nil {
			t.Fatalf("the burst should be granted at once")
		}
	}
	names := map[*ticket]string{}
	for _, q := range []struct {
		c    class
		name string
	}{{classIdle, "idle1"}, {classSlow, "slow1"}, {classIdle, "idle2"}, {classBusy, "busy1"}, {classBusy, "busy2"}} {
		tk := b.ask(q.c)
		if tk == nil {
			t.Fatalf("%s granted with no token left", q.name)
		}
		names[tk] = q.name
	}
	var got []string
	for i := 0; i < 6; i++ {
		got = append(got, grants(b, clk, 100*time.Millisecond, names)...)
	}
	want := "[busy1 busy2 idle1 idle2 slow1]"
	if fmt.Sprint(got) != want {
		t.Errorf("granted %v, want %s", got, want)
	}
	if b.granted != 7 {
		t.Errorf("granted %d tokens in 0.6 s at 10/s plus a burst of 2, want 7", b.granted)
	}
}

// TestBudgetCeilingHoldsUnderManyReaders: 200 readers asking as fast as
// they can get no more than the rate (plus the burst) over a second.
func TestBudgetCeilingHoldsUnderManyReaders(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1763726400, 0)}
	b := newBudget(50, clk.now)
	defer func() {
		if b.timer != nil {
			b.timer.Stop()
		}
	}()
	names := map[*ticket]string{}
	for i := 0; i < 200; i++ {
		if tk := b.ask(class(i % 3)); tk != nil {
			names[tk] = fmt.Sprint(i)
		}
	}
	n := b.granted
	for i := 0; i < 10; i++ {
		n += len(grants(b, clk, 100*time.Millisecond, names))
	}
	if n > 50+13 || n < 50 {
		t.Errorf("%d calls granted in 1 s at a ceiling of 50/s (burst 12.5)", n)
	}
}

// TestBudgetCancelGivesBack: a reader that stops while queued leaves the
// queue; one granted as it stopped returns its token.
func TestBudgetCancelGivesBack(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1763726400, 0)}
	b := newBudget(10, clk.now)
	defer func() {
		if b.timer != nil {
			b.timer.Stop()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for b.ask(classIdle) == nil { // the burst, then one queued
	}
	if err := b.acquire(ctx, classIdle); err == nil {
		t.Fatal("acquire on a cancelled context succeeded with no token")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if q := len(b.queue[classIdle]); q != 1 { // the ask above is still queued
		t.Errorf("queue holds %d tickets, want 1", q)
	}
}

// idleReader is a shard reader of a table with n open shards, read at rate.
func idleReader(t *testing.T, n int, rate Rate, o Options) *shardReader {
	o.Etiquette = EtiquetteLocal
	tl := &Tailer{opts: o.withDefaults(), budget: newBudget(50, nil)}
	tr := newTableReader(tl, data.TableSessions, "phys", &recSink{}, newHealthTracker(data.TableSessions, &recSink{}, time.Now))
	tr.rate.Store(int32(rate))
	for i := 0; i < n; i++ {
		tr.active[&shardReader{}] = struct{}{}
	}
	return &shardReader{t: tl, tr: tr, idle: 20}
}

// TestIdleCostIsFlatInShards: however many idle shards a table has, their
// pauses add up to no more than TableIdleRate calls a second; an idle
// shard of a small table waits no more than IdlePollMax (plus jitter), a
// busy one PollInterval; a table nothing needs is read slowly.
func TestIdleCostIsFlatInShards(t *testing.T) {
	o := Options{}
	now := time.Now()
	for _, n := range []int{1, 3, 10, 100, 1000} {
		s := idleReader(t, n, RateFull, o)
		g := s.idleGap(now)
		if rate := float64(n) / g.Seconds(); rate > 2.0001 {
			t.Errorf("%d idle shards: one poll every %v each = %.2f calls/s for the table, over 2", n, g, rate)
		}
		if n <= 3 && g > 1500*time.Millisecond*12/10 {
			t.Errorf("%d idle shards: %v between polls, over the 1.5 s cap (+20%% jitter)", n, g)
		}
	}
	s := idleReader(t, 1, RateFull, o)
	s.busy = true
	if g := s.gap(now); g != 250*time.Millisecond {
		t.Errorf("busy shard: %v between polls, want 250ms", g)
	}
	// A shard of a big table that delivered a moment ago and then found
	// nothing keeps its own backoff, not the table's share (500 s here).
	warm := idleReader(t, 1000, RateFull, o)
	warm.idle, warm.lastBusy = 1, now
	if g := warm.idleGap(now); g > 600*time.Millisecond {
		t.Errorf("a shard busy a moment ago waits %v after one empty poll, want ≤ 500ms (+jitter)", g)
	}
	slow := idleReader(t, 1, RateSlow, o)
	if g := slow.idleGap(now); g < 10*time.Second {
		t.Errorf("slow table: %v between polls, want ≥ 10s", g)
	}
	slow.busy = true
	if g := slow.gap(now); g < 10*time.Second {
		t.Errorf("busy shard of a slow table: %v between polls, want ≥ 10s", g)
	}
	if c := slow.class(); c != classSlow {
		t.Errorf("slow table's class %d", c)
	}
}
