package stream

import (
	"math/rand/v2"
	"testing"
	"time"
)

// pollSim drives one shard reader's pacing on a clock the test moves: each
// poll at time p finds the writes made since the previous poll, and the
// reader says when it polls next (shardReader.polled, the code the read
// loop runs after every GetRecords). No database and no sleeping: the
// times are the test's.
type pollSim struct {
	s     *shardReader
	next  time.Time   // when the reader polls next
	polls []time.Time // every poll, in order
}

// until polls from the sim's next poll on until the clock passes end,
// against writes (sorted), and returns for each write how long it waited
// for the poll that read it.
func (p *pollSim) until(end time.Time, writes []time.Time) []time.Duration {
	waits := make([]time.Duration, 0, len(writes))
	w := 0
	for !p.next.After(end) {
		at, got := p.next, 0
		for w < len(writes) && !writes[w].After(at) {
			waits = append(waits, at.Sub(writes[w]))
			got++
			w++
		}
		p.polls = append(p.polls, at)
		p.next = p.s.polled(at, got, 1000)
	}
	return waits
}

// callsIn counts the polls in [from, to).
func (p *pollSim) callsIn(from, to time.Time) int {
	n := 0
	for _, at := range p.polls {
		if !at.Before(from) && at.Before(to) {
			n++
		}
	}
	return n
}

// TestFastRateHeldAfterLastRecord: writes 0.2–1.2 s apart at random (the
// spacing of issue 23) are each read within one fast poll interval, because
// a shard that delivered keeps the fast pace for holdFast after its last
// record instead of halving its rate at its first empty poll; after that it
// backs off, and once idle for 15 s the table's idle budget holds (≤ 2
// reads/s for the table, whatever its shards).
func TestFastRateHeldAfterLastRecord(t *testing.T) {
	for _, shards := range []int{1, 10} {
		s := idleReader(t, shards, RateFull, Options{})
		s.idle = 0
		fast := s.t.opts.PollInterval
		t0 := time.Unix(1763726400, 0)
		rng := rand.New(rand.NewPCG(23, uint64(shards)))
		var writes []time.Time
		at := t0
		for range 80 {
			writes = append(writes, at)
			at = at.Add(200*time.Millisecond + time.Duration(rng.Int64N(int64(time.Second)+1)))
		}
		lastWrite := writes[len(writes)-1]
		// The shard read a record just before the series: it is busy.
		sim := &pollSim{s: s, next: s.polled(t0.Add(-fast), 1, 1000)}
		waits := sim.until(lastWrite.Add(time.Minute), writes)
		if len(waits) != len(writes) {
			t.Fatalf("%d shards: %d of %d writes read", shards, len(waits), len(writes))
		}
		late, worst := 0, 0
		for i, w := range waits {
			if w > fast {
				late++
			}
			if w > waits[worst] {
				worst = i
			}
		}
		if late > 0 {
			t.Errorf("%d shards: %d of %d writes waited over %v for their poll; the longest, write %d (%.2f s after the one before), %v",
				shards, late, len(writes), fast, worst, writes[worst].Sub(writes[max(worst-1, 0)]).Seconds(), waits[worst])
		}
		// After the last record: the fast pace for holdFast, then slower.
		lastRead := sim.polls[0]
		for _, p := range sim.polls {
			if !p.Before(lastWrite) {
				lastRead = p
				break
			}
		}
		if n, want := sim.callsIn(lastRead, lastRead.Add(holdFast)), int(holdFast/fast); n < want {
			t.Errorf("%d shards: %d polls in the %v after the last record, want %d (the fast pace)", shards, n, holdFast, want)
		}
		if n, most := sim.callsIn(lastRead.Add(holdFast), lastRead.Add(holdFast+3*time.Second)), int(3*time.Second/fast)/2; n > most {
			t.Errorf("%d shards: %d polls in the 3 s after the hold, want at most %d, half the fast pace (backing off)", shards, n, most)
		}
		// Idle for 15 s: the table's idle budget, ≤ 2 reads/s per table,
		// so each of its shards makes at most 2/shards.
		from, window := lastRead.Add(15*time.Second), 30*time.Second
		n := sim.callsIn(from, from.Add(window))
		if rate := float64(n*shards) / window.Seconds(); rate > 2 {
			t.Errorf("%d shards: idle 15 s, %d polls of one shard in %v: %.2f reads/s for the table, over 2", shards, n, window, rate)
		}
	}
}

// TestSlowTableDoesNotHold: a table read slowly (no pane shows it) keeps
// its slow pace after a record: the hold is for what is on screen.
func TestSlowTableDoesNotHold(t *testing.T) {
	s := idleReader(t, 1, RateSlow, Options{})
	s.idle = 0
	t0 := time.Unix(1763726400, 0)
	next := s.polled(t0, 1, 1000)
	if g := next.Sub(t0); g < s.t.opts.SlowPollInterval {
		t.Errorf("slow table, after a record: next poll in %v, want ≥ %v", g, s.t.opts.SlowPollInterval)
	}
	if g := s.polled(next, 0, 1000).Sub(next); g < s.t.opts.SlowPollInterval {
		t.Errorf("slow table, an empty poll after a record: next poll in %v, want ≥ %v", g, s.t.opts.SlowPollInterval)
	}
}
