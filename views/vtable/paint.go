package vtable

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// paint is a style reduced to the escape sequences around its text. Calling
// lipgloss's Render for every cell of every frame costs more than the whole
// rest of the table (it measures, aligns and pads each string); a style that
// only sets colours and emphasis is just "prefix text suffix", so we compute
// that once per theme and concatenate.
type paint struct{ pre, suf string }

func (p paint) apply(s string) string {
	if p.pre == "" && p.suf == "" {
		return s
	}
	return p.pre + s + p.suf
}

// sentinel is rendered through the style to find its prefix and suffix; SGR
// sequences never contain it.
const sentinel = "X"

// paintOf reduces a style. A style with layout properties (padding, width,
// borders) would change the width of the text; such a style is not a pure
// colour, so only its colours and emphasis are kept.
func paintOf(st lipgloss.Style) paint {
	r := st.Render(sentinel)
	if ansi.StringWidth(r) != 1 || strings.Contains(r, "\n") {
		st = colourOnly(st)
		r = st.Render(sentinel)
	}
	i := strings.Index(r, sentinel)
	if i < 0 || ansi.StringWidth(r) != 1 {
		return paint{}
	}
	return paint{pre: r[:i], suf: r[i+len(sentinel):]}
}

// colourOnly keeps the properties that do not affect width.
func colourOnly(st lipgloss.Style) lipgloss.Style {
	return lipgloss.NewStyle().
		Foreground(st.GetForeground()).
		Background(st.GetBackground()).
		Bold(st.GetBold()).
		Italic(st.GetItalic()).
		Underline(st.GetUnderline()).
		Strikethrough(st.GetStrikethrough()).
		Reverse(st.GetReverse()).
		Faint(st.GetFaint())
}

// paints holds the theme's row styles, reduced once per SetTheme, and a small
// cache for cell styles (keyed by pointer: callers usually share one style
// per status word).
type paints struct {
	row, marked, muted, selected, header paint
	hlRow, hlMarked, hlMuted             paint
	cells                                map[*lipgloss.Style]paint
}

const maxCellPaints = 256

func (m *Model) repaint() {
	th := m.theme
	m.paints = &paints{
		row:      paintOf(th.Row),
		marked:   paintOf(th.Marked),
		muted:    paintOf(th.Muted),
		selected: paintOf(th.Selected),
		header:   paintOf(th.Header),
		hlRow:    paintOf(th.Highlight.Inherit(th.Row)),
		hlMarked: paintOf(th.Highlight.Inherit(th.Marked)),
		hlMuted:  paintOf(th.Highlight.Inherit(th.Muted)),
		cells:    make(map[*lipgloss.Style]paint),
	}
}

// cellPaint returns the paint for a cell style, caching it. The cache is
// shared by copies of the model; it is only touched from View/Update, which
// bubbletea runs on one goroutine.
func (p *paints) cellPaint(st *lipgloss.Style) paint {
	if c, ok := p.cells[st]; ok {
		return c
	}
	if len(p.cells) >= maxCellPaints {
		clear(p.cells)
	}
	c := paintOf(*st)
	p.cells[st] = c
	return c
}
