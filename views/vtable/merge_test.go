package vtable

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// mergeSorted, merging in place from the back, gives what a stable sort of
// the view followed by the page gives: ties keep the view's rows first, and
// no row is lost or written twice, whether or not the view has room.
func TestMergeSortedMatchesAStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	byKey := func(x, y *entry) int { return int(x.seq/4) - int(y.seq/4) } // seq/4: many ties
	for round := 0; round < 500; round++ {
		var a, b []*entry
		for i := rng.IntN(40); i > 0; i-- {
			a = append(a, &entry{seq: uint64(rng.IntN(60))})
		}
		for i := rng.IntN(12); i > 0; i-- {
			b = append(b, &entry{seq: uint64(rng.IntN(60))})
		}
		slices.SortStableFunc(a, byKey)
		slices.SortStableFunc(b, byKey)
		if round%2 == 1 {
			a = slices.Grow(a, len(b)) // room in place
		}
		want := slices.Concat(a, b)
		slices.SortStableFunc(want, byKey)

		got := mergeSorted(a, b, byKey)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d rows, want %d", round, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("round %d: row %d is %p (key %d), want %p (key %d)", round, i, got[i], got[i].seq/4, want[i], want[i].seq/4)
			}
		}
	}
}
