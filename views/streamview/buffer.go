package streamview

import (
	"sort"
	"strings"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// entry is one record plus what the list caches about it.
type entry struct {
	rec     stream.Record
	arrived time.Time       // when the pane was handed the record
	seq     uint64          // arrival number, increasing without gaps
	cols    [numCols]string // sanitised cell text
	// widths are the display widths of cols, measured once: padding a cell
	// that fits is then a plain append, with no grapheme scan per frame.
	widths [numCols]int
	hay    string // lower-cased cells for the filter
	size   int    // approximate bytes held for this record (see entrySize)

	// line caches the drawn (unselected) row for layout generation gen, so
	// a frame re-renders only rows it has not drawn at this width before.
	line  string // styled, with the blank gutter
	plain string // unstyled cells without the gutter, for the selected row
	gen   uint64
}

// buffer is a ring of the newest records, addressed by arrival number: the
// records held are exactly seqs [first, next), and seq lives in slot
// seq % len(slots). It holds at most capacity records and at most maxBytes
// of them (one record can weigh 800 KB, so a count alone does not bound
// memory), but always the newest one. Dropping the oldest is O(1).
//
// The ring starts small and doubles as records come, up to capacity: an
// entry is 336 bytes, so the default 10,000 slots allocated up front were
// 3.4 MB zeroed at start-up, for a pane most sessions never fill.
type buffer struct {
	slots    []entry
	capacity int // the most slots the ring grows to
	first    uint64
	next     uint64
	dropped  uint64 // records pushed out since the start
	bytes    int64  // size of the records held
	maxBytes int64
	perTable map[data.TableID]int // records held, by table
}

func newBuffer(capacity int, maxBytes int64) *buffer {
	if capacity < 1 {
		capacity = 1
	}
	if maxBytes < 1 {
		maxBytes = 1
	}
	return &buffer{slots: make([]entry, min(capacity, initialSlots)), capacity: capacity, maxBytes: maxBytes, perTable: map[data.TableID]int{}}
}

// initialSlots is the ring's size before its first growth.
const initialSlots = 64

// grow doubles the ring, up to capacity, keeping every record at its seq.
func (b *buffer) grow() {
	n := min(2*len(b.slots), b.capacity)
	slots := make([]entry, n)
	for seq := b.first; seq < b.next; seq++ {
		slots[seq%uint64(n)] = b.slots[seq%uint64(len(b.slots))]
	}
	b.slots = slots
}

func (b *buffer) len() int { return int(b.next - b.first) }

// push stores e (assigning its seq) and reports how many of the oldest
// records were dropped to make room.
func (b *buffer) push(e entry) (evicted int) {
	if b.len() == len(b.slots) && len(b.slots) < b.capacity {
		b.grow()
	}
	for b.len() > 0 && (b.len() == len(b.slots) || b.bytes+int64(e.size) > b.maxBytes) {
		b.evict()
		evicted++
	}
	e.seq = b.next
	b.slots[b.next%uint64(len(b.slots))] = e
	b.next++
	b.bytes += int64(e.size)
	b.perTable[e.rec.Table]++
	return evicted
}

// evict drops the oldest record.
func (b *buffer) evict() {
	old := &b.slots[b.first%uint64(len(b.slots))]
	b.bytes -= int64(old.size)
	if b.perTable[old.rec.Table]--; b.perTable[old.rec.Table] <= 0 {
		delete(b.perTable, old.rec.Table)
	}
	*old = entry{} // let the images go
	b.first++
	b.dropped++
}

// get returns the entry with arrival number seq; ok is false once it has
// been dropped.
func (b *buffer) get(seq uint64) (*entry, bool) {
	if seq < b.first || seq >= b.next {
		return nil, false
	}
	return &b.slots[seq%uint64(len(b.slots))], true
}

// view is the list of seqs that pass the table narrowing and the filter, in
// arrival order. It is rebuilt only when the narrowing or filter changes and
// otherwise extended by append and trimmed at the front as the buffer drops
// records, so a frame never scans the buffer.
type view struct {
	seqs  []uint64
	start int // seqs[start:] are live; the prefix is trimmed lazily
}

func (v *view) len() int        { return len(v.seqs) - v.start }
func (v *view) at(i int) uint64 { return v.seqs[v.start+i] }

func (v *view) add(seq uint64) { v.seqs = append(v.seqs, seq) }

// trim forgets seqs below first (dropped from the buffer).
func (v *view) trim(first uint64) {
	for v.start < len(v.seqs) && v.seqs[v.start] < first {
		v.start++
	}
	// Compact once the dead prefix outweighs the live part, so memory stays
	// proportional to the buffer, at amortised O(1) per record.
	if v.start > 1024 && v.start > len(v.seqs)/2 {
		n := copy(v.seqs, v.seqs[v.start:])
		v.seqs = v.seqs[:n]
		v.start = 0
	}
}

// index returns the position of the first seq ≥ seq.
func (v *view) index(seq uint64) int {
	live := v.seqs[v.start:]
	return sort.Search(len(live), func(i int) bool { return live[i] >= seq })
}

func (v *view) reset() { v.seqs, v.start = v.seqs[:0], 0 }

// haystack is the filter's text for an entry: every visible column,
// lower-cased, separated by a character no query can span.
func haystack(cols [numCols]string) string {
	return strings.ToLower(strings.Join(cols[:], "\x00"))
}

// entrySize is what an entry keeps in memory: the record (its images) and
// the cached cell and filter text.
func entrySize(e *entry) int {
	n := e.rec.Size() + len(e.hay)
	for _, c := range e.cols {
		n += len(c)
	}
	return n
}
