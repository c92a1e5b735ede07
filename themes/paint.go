package themes

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Paint is a style reduced to the escape sequences around its text.
// lipgloss's Render measures, aligns and pads every string it is given; for
// a style that only sets colours and emphasis that is just "prefix text
// suffix", so hot paths (table cells, detail lines) compute the Paint once per
// theme and concatenate.
type Paint struct{ Pre, Suf string }

// Apply wraps s, which must already be sanitised and sized.
func (p Paint) Apply(s string) string {
	if p.Pre == "" && p.Suf == "" {
		return s
	}
	return p.Pre + s + p.Suf
}

// paintSentinel is rendered through the style to find its prefix and suffix;
// SGR sequences never contain it.
const paintSentinel = "X"

// PaintOf reduces a style. A style with layout properties (padding, width,
// borders, margins) would change the width of the text, so for such a style
// only its colours and emphasis are kept.
func PaintOf(st lipgloss.Style) Paint {
	r := st.Render(paintSentinel)
	if lipgloss.Width(r) != 1 || strings.Contains(r, "\n") {
		r = colourOnly(st).Render(paintSentinel)
	}
	i := strings.Index(r, paintSentinel)
	if i < 0 || lipgloss.Width(r) != 1 {
		return Paint{}
	}
	return Paint{Pre: r[:i], Suf: r[i+len(paintSentinel):]}
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
