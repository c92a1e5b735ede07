package streamview

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Keys and the cursor: moving through the records, following the newest,
// the filter prompt.

// matches applies the table narrowing and the filter to one entry.
func (m *Model) matches(e *entry) bool {
	if m.table != "" && e.rec.Table != m.table {
		return false
	}
	return len(m.expr.Terms) == 0 || m.expr.Match(recordRow{e: e, mask: m.mask})
}

// rebuild recomputes the visible list after the narrowing or filter changed.
// The cursor stays on the same record when it is still visible, else moves
// to the nearest later one.
func (m *Model) rebuild() {
	m.vis.reset()
	for seq := m.buf.first; seq < m.buf.next; seq++ {
		e, _ := m.buf.get(seq)
		if m.matches(e) {
			m.vis.add(seq)
		}
	}
	m.settle()
}

// shown is how many visible records are on screen (the rest arrived while
// paused).
func (m *Model) shown() int {
	if !m.paused {
		return m.vis.len()
	}
	return m.vis.index(m.pauseAt)
}

// listRows is how many record rows fit under the info and header lines (and
// the filter prompt, when open).
func (m *Model) listRows() int {
	r := m.height - 2
	if m.mode == modeFilter {
		r--
	}
	if r < 1 {
		r = 1
	}
	return r
}

func (m *Model) cursorIndex() int {
	n := m.shown()
	if n == 0 {
		return 0
	}
	if m.follow {
		return n - 1
	}
	i := m.vis.index(m.cursor)
	if i >= n {
		i = n - 1
	}
	return i
}

// settle puts the cursor and window back in range after anything changed:
// the cursor stays on its record (or the next one if it was dropped or
// filtered out), and the window keeps the cursor in view with no empty rows
// below while there are records above.
func (m *Model) settle() {
	n := m.shown()
	if n == 0 {
		m.cursor, m.top = m.buf.next, m.buf.next
		return
	}
	ci := m.cursorIndex()
	m.cursor = m.vis.at(ci)
	rows := m.listRows()
	ti := m.vis.index(m.top)
	if ti > ci {
		ti = ci
	}
	if ci >= ti+rows {
		ti = ci - rows + 1
	}
	if ti > n-rows {
		ti = n - rows
	}
	if ti < 0 {
		ti = 0
	}
	m.top = m.vis.at(ti)
}

// moveTo puts the cursor on visible row i (clamped). Reaching the last row
// turns following back on; anything else turns it off.
func (m *Model) moveTo(i int) {
	n := m.shown()
	if n == 0 {
		return
	}
	if i < 0 {
		i = 0
	}
	if i >= n-1 {
		i = n - 1
		m.follow = true
	} else {
		m.follow = false
	}
	m.cursor = m.vis.at(i)
	m.settle()
}

// Update handles a key while the pane has focus (c copies the selected
// record, see copySelected). Other messages are ignored: records
// arrive through Append.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if m.mode != modeFilter && key.Matches(k, m.keys.Copy) {
		return m.copySelected()
	}
	switch m.mode {
	case modeFilter:
		m.updateFilter(k)
	case modeDiff:
		m.updateDiff(k)
	default:
		m.updateList(k)
	}
	return nil
}

func (m *Model) updateList(k tea.KeyPressMsg) {
	ci := m.cursorIndex()
	switch {
	case key.Matches(k, m.keys.Up):
		m.moveTo(ci - 1)
	case key.Matches(k, m.keys.Down):
		m.moveTo(ci + 1)
	case key.Matches(k, m.keys.PageUp):
		m.moveTo(ci - m.listRows())
	case key.Matches(k, m.keys.PageDown):
		m.moveTo(ci + m.listRows())
	case key.Matches(k, m.keys.Top):
		m.moveTo(0)
	case key.Matches(k, m.keys.Bottom):
		m.moveTo(m.shown() - 1)
	case key.Matches(k, m.keys.Pause):
		m.SetPaused(!m.paused)
	case key.Matches(k, m.keys.Filter):
		m.mode = modeFilter
		m.input = m.filter
		m.settle()
	case key.Matches(k, m.keys.Enter):
		m.openDiff()
	case key.Matches(k, m.keys.Back):
		m.Back()
	}
}

// updateFilter edits the prompt; the list narrows as the operator types.
func (m *Model) updateFilter(k tea.KeyPressMsg) {
	switch {
	case key.Matches(k, m.keys.Submit):
		m.mode = modeList
		m.settle()
		return
	case key.Matches(k, m.keys.Dismiss):
		m.Back()
		return
	}
	switch k.String() {
	case "backspace":
		if m.input != "" {
			_, size := lastRune(m.input)
			m.input = m.input[:len(m.input)-size]
		}
	case "ctrl+u":
		m.input = ""
	default:
		if k.Text == "" {
			return
		}
		m.input += k.Text
	}
	_ = m.SetFilter(m.input) // a bad expression keeps the last good one
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, len(s)
}
