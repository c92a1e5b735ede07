package screen

import (
	"strings"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// A terminal measures text one of two ways. One that has grapheme widths
// on (mode 2027: ghostty, WezTerm, foot, …) measures a cluster as the
// console's layout does: `☂️` (an umbrella and the emoji presentation
// selector) and the keycap `1️⃣` are two cells. Most others, tmux among
// them, add up the widths of the runes: both are one cell, and every column
// after them on the row lands one cell left of its header, as does the
// cursor, so the renderer's next move is off too.
//
// Until the terminal has said it measures clusters (ModeReport), a cell
// whose cluster the two ways measure differently is written as text both
// measure alike, padded with spaces to the cell's width: the cluster
// without its presentation selector (`☂`, `1⃣`), else its first rune,
// else U+FFFD. What the operator reads is the same character, only drawn
// as text rather than as an emoji, and every column stays under its header.

// safeLine rewrites line y of buf so that each of its cells measures the
// same on either kind of terminal.
func safeLine(buf *uv.RenderBuffer, y int) {
	line := buf.Line(y)
	for x := 0; x < len(line); x++ {
		c := line.At(x)
		if c == nil || c.Width == 0 || len(c.Content) < 2 { // ASCII measures alike
			continue
		}
		if ansi.WcWidth.StringWidth(c.Content) == c.Width {
			continue
		}
		text, w := terminalSafe(c.Content, c.Width)
		style, link, width := c.Style, c.Link, c.Width
		buf.SetCell(x, y, &uv.Cell{Content: text, Width: w, Style: style, Link: link})
		for i := w; i < width; i++ {
			buf.SetCell(x+i, y, &uv.Cell{Content: " ", Width: 1, Style: style, Link: link})
		}
		x += width - 1
	}
}

// terminalSafe is cluster as text both ways of measuring give the same
// width, at most width cells, and that width.
func terminalSafe(cluster string, width int) (string, int) {
	agree := func(s string) (int, bool) {
		g := ansi.GraphemeWidth.StringWidth(s)
		return g, s != "" && g > 0 && g <= width && g == ansi.WcWidth.StringWidth(s)
	}
	plain := strings.Map(func(r rune) rune {
		if r == '\uFE0F' || r == '\uFE0E' {
			return -1
		}
		return r
	}, cluster)
	if w, ok := agree(plain); ok {
		return plain, w
	}
	r, _ := utf8.DecodeRuneInString(cluster)
	if first := string(r); r != utf8.RuneError {
		if w, ok := agree(first); ok {
			return first, w
		}
	}
	return "\uFFFD", 1
}
