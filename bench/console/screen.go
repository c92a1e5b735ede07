package console

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/vt"
)

// Screen is what an operator would see of the console: everything the
// program writes goes into a real terminal emulator (charmbracelet/x/vt),
// and the benchmarks and tests read its rows as text. Feed it the
// program's output in any chunks. Its methods are not safe for concurrent
// use (the harness holds its lock).
//
// The emulator's answers to the program's questions (DECRQM, colours) are
// dropped: nothing carries them back to the program, as before, so a run
// is the same as on a terminal that does not answer. A test that needs an
// answer writes it to the pty itself.
type Screen struct {
	emu *vt.Emulator
}

// NewScreen returns a blank w×h screen.
func NewScreen(w, h int) *Screen {
	s := &Screen{emu: vt.NewEmulator(w, h)}
	// The emulator writes its answers to a pipe: read them, or its next
	// Write blocks. The emulator is never closed (its Close races with
	// this read in x/vt v0.1.0): the reader ends with the test process.
	go func() { _, _ = io.Copy(io.Discard, s.emu) }()
	return s
}

// Write applies p. It never fails.
func (s *Screen) Write(p []byte) (int, error) {
	return s.emu.Write(p)
}

// Line returns row i as text, trailing blanks kept (a wide character's
// second column adds nothing).
func (s *Screen) Line(i int) string {
	if i < 0 || i >= s.emu.Height() {
		return ""
	}
	var b strings.Builder
	for x := 0; x < s.emu.Width(); x++ {
		c := s.emu.CellAt(x, i)
		switch {
		case c == nil || c.Content == "" && c.Width > 0:
			b.WriteByte(' ')
		case c.Width == 0:
		default:
			b.WriteString(c.Content)
		}
	}
	return b.String()
}

// Lines returns every row.
func (s *Screen) Lines() []string {
	out := make([]string, s.emu.Height())
	for i := range out {
		out[i] = s.Line(i)
	}
	return out
}

// Contains reports whether any row contains sub.
func (s *Screen) Contains(sub string) bool {
	for i := 0; i < s.emu.Height(); i++ {
		if strings.Contains(s.Line(i), sub) {
			return true
		}
	}
	return false
}
