package streamview

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/views/inert"
)

// layout is the width of each list column; 0 hides it.
type layout struct {
	w [numCols]int
}

// columnLayout fits the columns into width. The summary is what the operator
// reads, so it gets the most room; on narrow terminals the time column goes
// first, then the table column (it is redundant when narrowed to one table).
func (m *Model) columnLayout(width int) layout {
	var l layout
	l.w[colTable] = 13 // "subscriptions"
	if width < 100 {
		l.w[colTable] = 11
	}
	if m.table != "" {
		l.w[colTable] = 0
	}
	l.w[colEvent] = len(expiredTTL)
	l.w[colTime] = 8
	for {
		fixed, gaps := 1, 0 // the cursor gutter
		for _, c := range []int{colTable, colEvent, colTime} {
			if l.w[c] > 0 {
				fixed += l.w[c]
				gaps++
			}
		}
		gaps++ // between key and summary
		rest := width - fixed - gaps
		kw := rest * 35 / 100
		if kw > 40 {
			kw = 40
		}
		if kw < 10 {
			kw = 10
		}
		if rest-kw >= 16 || (l.w[colTime] == 0 && l.w[colTable] == 0) {
			l.w[colKey] = kw
			l.w[colSummary] = max(rest-kw, 1)
			return l
		}
		if l.w[colTime] > 0 {
			l.w[colTime] = 0
		} else {
			l.w[colTable] = 0
		}
	}
}

// total is the width of a row drawn with this layout (gutter included).
func (l layout) total() int {
	n, cols := 1, 0
	for _, w := range l.w {
		if w > 0 {
			n += w
			cols++
		}
	}
	return n + max(cols-1, 0)
}

// fit cuts a styled row on a terminal narrower than the narrowest layout;
// at any usable width the layout fits exactly and this is a no-op.
func fit(line string, l layout, width int) string {
	if l.total() <= width {
		return line
	}
	return ansi.Truncate(line, width, "")
}

var colTitles = [numCols]string{"TABLE", "EVENT", "KEY", "ARRIVED", "SUMMARY"}

// View draws the pane into exactly the size given to SetSize.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.mode == modeDiff && m.diff != nil {
		return m.diff.view(m.theme, m.width, m.height)
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.padStyled(m.infoLine(), m.theme.Title))

	l := m.layoutNow()
	var hdr [numCols]string
	copy(hdr[:], colTitles[:])
	lines = append(lines, fit(m.theme.Header.Render(joinCells(" ", hdr, l)), l, m.width))

	rows := m.listRows()
	n := m.shown()
	if n == 0 {
		msg := "waiting for stream records…"
		switch {
		case m.filter != "" && m.buf.len() > 0:
			msg = "no record matches the filter (esc clears it)"
		case m.table != "" && m.Count() == 0 && m.buf.len() > 0:
			msg = "no record from " + string(m.table) + " yet"
		}
		lines = append(lines, m.padStyled("  "+msg, m.theme.Muted))
	} else {
		ti := m.vis.index(m.top)
		ci := m.cursorIndex()
		for i := ti; i < n && i < ti+rows; i++ {
			e, ok := m.buf.get(m.vis.at(i))
			if !ok {
				continue
			}
			lines = append(lines, fit(m.row(e, l, i == ci), l, m.width))
		}
	}
	for len(lines) < m.height-btoi(m.mode == modeFilter) {
		lines = append(lines, strings.Repeat(" ", m.width))
	}
	if m.mode == modeFilter {
		lines = append(lines, m.padStyled("/"+inert.String(m.input)+"█", m.theme.Key))
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	return strings.Join(lines, "\n")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// infoLine says what the list holds: scope, counts, drops, filter, pause.
func (m *Model) infoLine() string {
	parts := []string{"all tables"}
	if m.table != "" {
		parts[0] = string(m.table)
	}
	parts = append(parts, plural(m.Count(), "record"))
	if d := m.Dropped(); d > 0 {
		parts = append(parts, count(d)+" dropped")
	}
	if m.filter != "" {
		parts = append(parts, "filter \""+inert.String(m.filter)+"\": "+count(m.vis.len())+" match")
	}
	if m.paused {
		parts = append(parts, "paused · "+count(m.NewWhilePaused())+" new")
	} else if !m.follow {
		if below := m.shown() - 1 - m.cursorIndex(); below > 0 {
			parts = append(parts, count(below)+" newer below")
		}
	}
	return strings.Join(parts, " · ")
}

// layoutNow returns the column layout for the current width and narrowing,
// starting a new cache generation when it changed.
func (m *Model) layoutNow() layout {
	if m.layoutW != m.width || m.layoutTable != m.table || m.gen == 0 {
		m.layoutW, m.layoutTable = m.width, m.table
		m.lay = m.columnLayout(m.width)
		m.gen++
	}
	return m.lay
}

// row draws one record. Cells are already sanitised; Pad only cuts them.
// Unselected rows are cached on the entry until the layout changes.
func (m *Model) row(e *entry, l layout, selected bool) string {
	if e.gen != m.gen {
		m.drawRow(e, l)
		e.gen = m.gen
	}
	if selected {
		return m.theme.Selected.Render("›" + e.plain)
	}
	return e.line
}

// drawRow fills the entry's cache: the cells cut and padded to the layout,
// once plain (for the selected row, styled as a whole) and once with each
// cell's own style.
func (m *Model) drawRow(e *entry, l layout) {
	var plain, styled strings.Builder
	styled.WriteString(" ")
	first := true
	for c := 0; c < numCols; c++ {
		if l.w[c] == 0 {
			continue
		}
		if !first {
			plain.WriteByte(' ')
			styled.WriteByte(' ')
		}
		first = false
		cell := padCell(e.cols[c], e.widths[c], l.w[c])
		plain.WriteString(cell)
		switch c {
		case colEvent:
			styled.WriteString(m.eventStyle(e).Render(cell))
		case colTime, colTable:
			styled.WriteString(m.theme.Muted.Render(cell))
		default:
			styled.WriteString(m.theme.Row.Render(cell))
		}
	}
	e.plain, e.line = plain.String(), styled.String()
}

func (m *Model) eventStyle(e *entry) lipgloss.Style {
	switch {
	case e.rec.TTL:
		return m.theme.Muted
	case e.rec.EventName == "INSERT":
		return m.theme.OK
	case e.rec.EventName == "REMOVE":
		return m.theme.Error
	case e.rec.EventName == "MODIFY":
		return m.theme.Warn
	}
	return m.theme.Row
}

// padCell pads sanitised text of known display width to exactly w cells,
// cutting it only when it does not fit.
func padCell(s string, sw, w int) string {
	if sw <= w {
		return s + strings.Repeat(" ", w-sw)
	}
	return inert.Pad(s, w)
}

// joinCells pads each shown column to its width, one space apart, after a
// one-cell gutter (the header's is blank).
func joinCells(gutter string, cells [numCols]string, l layout) string {
	var b strings.Builder
	b.WriteString(gutter)
	first := true
	for c := 0; c < numCols; c++ {
		if l.w[c] == 0 {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		b.WriteString(inert.Pad(cells[c], l.w[c]))
	}
	return b.String()
}

// padStyled cuts or pads already sanitised text to the pane width and
// styles it.
func (m *Model) padStyled(s string, st lipgloss.Style) string {
	return st.Render(inert.Pad(s, m.width))
}

// plural formats "1 record", "2,000 records".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return count(n) + " " + noun + "s"
}
