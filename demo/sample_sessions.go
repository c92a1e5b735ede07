package demo

import (
	"iter"
	"time"

	"opsdeck/data"
)

// SampleSessions builds n Wallcrawler session items exactly as the demo
// seeds them — the same projects, lifecycle mix, event histories, secrets
// and user metadata, about 25 attributes each — without touching a
// database. Benchmarks use it to hold realistic rows (not toy three-column
// ones) when they measure the console's memory and speed. The same n and
// now always give the same items. Items are made one at a time as the
// caller ranges, so a benchmark can hold only what the console keeps.
func SampleSessions(n int, now time.Time) iter.Seq[data.Item] {
	return func(yield func(data.Item) bool) {
		sampleSessions(n, now, yield)
	}
}

func sampleSessions(n int, now time.Time, yield func(data.Item) bool) {
	g := &gen{r: defaultRand(nil), now: now.UTC()}
	// Sessions refer to a few browser contexts of their project; only the
	// ids matter here (seedContexts writes the context rows themselves).
	contexts := make([][]string, len(wcProjects))
	for i := range contexts {
		for range 4 {
			contexts[i] = append(contexts[i], "ctx_"+g.alnum(12))
		}
	}
	made := 0
	for {
		for pi, p := range wcProjects {
			for _, sc := range p.States {
				for range sc.N {
					if made == n || !yield(planSession(g, p, sc.State, contexts[pi]).item()) {
						return
					}
					made++
				}
			}
		}
	}
}
