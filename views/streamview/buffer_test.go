package streamview

import (
	"fmt"
	"testing"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// The ring starts small and grows as records come, keeping every record at
// its arrival number through each growth; once at its capacity it drops the
// oldest, as before.
func TestBufferGrowsThenRings(t *testing.T) {
	const capacity = 300 // not a power of two: the last growth is partial
	b := newBuffer(capacity, 1<<40)
	if len(b.slots) > initialSlots {
		t.Fatalf("a new ring has %d slots, want at most %d", len(b.slots), initialSlots)
	}
	for i := 0; i < 1000; i++ {
		id := fmt.Sprintf("s-%04d", i)
		b.push(entry{rec: stream.Record{Table: data.TableSessions, Seq: id}, size: 1})
		if len(b.slots) > capacity {
			t.Fatalf("after %d records the ring has %d slots, over its capacity %d", i+1, len(b.slots), capacity)
		}
		held := min(i+1, capacity)
		if b.len() != held {
			t.Fatalf("after %d records %d held, want %d", i+1, b.len(), held)
		}
		for seq := b.first; seq < b.next; seq++ {
			e, ok := b.get(seq)
			if want := fmt.Sprintf("s-%04d", seq); !ok || e.seq != seq || e.rec.Seq != want {
				t.Fatalf("after %d records seq %d holds %q (seq %d), want %q", i+1, seq, e.rec.Seq, e.seq, want)
			}
		}
	}
	if len(b.slots) != capacity || b.dropped != 1000-capacity || b.perTable[data.TableSessions] != capacity {
		t.Errorf("slots %d, dropped %d, per table %d; want %d, %d, %d", len(b.slots), b.dropped, b.perTable[data.TableSessions], capacity, 1000-capacity, capacity)
	}
}
