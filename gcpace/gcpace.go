// Package gcpace decides how often Go's collector runs over the console's
// life. Until the first screen settles it does not run at all: start-up
// allocates ten-odd megabytes, and three collections would take one of two
// cores from the first Query. In normal use it runs at the program's GOGC.
// While a list loads every page of its scope (load-all) it runs a quarter
// as often: the live heap grows by tens of megabytes there, and at GOGC=100
// the collector ran twenty-odd times and took an eighth of the load's CPU.
// The soft memory limit main sets still bounds the heap in every phase, so
// a quarter as often never means past the limit.
package gcpace

import (
	"runtime/debug"
	"sync"
)

// BulkFactor is how much further the heap may grow between collections
// while a bulk load runs than GOGC lets it otherwise.
const BulkFactor = 4

var (
	mu    sync.Mutex
	base  = -2 // the program's GOGC, read at the first call (-1: off)
	holds int
	bulks int
)

// Hold turns the collector off until release is called (the soft memory
// limit still holds). release may be called more than once.
func Hold() (release func()) { return enter(&holds) }

// Bulk lets the heap grow BulkFactor times further between collections
// until done is called. Bulks nest: the collector returns to its GOGC when
// the last one is done. done may be called more than once.
func Bulk() (done func()) { return enter(&bulks) }

// Percent is the GOGC in force now (-1: off).
func Percent() int {
	mu.Lock()
	defer mu.Unlock()
	return want()
}

func enter(n *int) func() {
	mu.Lock()
	defer mu.Unlock()
	*n++
	apply()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			*n--
			apply()
		})
	}
}

// want is the setting the holds and bulks ask for. The caller holds mu.
func want() int {
	if base == -2 {
		// The runtime only tells the value in force by replacing it: it
		// is put back at once.
		base = debug.SetGCPercent(100)
		debug.SetGCPercent(base)
	}
	switch {
	case holds > 0:
		return -1
	case bulks > 0 && base > 0:
		return base * BulkFactor
	}
	return base
}

// apply sets the collector to want(). The caller holds mu.
func apply() { debug.SetGCPercent(want()) }
