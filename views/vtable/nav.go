package vtable

// bodyHeight is the number of row lines under the header.
func (m Model) bodyHeight() int { return max(m.height-1, 0) }

// clampScroll keeps the cursor on a row and inside the window, scrolling the
// window only as far as needed (like a pager, not re-centring).
func (m *Model) clampScroll() {
	m.touchLabels()
	n := len(m.view)
	if m.cursor >= n {
		m.cursor = n - 1
	}
	if m.cursor < 0 {
		m.cursor = 0
	}
	h := m.bodyHeight()
	if h <= 0 {
		m.offset = m.cursor
		return
	}
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	// Don't leave blank lines at the bottom when rows could fill them.
	if m.offset > n-h {
		m.offset = max(n-h, 0)
	}
	if m.offset < 0 {
		m.offset = 0
	}
}

// MoveUp moves the cursor up n rows.
func (m *Model) MoveUp(n int) { m.cursor -= max(n, 0); m.clampScroll() }

// MoveDown moves the cursor down n rows.
func (m *Model) MoveDown(n int) { m.cursor += max(n, 0); m.clampScroll() }

// Top moves to the first row.
func (m *Model) Top() { m.cursor = 0; m.clampScroll() }

// Bottom moves to the last row.
func (m *Model) Bottom() { m.cursor = len(m.view) - 1; m.clampScroll() }

// PageUp moves up one screenful.
func (m *Model) PageUp() { m.MoveUp(max(m.bodyHeight(), 1)) }

// PageDown moves down one screenful.
func (m *Model) PageDown() { m.MoveDown(max(m.bodyHeight(), 1)) }

// AtBottom reports whether the cursor is on the last row; panes use it to
// fetch the next page when the user scrolls past the end.
func (m Model) AtBottom() bool { return len(m.view) == 0 || m.cursor == len(m.view)-1 }

// Offset returns the index of the first visible row (for scroll indicators).
func (m Model) Offset() int { return m.offset }
