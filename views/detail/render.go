package detail

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"opsdeck/themes"
	"opsdeck/views/inert"
)

const (
	// maxValueLines caps one wrapped value; the rest is counted, not drawn
	// (a 390 KB string would otherwise be thousands of lines of noise — the
	// JSON copy has it all).
	maxValueLines = 200
	// maxLines caps the whole tree.
	maxLines  = 20000
	typeWidth = 4 // "BOOL", "NULL"
)

// render wraps the nodes to width and styles them. Every line is exactly
// width cells.
func render(nodes []node, width int, th themes.Theme) []string {
	nameCol := nameColumn(nodes, width)
	valueCol := nameCol + 1 + typeWidth + 1
	valueW := width - valueCol
	var out []string
	emit := func(s string) bool {
		if len(out) >= maxLines {
			return false
		}
		out = append(out, s)
		return true
	}
	for i, n := range nodes {
		if len(out) >= maxLines {
			rest := len(nodes) - i
			out[len(out)-1] = th.Muted.Render(inert.Pad("… "+strconv.Itoa(rest)+" more attributes and elements not shown (c copies the whole item)", width))
			break
		}
		indent := min(n.depth*2, width/2)
		switch n.kind {
		case kindProblem, kindNote:
			if n.typ != "" { // a missing attribute: name column, no value
				line := inert.Pad(strings.Repeat(" ", indent)+n.name, nameCol) + " " + inert.Pad(n.typ, typeWidth) + " "
				emit(th.Error.Render(inert.Pad(line+n.value, width)))
				continue
			}
			st := th.Warn
			mark := "! "
			if n.kind == kindNote {
				st, mark = th.Muted, "· "
			}
			pre := strings.Repeat(" ", indent) + mark
			for _, l := range wrapValue(n.value, width-inert.Width(pre), maxValueLines) {
				emit(st.Render(inert.Pad(pre+l, width)))
				pre = strings.Repeat(" ", inert.Width(pre))
			}
			continue
		}
		name := inert.Pad(strings.Repeat(" ", indent)+inert.String(n.name), nameCol)
		typ := inert.Pad(n.typ, typeWidth)
		valStyle := th.Row
		if n.secret {
			valStyle = th.Warn
		}
		if valueW < 12 {
			// Too narrow for a value column: value on its own lines below.
			emit(th.Key.Render(name) + " " + th.TypeTag.Render(typ) + " " + strings.Repeat(" ", max(width-valueCol, 0)))
			pre := strings.Repeat(" ", min(indent+2, width/2))
			for _, l := range wrapValue(n.value, width-len(pre), maxValueLines) {
				emit(pre + valStyle.Render(inert.Pad(l, width-len(pre))))
			}
			continue
		}
		lines := wrapValue(n.value, valueW, maxValueLines)
		emit(th.Key.Render(name) + " " + th.TypeTag.Render(typ) + " " + valStyle.Render(inert.Pad(lines[0], valueW)))
		cont := strings.Repeat(" ", valueCol)
		for _, l := range lines[1:] {
			emit(cont + valStyle.Render(inert.Pad(l, valueW)))
		}
	}
	return out
}

// nameColumn is the width of indent+name, shared by all lines so types and
// values align: as wide as the widest name, at most a third of the width.
func nameColumn(nodes []node, width int) int {
	w := 4
	for _, n := range nodes {
		if n.kind == kindValue || n.typ != "" {
			w = max(w, min(n.depth*2, width/2)+inert.Width(inert.String(n.name)))
		}
	}
	return max(min(w, width/3), 1)
}

// wrapValue sanitises and hard-wraps a value to width, at most limit lines;
// when cut, the last line says how many more there are. Only the part that
// can be shown is wrapped, so a 390 KB value costs as much as its first few
// hundred lines.
func wrapValue(raw string, width, limit int) []string {
	if width < 1 {
		width = 1
	}
	s := inert.String(raw)
	if s == "" {
		return []string{""}
	}
	// Each cell needs at least one byte, so limit*width*4 bytes cover the
	// shown lines even for 4-byte characters.
	head := s
	if max := limit * width * 4; len(head) > max {
		// Cut on a rune boundary: half a character would reach the
		// terminal as a raw invalid byte.
		for max > 0 && !utf8.RuneStart(head[max]) {
			max--
		}
		head = head[:max]
	}
	lines := strings.Split(ansi.Hardwrap(head, width, true), "\n")
	if len(lines) <= limit && len(head) == len(s) {
		return lines
	}
	total := (inert.Width(s) + width - 1) / width
	shown := lines[:min(len(lines), limit-1)]
	more := total - len(shown)
	return append(shown, "… "+strconv.Itoa(more)+" more lines (c copies the whole item)")
}
