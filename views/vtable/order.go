package vtable

import (
	"strings"

	"opsdeck/views/inert"
)

// Filtering and sorting: which rows the view holds and in what order (the
// operator's sort, else the scope's natural order).

// SetFilter keeps the rows whose column text contains q, case-insensitively
// ("" clears). The text matched is what is shown (sanitised), so typing
// `\x1b` finds a value holding ESC. All columns count, including ones a
// narrow terminal hides, so resizing never changes the result. The cursor
// stays on the same row if it is still visible, else goes to the top.
func (m *Model) SetFilter(q string) {
	m.init()
	sel := m.SelectedID()
	old := m.filter
	if m.pred != nil {
		old = "" // the view was a predicate's: not a narrower substring
	}
	m.filter, m.pred = q, nil
	// Both sides as shown: the haystack is the sanitised cells, so a
	// pasted raw U+202E and a typed "\u202e" find the same rows.
	lq := needleOf(q)
	if old != "" && strings.HasPrefix(lq, needleOf(old)) {
		// Narrowing (typing one more letter): only the current view can match.
		kept := m.view[:0]
		for _, e := range m.view {
			if strings.Contains(m.hay(e), lq) {
				kept = append(kept, e)
			} else {
				e.visible = false
			}
		}
		clear(m.view[len(kept):])
		m.view = kept
	} else {
		m.rebuild("")
	}
	if !m.Select(sel) {
		m.cursor, m.offset = 0, 0
	}
}

// Filter returns the current filter text.
func (m Model) Filter() string { return m.filter }

// SortBy sorts by a column (stable; numbers numerically, empty cells last).
// col < 0 returns to insertion order.
func (m *Model) SortBy(col int, desc bool) {
	m.init()
	if col >= len(m.cols) {
		return
	}
	sel := m.SelectedID()
	m.sortCol, m.sortDesc = col, desc
	if col < 0 {
		m.sortDesc = false
	}
	m.computeKeys(m.all)
	m.sortView()
	m.restoreCursor(sel)
}

// SetNaturalOrder declares the order the rows' source returns them in, as
// a column and direction (col < 0: none). While no explicit sort is chosen
// the view keeps that order, so a row added later (a live insert) lands
// where the source would have listed it, not at the bottom; rows with equal
// keys keep their insertion order. An explicit sort (SortBy) still wins,
// and SortBy(-1) returns to the natural order.
func (m *Model) SetNaturalOrder(col int, desc bool) {
	m.init()
	if col >= len(m.cols) {
		col = -1
	}
	sel := m.SelectedID()
	m.natCol, m.natDesc = col, desc && col >= 0
	m.computeKeys(m.all)
	m.sortView()
	m.restoreCursor(sel)
}

// SetNaturalOrderByKey is SetNaturalOrder by column Key ("" clears); false
// if there is no such column (the natural order is then cleared).
func (m *Model) SetNaturalOrderByKey(key string, desc bool) bool {
	for i, c := range m.cols {
		if key != "" && c.Key == key {
			m.SetNaturalOrder(i, desc)
			return true
		}
	}
	m.SetNaturalOrder(-1, false)
	return key == ""
}

// orderCol is the column and direction the view is ordered by: the
// explicit sort, else the natural order; -1 for insertion order.
func (m *Model) orderCol() (int, bool) {
	if m.sortCol >= 0 {
		return m.sortCol, m.sortDesc
	}
	return m.natCol, m.natDesc
}

// SortByKey sorts by the column with this Key; false if there is none.
func (m *Model) SortByKey(key string, desc bool) bool {
	for i, c := range m.cols {
		if c.Key == key {
			m.SortBy(i, desc)
			return true
		}
	}
	return false
}

// SortState returns the sort column (-1: none) and direction.
func (m Model) SortState() (col int, desc bool) { return m.sortCol, m.sortDesc }

// CycleSort moves the sort to the next column (ascending), wrapping through
// "unsorted". For the keymap's SortNext.
func (m *Model) CycleSort() {
	next := m.sortCol + 1
	for next < len(m.cols) && m.cols[next].Hidden {
		next++ // skip what is not shown: its sort would be invisible
	}
	if next >= len(m.cols) {
		next = -1
	}
	m.SortBy(next, false)
}

// ReverseSort flips the direction; with no sort it sorts the first column
// descending. For the keymap's SortReverse.
func (m *Model) ReverseSort() {
	if m.sortCol < 0 {
		if len(m.cols) > 0 {
			m.SortBy(0, true)
		}
		return
	}
	m.SortBy(m.sortCol, !m.sortDesc)
}

// hay is the lower-cased sanitised text the filter searches, built lazily
// once per row version.
func (m *Model) hay(e *entry) string {
	if !e.hasHay {
		var b strings.Builder
		for i := range m.cols {
			if i < len(e.Cells) {
				b.WriteString(strings.ToLower(inert.String(e.Cells[i].Text)))
			}
			b.WriteByte(0) // a match never spans two cells
		}
		e.haystack, e.hasHay = b.String(), true
	}
	return e.haystack
}

func (m *Model) matches(e *entry) bool {
	if m.pred != nil {
		return m.pred(&e.Row, m.hay(e))
	}
	if m.filter == "" {
		return true
	}
	return strings.Contains(m.hay(e), needleOf(m.filter))
}

// needleOf is the filter text as the haystack holds text: sanitised and
// lower-cased.
func needleOf(q string) string { return strings.ToLower(inert.String(q)) }

func (m *Model) computeKeys(es []*entry) {
	col, _ := m.orderCol()
	if col < 0 {
		return
	}
	for _, e := range es {
		if col < len(e.Cells) {
			e.key = keyOf(e.Cells[col])
		} else {
			e.key = sortKey{empty: true}
		}
	}
}
