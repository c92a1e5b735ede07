package gcpace

import (
	"runtime/debug"
	"testing"
)

// inForce is the collector's setting as the runtime has it.
func inForce() int {
	v := debug.SetGCPercent(-1)
	debug.SetGCPercent(v)
	return v
}

func TestHoldsAndBulksNestAndUndo(t *testing.T) {
	old := debug.SetGCPercent(50)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	mu.Lock()
	base = -2 // read again: this test's GOGC is 50
	mu.Unlock()

	check := func(when string, want int) {
		t.Helper()
		if got := inForce(); got != want {
			t.Fatalf("%s: GOGC in force %d, want %d", when, got, want)
		}
		if got := Percent(); got != want {
			t.Fatalf("%s: Percent() %d, want %d", when, got, want)
		}
	}
	check("at first", 50)
	done1 := Bulk()
	check("one bulk", 50*BulkFactor)
	done2 := Bulk()
	done1()
	done1() // a second call changes nothing
	check("one of two bulks done, the first twice", 50*BulkFactor)
	release := Hold()
	check("held during a bulk", -1)
	done2()
	check("held, bulks done", -1)
	release()
	check("released", 50)
	release()
	check("released twice", 50)
}

// With GOGC=off the program asked for no collection: a bulk keeps it so.
func TestBulkLeavesOffOff(t *testing.T) {
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	mu.Lock()
	base = -2
	mu.Unlock()
	done := Bulk()
	defer done()
	if got := inForce(); got != -1 {
		t.Fatalf("GOGC=off became %d during a bulk", got)
	}
}
