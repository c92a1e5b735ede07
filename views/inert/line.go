package inert

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Ellipsis marks text cut to fit.
const Ellipsis = "…"

// Line returns String(s) cut to at most width terminal cells, ending in an
// ellipsis when something was cut. Widths are display cells (wide CJK and
// emoji count two), measured the way lipgloss measures them.
func Line(s string, width int) string {
	if width <= 0 {
		return ""
	}
	// A string can't be wider than its byte length for ASCII, and never more
	// than twice the rune count; skip work on short strings.
	s = String(limitBytes(s, width))
	if printableASCII(s) {
		// The common case (ids, statuses, timestamps): one byte, one cell.
		if len(s) <= width {
			return s
		}
		return s[:width-1] + Ellipsis
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, Ellipsis)
}

// limitBytes drops the tail of a huge string before sanitising: no cell can
// show more than width characters, and each character is at least one byte,
// so 8*width+8 bytes is plenty even after escapes grow it. This keeps Line
// O(width), not O(len(s)), for the 390 KB value in a table cell.
func limitBytes(s string, width int) string {
	max := 8*width + 8
	if len(s) <= max {
		return s
	}
	return s[:max] + "  " // trailing filler guarantees the ellipsis is shown
}

// Width is the display width of an already sanitised string.
func Width(s string) int {
	if printableASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// printableASCII reports whether every byte is in 0x20..0x7e, where width
// equals length and no grapheme segmentation is needed.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// Pad returns String(s) cut or right-padded with spaces to exactly width
// cells.
func Pad(s string, width int) string {
	s = Line(s, width)
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
