package streamtest

import (
	"testing"
	"time"
)

func TestPercentilesNearestRankBelow(t *testing.T) {
	// 1..200 ms, shuffled: p50 is the 101st smallest, p99 the 199th.
	lat := make([]time.Duration, 200)
	for i := range lat {
		lat[i] = time.Duration((i*37)%200+1) * time.Millisecond
	}
	p50, p99 := Percentiles(lat)
	if p50 != 101*time.Millisecond || p99 != 199*time.Millisecond {
		t.Errorf("p50 %v p99 %v, want 101ms 199ms", p50, p99)
	}
	if p50, p99 := Percentiles([]time.Duration{7}); p50 != 7 || p99 != 7 {
		t.Errorf("one sample: p50 %v p99 %v, want 7ns 7ns", p50, p99)
	}
}

func TestLatencyKeepsFirstArrivalAndCountsEarlyAsZero(t *testing.T) {
	l := NewLatency(3)
	t0 := time.Now()
	l.Acked("a")
	l.Acked("b")
	acked := time.Now()
	l.Arrived("a", acked.Add(50*time.Millisecond))
	l.Arrived("a", acked.Add(time.Hour)) // a duplicate keeps the first time
	l.Arrived("b", t0.Add(-time.Second)) // before its acknowledgement: 0
	l.Arrived("c", acked)                // never acknowledged: 0
	if l.Count() != 3 {
		t.Fatalf("count %d, want 3", l.Count())
	}
	var zeros int
	for _, d := range l.Durations() {
		switch {
		case d == 0:
			zeros++
		case d < 50*time.Millisecond || d > 50*time.Millisecond+acked.Sub(t0):
			t.Errorf("a's latency %v, want about 50ms", d)
		}
	}
	if zeros != 2 {
		t.Errorf("%d zero latencies, want 2 (early b, unacknowledged c)", zeros)
	}
}
