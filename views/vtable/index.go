package vtable

import (
	"slices"
	"sort"
)

// The view index is kept in a total order (sort key, then insertion seq), so
// a single row can be found or placed by binary search instead of a re-sort.

func (m *Model) less(a, b *entry) bool { return m.cmp(a, b) < 0 }

// cmp is the view's total order: sort key (empty last), then insertion.
func (m *Model) cmp(a, b *entry) int {
	if col, desc := m.orderCol(); col >= 0 {
		if a.key.empty != b.key.empty {
			if a.key.empty { // empty cells last in both directions
				return 1
			}
			return -1
		}
		if !a.key.empty {
			c := compareKeys(a.key, b.key)
			if desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
	}
	return cmpSeq(a, b)
}

// rebuild recomputes the view from all rows: O(N) filter plus a sort. Only
// called when the rows, filter or sort change wholesale.
func (m *Model) rebuild(sel string) {
	old := m.view
	view := m.view[:0]
	for _, e := range m.all {
		if e.removed {
			continue
		}
		e.visible = m.matches(e)
		if e.visible {
			view = append(view, e)
		}
	}
	if len(view) < len(old) {
		clear(old[len(view):]) // drop stale pointers in the reused array
	}
	m.view = view
	m.sortView()
	m.restoreCursor(sel)
}

func (m *Model) sortView() {
	if col, _ := m.orderCol(); col < 0 {
		// Insertion order: the view is a subsequence of all, already ordered,
		// unless a sort was just undone.
		if !slices.IsSortedFunc(m.view, func(a, b *entry) int { return cmpSeq(a, b) }) {
			slices.SortFunc(m.view, cmpSeq)
		}
		return
	}
	slices.SortFunc(m.view, m.cmp)
}

func cmpSeq(a, b *entry) int {
	switch {
	case a.seq < b.seq:
		return -1
	case a.seq > b.seq:
		return 1
	}
	return 0
}

// position returns where e is or would be in the view.
func (m *Model) position(e *entry) int {
	return sort.Search(len(m.view), func(i int) bool { return !m.less(m.view[i], e) })
}

func (m *Model) viewIndex(e *entry) (int, bool) {
	i := m.position(e)
	if i < len(m.view) && m.view[i] == e {
		return i, true
	}
	return 0, false
}

func (m *Model) insertIntoView(e *entry) {
	i := m.position(e)
	m.view = slices.Insert(m.view, i, e)
	e.visible = true
	if i <= m.cursor && len(m.view) > 1 {
		m.cursor++ // keep the cursor on the same row
	}
}

func (m *Model) removeFromView(e *entry) {
	i, ok := m.viewIndex(e)
	if !ok {
		// Invariant broken (should not happen): fall back to a scan.
		i = slices.Index(m.view, e)
		if i < 0 {
			e.visible = false
			return
		}
	}
	m.view = slices.Delete(m.view, i, i+1)
	e.visible = false
	if i < m.cursor {
		m.cursor--
	}
}

// mergeSorted merges b (a small sorted page) into a (the sorted view) and
// returns the merged view, reusing a's array when it has room (append's
// growth, so a load-all reallocates the view a few times, not every page).
// It works from the back: each element of b, last first, is placed by
// binary search in what is left of a, and the run of a after it moves up
// whole, so the cost is O(len(b)·log len(a)) compares plus one memmove of
// a, and nothing is written before it has been moved.
func mergeSorted(a, b []*entry, cmp func(x, y *entry) int) []*entry {
	n := len(a)
	a = slices.Grow(a, len(b))[:n+len(b)]
	i, k := n, len(a) // a[:i] is still to merge; a[k:] is done
	for j := len(b) - 1; j >= 0; j-- {
		e := b[j]
		// The rows of a[:i] that sort after e go after it (ties: a's older
		// rows first).
		p := sort.Search(i, func(x int) bool { return cmp(a[x], e) > 0 })
		k -= i - p
		copy(a[k:], a[p:i])
		k--
		a[k] = e
		i = p
	}
	return a
}
