package main

import (
	"os"
	"runtime"

	tea "charm.land/bubbletea/v2"

	"opsdeck/ui"
	"opsdeck/views"
)

// The console is one event loop and goroutines that mostly wait on the
// network. Measured with DynamoDB Local on two cores (BENCHMARKS.md, issue
// 13's fourth and fifth passes), a second P costs at idle: a second thread
// spins on every wake-up, and collector workers run beside the loop. That
// was 1.0–1.2 % of a core, against 0.8 % on one P. It pays off while a
// pane waits for pages: the Query's answer, its decoding and the screen's
// writer then run side by side. On one P throughout, the first rows missed
// the program library's render tick (used before ui/screen): 131 ms,
// against 100. During a load-all on one P, a key
// waited for the P behind the page being read and decoded, up to 70 ms to
// its frame. A third P during a load-all measured no better over 196 keys
// (max 53 ms, against 52.6 with two) and cost 0.25 CPU-s more. So the
// console runs on two Ps from start until the first screen is written and
// while the shown pane loads, a load-all included; on one otherwise.
// GOMAXPROCS, when set, wins.
type procs struct {
	on      bool            // adapting at all (GOMAXPROCS unset, two CPUs or more)
	settled <-chan struct{} // closed once the first screen is written
	cur     int             // Ps now; only the program's loop reads and sets it
}

func newProcs(settled <-chan struct{}) *procs {
	return &procs{
		on:      os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) >= 2,
		settled: settled,
		cur:     runtime.GOMAXPROCS(0),
	}
}

// want is the number of Ps for the console as m stands.
func (p *procs) want(m tea.Model) int {
	select {
	case <-p.settled:
	default:
		return 2
	}
	if um, ok := m.(ui.Model); ok {
		return procsFor(um.Pane(um.Active()).Status())
	}
	return 1
}

// procsFor is the number of Ps for a settled console whose shown pane
// stands at st.
func procsFor(st views.Status) int {
	if st.Loading {
		return 2
	}
	return 1
}

// adapt sets the number of Ps m wants, when it changed (a change stops
// the world for a moment, so it is made only on a change).
func (p *procs) adapt(m tea.Model) {
	if p == nil || !p.on {
		return
	}
	if n := p.want(m); n != p.cur {
		p.cur = n
		runtime.GOMAXPROCS(n)
	}
}
