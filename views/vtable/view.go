package vtable

import (
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

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
	now := m.clock()
	f := m.frameOf(now)
	b.WriteString(m.headerLine(&f))
	body := m.bodyHeight()
	if len(m.view) == 0 && body > 0 {
		b.WriteByte('\n')
		b.WriteString(m.emptyLine())
		body--
	}
	if m.paints == nil {
		m.repaint() // zero-value Model: m is a copy, so this is local
	}
	tooNarrow := f.lineWidth() > m.width
	for i := 0; i < body; i++ {
		b.WriteByte('\n')
		idx := m.offset + i
		if idx < len(m.view) {
			line := m.rowLine(m.view[idx], idx == m.cursor, now, &f, i)
			if tooNarrow {
				// Narrower than the gutter and one column: cut, keeping
				// the escape sequences balanced.
				line = ansi.Truncate(line, m.width, "")
			}
			b.WriteString(line)
		} else {
			b.WriteString(strings.Repeat(" ", m.width))
		}
	}
	return b.String()
}

func (m Model) paint() *paints {
	if m.paints == nil {
		m.repaint()
	}
	return m.paints
}

func (m Model) emptyLine() string {
	msg := m.empty
	if msg == "" {
		msg = "no rows"
	}
	if len(m.byID) > 0 {
		msg = "no rows match the filter \"" + m.filter + "\""
	}
	return m.paint().muted.Apply(inert.Pad("  "+msg, m.width))
}

func (m Model) headerLine(f *frame) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", min(gutterWidth, m.width)))
	for k, i := range m.layout.vis {
		c := m.cols[i]
		w := f.widths[k]
		title := c.Title
		if i == m.sortCol && w > 1 {
			// Cut the title, never the arrow: the sort must stay visible.
			arrow := "↑"
			if m.sortDesc {
				arrow = "↓"
			}
			title = inert.Line(title, w-1) + arrow
		}
		b.WriteByte(' ')
		b.WriteString(align(title, w, c.Align))
	}
	return m.paint().header.Apply(fit(b.String(), m.width))
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

// rowLine renders one row, row r of the window laid out in f. The selected row is one reversed/coloured block
// (per-cell colours would break its background); other rows keep their
// cells' colours. Styles are applied as precomputed escape sequences
// (paint.go), not through lipgloss per cell.
func (m Model) rowLine(e *entry, selected bool, now time.Time, f *frame, r int) string {
	p := m.paints
	_, marked := m.marks[e.ID]
	hl, hasHL := m.highlights[e.ID]
	if hasHL && !hl.until.After(now) {
		hasHL = false
	}
	var b strings.Builder
	b.Grow(m.width + 64)
	gutter := " "
	if marked {
		gutter = "*"
	}
	gutter += align(e.Tag, 1, Left)

	if selected {
		b.WriteString(p.selected.Pre)
		b.WriteString(gutter)
		for k, i := range m.layout.vis {
			b.WriteByte(' ')
			b.WriteString(m.fitCell(f.text(r, k), i, f.widths[k]))
		}
		writePad(&b, m.width-f.lineWidth())
		b.WriteString(p.selected.Suf)
		return b.String()
	}

	rowHL := hasHL && len(hl.cols) == 0
	base, baseStyle := p.row, m.theme.Row
	switch {
	case marked:
		base, baseStyle = p.marked, m.theme.Marked
		if rowHL {
			base = p.hlMarked
		}
	case e.Dim:
		base, baseStyle = p.muted, m.theme.Muted
		if rowHL {
			base = p.hlMuted
		}
	case rowHL:
		base = p.hlRow
	}
	b.WriteString(base.Pre)
	b.WriteString(gutter)
	for k, i := range m.layout.vis {
		b.WriteByte(' ')
		text := m.fitCell(f.text(r, k), i, f.widths[k])
		var cp paint
		special := false
		if i < len(e.Cells) && e.Cells[i].Style != nil && !marked && !e.Dim {
			cp, special = p.cellPaint(e.Cells[i].Style), true
		}
		if hasHL && !rowHL && hasCol(hl.cols, i) {
			// Rare (a few flashing cells): render the combination directly.
			st := baseStyle
			if special {
				st = *e.Cells[i].Style
			}
			cp, special = paintOf(m.theme.Highlight.Inherit(st)), true
		}
		if !special {
			b.WriteString(text)
			continue
		}
		b.WriteString(base.Suf)
		b.WriteString(cp.Apply(text))
		b.WriteString(base.Pre)
	}
	writePad(&b, m.width-f.lineWidth())
	b.WriteString(base.Suf)
	return b.String()
}

func writePad(b *strings.Builder, n int) {
	for ; n > 0; n-- {
		b.WriteByte(' ')
	}
}

// cellText is what a cell shows: its text, or for a live time column the
// time it holds formatted against the labels' moment (labelsAt), else now.
func (m Model) cellText(e *entry, col int, now time.Time) string {
	if col >= len(e.Cells) {
		return ""
	}
	c := e.Cells[col]
	if f := m.cols[col].Relative; f != nil {
		if !m.labelsAt.IsZero() {
			now = m.labelsAt
		}
		if n, ok := c.SortKey(); ok {
			sec := math.Floor(n)
			return f(time.Unix(int64(sec), int64((n-sec)*1e9)), now)
		}
	}
	return c.Text
}

func hasCol(cols []int, c int) bool {
	for _, x := range cols {
		if x == c {
			return true
		}
	}
	return false
}
