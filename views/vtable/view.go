package vtable

import (
	"time"

	"strings"

	"charm.land/lipgloss/v2"

	"opsdeck/views/inert"
)

// View renders the header and the rows in the window: exactly height lines,
// each exactly width cells. Only visible rows are touched, so the cost does
// not depend on how many rows the table holds.
func (m Model) View() string {
	if m.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(m.height * (m.width + 32))
	b.WriteString(m.headerLine())
	body := m.bodyHeight()
	if len(m.view) == 0 && body > 0 {
		b.WriteByte('\n')
		b.WriteString(m.emptyLine())
		body--
	}
	now := m.clock()
	for i := 0; i < body; i++ {
		b.WriteByte('\n')
		idx := m.offset + i
		if idx < len(m.view) {
			b.WriteString(m.rowLine(m.view[idx], idx == m.cursor, now))
		} else {
			b.WriteString(strings.Repeat(" ", m.width))
		}
	}
	return b.String()
}

func (m Model) emptyLine() string {
	msg := m.empty
	if msg == "" {
		msg = "no rows"
	}
	if len(m.byID) > 0 {
		msg = "no rows match the filter \"" + m.filter + "\""
	}
	return m.theme.Muted.Render(inert.Pad("  "+msg, m.width))
}

func (m Model) headerLine() string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", min(gutterWidth, m.width)))
	for k, i := range m.layout.vis {
		c := m.cols[i]
		title := c.Title
		if i == m.sortCol {
			if m.sortDesc {
				title += "↓"
			} else {
				title += "↑"
			}
		}
		b.WriteByte(' ')
		b.WriteString(align(title, m.layout.widths[k], c.Align))
	}
	return m.theme.Header.Render(fit(b.String(), m.width))
}

// align sanitises, cuts and pads text to exactly w cells.
func align(s string, w int, a Align) string {
	s = inert.Line(s, w)
	pad := w - inert.Width(s)
	if pad <= 0 {
		return s
	}
	if a == Right {
		return strings.Repeat(" ", pad) + s
	}
	return s + strings.Repeat(" ", pad)
}

// fit pads or cuts an unstyled, already sanitised line to exactly w cells.
func fit(s string, w int) string {
	sw := inert.Width(s)
	switch {
	case sw == w:
		return s
	case sw < w:
		return s + strings.Repeat(" ", w-sw)
	}
	return inert.Line(s, w)
}

// rowLine renders one row. The selected row is one reversed/coloured block
// (per-cell colours would break its background); other rows keep cell
// colours, and runs of plain cells are styled in one Render call.
func (m Model) rowLine(e *entry, selected bool, now time.Time) string {
	_, marked := m.marks[e.ID]
	hl, hasHL := m.highlights[e.ID]
	if hasHL && !hl.until.After(now) {
		hasHL = false
	}
	gutter := " "
	if marked {
		gutter = "*"
	}
	gutter += align(e.Tag, 1, Left)

	if selected {
		var b strings.Builder
		b.WriteString(gutter)
		for k, i := range m.layout.vis {
			b.WriteByte(' ')
			b.WriteString(align(cellText(e, i), m.layout.widths[k], m.cols[i].Align))
		}
		return m.theme.Selected.Render(fit(b.String(), m.width))
	}

	base := m.theme.Row
	switch {
	case marked:
		base = m.theme.Marked
	case e.Dim:
		base = m.theme.Muted
	}
	rowHL := hasHL && len(hl.cols) == 0
	if rowHL {
		base = m.theme.Highlight.Inherit(base)
	}
	var out, run strings.Builder
	width := 0
	flush := func() {
		if run.Len() > 0 {
			out.WriteString(base.Render(run.String()))
			run.Reset()
		}
	}
	add := func(s string, w int) { run.WriteString(s); width += w }
	add(gutter, gutterWidth)
	for k, i := range m.layout.vis {
		w := m.layout.widths[k]
		add(" ", 1)
		text := align(cellText(e, i), w, m.cols[i].Align)
		st, special := m.cellStyle(e, i, base, marked, hasHL && !rowHL && hasCol(hl.cols, i))
		if !special {
			add(text, w)
			continue
		}
		flush()
		out.WriteString(st.Render(text))
		width += w
	}
	if width < m.width {
		add(strings.Repeat(" ", m.width-width), m.width-width)
	}
	flush()
	return out.String()
}

// cellStyle returns the style for a cell that differs from the row's base.
func (m Model) cellStyle(e *entry, col int, base lipgloss.Style, marked, highlighted bool) (lipgloss.Style, bool) {
	var st lipgloss.Style
	special := false
	if col < len(e.Cells) && e.Cells[col].Style != nil && !marked && !e.Dim {
		st, special = *e.Cells[col].Style, true
	}
	if highlighted {
		if !special {
			st = base
		}
		st, special = m.theme.Highlight.Inherit(st), true
	}
	return st, special
}

func cellText(e *entry, col int) string {
	if col < len(e.Cells) {
		return e.Cells[col].Text
	}
	return ""
}

func hasCol(cols []int, c int) bool {
	for _, x := range cols {
		if x == c {
			return true
		}
	}
	return false
}
