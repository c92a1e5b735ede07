package streamview

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/themes"
	"opsdeck/views/inert"
)

// Drawing the comparison: column widths, wrapped values, scrolling.

// diffHeader is the number of lines above the compared attributes.
const diffHeader = 3

// resize lays the rows out for a new pane size and keeps the scroll position
// in range.
func (d *diffView) resize(width, height int) {
	d.body = max(height-diffHeader, 1)
	if width != d.width || d.lines == nil {
		d.layout(width)
	}
	d.clamp()
}

// layout wraps every row into lines for width.
func (d *diffView) layout(width int) {
	d.width = width
	d.lines = d.lines[:0]
	nw, vw := diffWidths(width)
	for _, r := range d.rows {
		name := inert.Line(strings.Repeat("  ", r.depth)+r.name, nw)
		ol := wrapValue(r.old, vw)
		nl := wrapValue(r.new, vw)
		n := max(len(ol), len(nl), 1)
		for i := 0; i < n; i++ {
			ln := diffLine{mark: r.mark, container: r.container}
			if i == 0 {
				ln.name = name
			} else {
				ln.mark = ' '
			}
			if i < len(ol) {
				ln.old = ol[i]
			}
			if i < len(nl) {
				ln.new = nl[i]
			}
			d.lines = append(d.lines, ln)
		}
	}
}

// diffWidths splits the width into the name column and two value columns:
// mark(1) + space + name + " │ " + old + " │ " + new.
func diffWidths(width int) (name, value int) {
	name = width * 28 / 100
	name = min(max(name, 10), 40)
	value = (width - 2 - name - 6) / 2
	if value < 4 {
		value = 4
	}
	return name, value
}

// wrapValue sanitises and hard-wraps a value into lines of at most width
// cells, at most maxLinesPerValue of them.
func wrapValue(s string, width int) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(ansi.Hardwrap(inert.String(s), width, true), "\n")
	if len(lines) > maxLinesPerValue {
		more := len(lines) - maxLinesPerValue + 1
		lines = append(lines[:maxLinesPerValue-1], inert.Line(inert.Ellipsis+" "+strconv.Itoa(more)+" more lines", width))
	}
	return lines
}

// view draws the comparison; resize has been called with this size.
func (d *diffView) view(th themes.Theme, width, height int) string {
	out := make([]string, 0, height)
	summary := strconv.Itoa(d.changed) + " changed · " + strconv.Itoa(d.added) + " added · " + strconv.Itoa(d.removed) + " removed"
	if d.note != "" {
		summary = d.note
	}
	out = append(out, th.Title.Render(inert.Pad(d.title, width)))
	out = append(out, th.Muted.Render(inert.Pad(summary+" · esc back", width)))
	nw, vw := diffWidths(width)
	out = append(out, th.Header.Render(inert.Pad("  "+inert.Pad("ATTRIBUTE", nw)+" │ "+inert.Pad("OLD", vw)+" │ "+inert.Pad("NEW", vw), width)))
	// inert.Pad leaves the header exactly width wide even when it is cut.
	for i := d.top; i < len(d.lines) && len(out) < height; i++ {
		out = append(out, d.renderLine(th, d.lines[i], nw, vw, width))
	}
	for len(out) < height {
		out = append(out, strings.Repeat(" ", width))
	}
	return strings.Join(out[:height], "\n")
}

func (d *diffView) renderLine(th themes.Theme, ln diffLine, nw, vw, width int) string {
	oldSt, newSt, markSt := th.Row, th.Row, th.Row
	switch ln.mark {
	case markAdded:
		newSt, markSt = th.Added, th.Added
	case markRemoved:
		oldSt, markSt = th.Removed, th.Removed
	case markChanged:
		oldSt, newSt, markSt = th.Highlight, th.Highlight, th.Warn
	}
	nameSt := th.Row
	if ln.container {
		nameSt = th.Header
		oldSt, newSt = th.TypeTag, th.TypeTag
	}
	var b strings.Builder
	b.WriteString(markSt.Render(string(rune(ln.mark))))
	b.WriteByte(' ')
	b.WriteString(nameSt.Render(inert.Pad(ln.name, nw)))
	b.WriteString(th.Border.Render(" │ "))
	b.WriteString(oldSt.Render(inert.Pad(ln.old, vw)))
	b.WriteString(th.Border.Render(" │ "))
	b.WriteString(newSt.Render(inert.Pad(ln.new, vw)))
	// Odd widths leave a cell over; pad so every line is exactly width.
	used := 2 + nw + 6 + 2*vw
	if used < width {
		b.WriteString(strings.Repeat(" ", width-used))
	}
	if used > width { // a terminal narrower than the narrowest columns
		return ansi.Truncate(b.String(), width, "")
	}
	return b.String()
}

func (d *diffView) clamp() {
	if d.top > len(d.lines)-d.body {
		d.top = len(d.lines) - d.body
	}
	if d.top < 0 {
		d.top = 0
	}
}

func (m *Model) updateDiff(k tea.KeyPressMsg) {
	d := m.diff
	if d == nil {
		m.mode = modeList
		return
	}
	body := max(d.body, 1)
	switch {
	case key.Matches(k, m.keys.Back):
		m.Back()
		return
	case key.Matches(k, m.keys.Up):
		d.top--
	case key.Matches(k, m.keys.Down):
		d.top++
	case key.Matches(k, m.keys.PageUp):
		d.top -= body
	case key.Matches(k, m.keys.PageDown):
		d.top += body
	case key.Matches(k, m.keys.Top):
		d.top = 0
	case key.Matches(k, m.keys.Bottom):
		d.top = len(d.lines)
	case key.Matches(k, m.keys.Reveal):
		d.revealed = !d.revealed
		d.build()
		d.layout(d.width)
	}
	d.clamp()
}
