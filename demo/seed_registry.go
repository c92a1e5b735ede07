package demo

import (
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"opsdeck/data"
)

// The demo's seeds register themselves, each from its service's file
// (registerSeed, in init), in the order they draw from the one random
// source: the same seed builds the same world. A service's seed is its
// file; no list here names it.

type seedFunc struct {
	order int
	id    int // to take one registration back
	fn    func(g *gen, w *world)
}

var (
	seedsMu sync.Mutex
	seeds   []seedFunc
	seedSeq int
)

// registerSeed adds fn at order: Wallcrawler 10, AppLens 20, Zapier 30,
// w3infra 40, Sandbox Broker 50, the hostile rows last (1000).
func registerSeed(order int, fn func(g *gen, w *world)) (unregister func()) {
	seedsMu.Lock()
	defer seedsMu.Unlock()
	seedSeq++
	id := seedSeq
	seeds = append(seeds, seedFunc{order: order, id: id, fn: fn})
	slices.SortStableFunc(seeds, func(a, b seedFunc) int { return a.order - b.order })
	return func() {
		seedsMu.Lock()
		defer seedsMu.Unlock()
		seeds = slices.DeleteFunc(seeds, func(s seedFunc) bool { return s.id == id })
	}
}

func registeredSeeds() []seedFunc {
	seedsMu.Lock()
	defer seedsMu.Unlock()
	return slices.Clone(seeds)
}

// Seeder is what a seed declared outside this package writes through:
// the world's clock and random source, and its rows.
type Seeder struct {
	g *gen
	w *world
}

// Now is the moment the world is built around.
func (s *Seeder) Now() time.Time { return s.g.now }

// Rand is the world's one random source.
func (s *Seeder) Rand() *rand.Rand { return s.g.r }

// Add writes it into table; state, when not "", is counted in the
// report's States.
func (s *Seeder) Add(table data.TableID, state string, it Item) { s.w.add(table, state, it) }

// RegisterSeed adds a service's demo seed at order (after the five
// services' 10…50, before the hostile rows' 1000); it returns the way to
// take it back (a test's own table).
func RegisterSeed(order int, fn func(*Seeder)) (unregister func()) {
	return registerSeed(order, func(g *gen, w *world) { fn(&Seeder{g: g, w: w}) })
}
