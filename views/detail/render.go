package detail

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"charm.land/lipgloss/v2"

	"opsdeck/themes"
	"opsdeck/views/inert"
)

const (
	// maxLines caps the whole tree. A value is wrapped whole, so it can be
	// read to its end (a 400 KB item is about 3,300 lines at 160 columns
	// and 24,000 at 20); only an item of tens of thousands of attributes
	// and elements is cut, and says so.
	maxLines  = 60000
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
			for _, l := range wrapValue(n.value, width-inert.Width(pre)) {
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
			for _, l := range wrapValue(n.value, width-len(pre)) {
				emit(seg{pre, stPlain}, seg{inert.Pad(l, width-len(pre)), valSt})
			}
			continue
		}
		lines := wrapValue(n.value, valueW)
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

// wrapValue sanitises and hard-wraps a value to width, whole: every part
// of a value can be read by scrolling to it. A printable ASCII value (ids,
// ARNs, tokens, base64: nearly all of them) is cut every width bytes
// without copying; others are wrapped by display cells.
func wrapValue(raw string, width int) []string {
	if width < 1 {
		width = 1
	}
	s := inert.String(raw)
	if s == "" {
		return []string{""}
	}
	if printableASCII(s) {
		lines := make([]string, 0, (len(s)+width-1)/width)
		for len(s) > width {
			lines = append(lines, s[:width])
			s = s[width:]
		}
		return append(lines, s)
	}
	return strings.Split(ansi.Hardwrap(s, width, true), "\n")
}

// printableASCII reports whether every byte of s is in 0x20..0x7e: a byte
// is a cell.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
