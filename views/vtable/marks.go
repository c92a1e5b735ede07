package vtable

// The cursor and the marks: which rows an action applies to.

// ToggleMark marks or unmarks the selected row.
func (m *Model) ToggleMark() {
	m.init()
	id := m.SelectedID()
	if _, ok := m.byID[id]; !ok {
		return
	}
	if _, ok := m.marks[id]; ok {
		delete(m.marks, id)
	} else {
		m.marks[id] = struct{}{}
	}
}

// IsMarked reports whether the row with this ID is marked.
func (m Model) IsMarked(id string) bool { _, ok := m.marks[id]; return ok }

// Marked returns the marked IDs: visible ones in screen order, then those the
// filter hides in insertion order.
func (m Model) Marked() []string {
	if len(m.marks) == 0 {
		return nil
	}
	out := make([]string, 0, len(m.marks))
	for _, e := range m.view {
		if _, ok := m.marks[e.ID]; ok {
			out = append(out, e.ID)
		}
	}
	if len(out) < len(m.marks) {
		for _, e := range m.all {
			if e.removed || e.visible {
				continue
			}
			if _, ok := m.marks[e.ID]; ok {
				out = append(out, e.ID)
			}
		}
	}
	return out
}

// MarkedHidden counts marked rows the filter hides, for "3 marked (1 hidden
// by the filter)" in confirmations.
func (m Model) MarkedHidden() int {
	n := 0
	for id := range m.marks {
		if e, ok := m.byID[id]; ok && !e.visible {
			n++
		}
	}
	return n
}

// ClearMarks unmarks every row.
func (m *Model) ClearMarks() { clear(m.marks) }

// Selected returns the row under the cursor.
func (m Model) Selected() (Row, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return Row{}, false
	}
	return m.view[m.cursor].Row, true
}

// SelectedID returns the ID under the cursor, or "".
func (m Model) SelectedID() string {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return ""
	}
	return m.view[m.cursor].ID
}

// Cursor returns the cursor's index among the visible rows.
func (m Model) Cursor() int { return m.cursor }

// Select moves the cursor to the row with this ID if it is visible.
func (m *Model) Select(id string) bool {
	e, ok := m.byID[id]
	if !ok || id == "" || !e.visible {
		return false
	}
	if i, ok := m.viewIndex(e); ok {
		m.cursor = i
		m.clampScroll()
		return true
	}
	return false
}

// restoreCursor keeps the cursor on sel, or clamps it when sel is gone.
func (m *Model) restoreCursor(sel string) {
	if sel == "" || !m.Select(sel) {
		m.clampScroll()
	}
}

// MarkVisible marks every row the filter shows (all rows when there is no
// filter), keeping marks already made, and returns how many rows are marked
// now.
func (m *Model) MarkVisible() int {
	m.init()
	for _, e := range m.view {
		m.marks[e.ID] = struct{}{}
	}
	return len(m.marks)
}
