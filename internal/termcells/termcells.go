// Package termcells draws a frame into a real terminal emulator
// (github.com/charmbracelet/x/vt) and reads back what its cells show, so a
// test asserts what the operator would see, not the string a View returns:
// escape sequences are interpreted, wide characters take two cells, and a
// line one cell too wide wraps as it would on a terminal.
//
// It is for tests; it lives outside _test files only so that the ui and
// views packages' tests can share it.
package termcells

import (
	"strings"

	"github.com/charmbracelet/x/vt"
)

// Screen is what a w×h terminal shows after a frame was written to it.
type Screen struct {
	emu   *vt.Emulator
	w, h  int
	cells [][]string // read once: rows of cells (Row)
}

// Draw writes frame (lines joined by "\n", as a View returns them) to a
// fresh w×h emulator, each line from the first column, as a renderer does.
func Draw(frame string, w, h int) *Screen { return New(w, h).Draw(frame, w, h) }

// Terminal is one emulator reused for many frames: making one costs more
// than drawing a frame into it.
type Terminal struct{ emu *vt.Emulator }

// New returns a w×h terminal.
func New(w, h int) *Terminal {
	emu := vt.NewEmulator(w, h)
	emu.SetScrollbackSize(0) // a test reads the screen only
	return &Terminal{emu: emu}
}

// Draw clears the terminal (resized to w×h), writes frame from the top
// left and returns what it shows.
func (t *Terminal) Draw(frame string, w, h int) *Screen {
	if t.emu.Width() != w || t.emu.Height() != h {
		t.emu.Resize(w, h)
	}
	// Plain attributes, cursor home, screen erased (ED 0: 2J would copy
	// the screen into the scrollback); a line feed alone
	// does not return the carriage on a terminal.
	_, _ = t.emu.Write([]byte("\x1b[0m\x1b[H\x1b[J" + strings.ReplaceAll(frame, "\n", "\r\n")))
	s := &Screen{emu: t.emu, w: w, h: h, cells: make([][]string, h)}
	for y := range s.cells {
		s.cells[y] = s.read(y)
	}
	return s
}

// Row returns the cells of row y, left to right: each cell's grapheme, ""
// for the second cell of a wide character.
func (s *Screen) Row(y int) []string { return s.cells[y] }

func (s *Screen) read(y int) []string {
	out := make([]string, s.w)
	for x := range out {
		c := s.emu.CellAt(x, y)
		switch {
		case c == nil:
			out[x] = " "
		case c.Width == 0 && c.Content == "":
			out[x] = "" // the second half of a wide character
		case c.Content == "":
			out[x] = " "
		default:
			out[x] = c.Content
		}
	}
	return out
}

// Span is the text of cells x0..x1-1 of row y.
func (s *Screen) Span(y, x0, x1 int) string {
	return strings.Join(s.Row(y)[max(x0, 0):min(x1, s.w)], "")
}

// Line returns the text in row y, trailing spaces kept.
func (s *Screen) Line(y int) string { return s.Span(y, 0, s.w) }

// Lines returns every row (see Line).
func (s *Screen) Lines() []string {
	out := make([]string, s.h)
	for y := range out {
		out[y] = s.Line(y)
	}
	return out
}

// String is the screen's rows joined by newlines, for failure messages.
func (s *Screen) String() string { return strings.Join(s.Lines(), "\n") }

// Cursor is where the emulator's cursor ended: a frame that wrapped or
// scrolled moves it past the last row.
func (s *Screen) Cursor() (x, y int) {
	p := s.emu.CursorPosition()
	return p.X, p.Y
}
