package streamtest

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"
)

// Latency measures write-to-record latency for benchmarks: when each
// write was acknowledged and when its record first arrived, by key. It is
// safe for a writer goroutine and a reading goroutine at once.
type Latency struct {
	mu      sync.Mutex
	acked   map[string]time.Time
	arrived map[string]time.Time
}

// NewLatency sizes a recorder for n writes.
func NewLatency(n int) *Latency {
	return &Latency{acked: make(map[string]time.Time, n), arrived: make(map[string]time.Time, n)}
}

// Acked records that the write of key was acknowledged now.
func (l *Latency) Acked(key string) {
	now := time.Now()
	l.mu.Lock()
	l.acked[key] = now
	l.mu.Unlock()
}

// Arrived records that key's record arrived at at, unless it already
// arrived (a duplicate keeps the first time).
func (l *Latency) Arrived(key string, at time.Time) {
	l.mu.Lock()
	if _, dup := l.arrived[key]; !dup {
		l.arrived[key] = at
	}
	l.mu.Unlock()
}

// Count is how many distinct keys have arrived.
func (l *Latency) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.arrived)
}

// WritePaced calls write(i) for i in [0, n) from its own goroutine, one
// call per tick of a ticker every period, and records each returned key as
// acknowledged when write returns. A ticker rather than write-then-wait
// keeps the writes out of step with the reader's polls, so they land at
// every phase of the poll cycle as real traffic does; writing right after
// the previous record arrived would always land just after a poll and
// measure the worst phase only. The first error stops the writes and is
// sent on the returned channel; cancelling ctx stops them too.
func (l *Latency) WritePaced(ctx context.Context, n int, period time.Duration, write func(i int) (key string, err error)) <-chan error {
	errc := make(chan error, 1)
	go func() {
		tick := time.NewTicker(period)
		defer tick.Stop()
		for i := 0; i < n; i++ {
			select {
			case <-tick.C:
			case <-ctx.Done():
				return
			}
			key, err := write(i)
			if err != nil {
				errc <- err
				return
			}
			l.Acked(key)
		}
	}()
	return errc
}

// Durations is one latency per arrived key. A record that arrived before
// its write was acknowledged (or whose acknowledgement is unknown) counts
// as 0.
func (l *Latency) Durations() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	lat := make([]time.Duration, 0, len(l.arrived))
	for k, at := range l.arrived {
		d := time.Duration(0)
		if a, ok := l.acked[k]; ok && at.After(a) {
			d = at.Sub(a)
		}
		lat = append(lat, d)
	}
	return lat
}

// Report reports the p50-ms and p99-ms latencies and the number of writes
// measured as metrics of b.
func (l *Latency) Report(b *testing.B) {
	lat := l.Durations()
	if len(lat) == 0 {
		b.Fatal("no records arrived: no latency to report")
	}
	p50, p99 := Percentiles(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(p50), "p50-ms")
	b.ReportMetric(ms(p99), "p99-ms")
	b.ReportMetric(float64(len(lat)), "writes")
}

// Percentiles sorts lat in place and returns its 50th and 99th percentiles
// (nearest rank below). lat must not be empty.
func Percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat[len(lat)/2], lat[len(lat)*99/100]
}
