package detail

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"charm.land/lipgloss/v2"

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

// styleID names a theme style; lines keep IDs, not rendered text, so a
// 20000-line tree is styled only for the rows on screen.
type styleID uint8

const (
	stPlain styleID = iota
	stKey
	stFlag
	stType
	stValue
	stSecret
	stProblem
	stMissing
	stMuted
)

func styleFor(th themes.Theme, id styleID) (lipgloss.Style, bool) {
	switch id {
	case stKey:
		return th.Key, true
	case stFlag, stMissing:
		return th.Error, true
	case stType:
		return th.TypeTag, true
	case stValue:
		return th.Row, true
	case stSecret, stProblem:
		return th.Warn, true
	case stMuted:
		return th.Muted, true
	}
	return lipgloss.Style{}, false
}

// seg is a piece of a line: sanitised text, already padded to its width.
type seg struct {
	text string
	st   styleID
}

// dline is one display line; its segments add up to exactly the width.
type dline []seg

// paints is the theme's styles reduced to escape sequences, indexed by
// styleID, computed once per theme (lipgloss Render per segment per frame
// was most of a frame's cost).
type paints [stMuted + 1]themes.Paint

func paintsOf(th themes.Theme) *paints {
	var p paints
	for id := range p {
		if st, ok := styleFor(th, styleID(id)); ok {
			p[id] = themes.PaintOf(st)
		}
	}
	return &p
}

func (l dline) render(p *paints) string {
	var b strings.Builder
	for _, sg := range l {
		b.WriteString(p[sg.st].Apply(sg.text))
	}
	return b.String()
}

// layoutLines wraps the nodes to width. Every line is exactly width cells.
func layoutLines(nodes []node, width int) []dline {
	nameCol := nameColumn(nodes, width)
	valueCol := nameCol + 1 + typeWidth + 1
	valueW := width - valueCol
	var out []dline
	emit := func(segs ...seg) { out = append(out, dline(segs)) }
	for i, n := range nodes {
		if len(out) >= maxLines {
			rest := len(nodes) - i
			out = out[:maxLines]
			out[maxLines-1] = dline{{inert.Pad("… "+strconv.Itoa(rest)+" more attributes and elements not shown (c copies the whole item)", width), stMuted}}
			break
		}
		indent := min(n.depth*2, width/2)
		switch n.kind {
		case kindProblem, kindNote:
			if n.typ != "" { // a missing attribute: name column, no value
				line := inert.Pad(strings.Repeat(" ", indent)+n.name, nameCol) + " " + inert.Pad(n.typ, typeWidth) + " "
				emit(seg{inert.Pad(line+n.value, width), stMissing})
				continue
			}
			st, mark := stProblem, "! "
			if n.kind == kindNote {
				st, mark = stMuted, "· "
			}
			pre := strings.Repeat(" ", indent) + mark
			for _, l := range wrapValue(n.value, width-inert.Width(pre), maxValueLines) {
				emit(seg{inert.Pad(pre+l, width), st})
				pre = strings.Repeat(" ", inert.Width(pre))
			}
			continue
		}
		name := inert.Pad(strings.Repeat(" ", indent)+inert.String(n.name), nameCol)
		typ := inert.Pad(n.typ, typeWidth)
		valSt, nameSt := stValue, stKey
		if n.secret {
			valSt = stSecret
		}
		if n.flag {
			nameSt = stFlag
		}
		if valueW < 12 {
			// Too narrow for a value column: value on its own lines below.
			if width >= valueCol {
				emit(seg{name, nameSt}, seg{" ", stPlain}, seg{typ, stType}, seg{strings.Repeat(" ", width-nameCol-1-typeWidth), stPlain})
			} else { // tinier than name and type: one cut line
				emit(seg{inert.Pad(name+" "+typ, width), nameSt})
			}
			pre := strings.Repeat(" ", min(indent+2, width/2))
			for _, l := range wrapValue(n.value, width-len(pre), maxValueLines) {
				emit(seg{pre, stPlain}, seg{inert.Pad(l, width-len(pre)), valSt})
			}
			continue
		}
		lines := wrapValue(n.value, valueW, maxValueLines)
		emit(seg{name, nameSt}, seg{" ", stPlain}, seg{typ, stType}, seg{" ", stPlain}, seg{inert.Pad(lines[0], valueW), valSt})
		cont := strings.Repeat(" ", valueCol)
		for _, l := range lines[1:] {
			emit(seg{cont, stPlain}, seg{inert.Pad(l, valueW), valSt})
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
