package screen

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// BenchmarkFrameWrite is the screen's cost to write a changed frame: a
// whole 160×48 screen of styled rows, then the next with every row changed
// (a key that opens the help screen), or with one row changed (a cursor
// move).
func BenchmarkFrameWrite(b *testing.B) {
	frame := func(seed int) string {
		lines := make([]string, 48)
		for i := range lines {
			text := fmt.Sprintf(" sess_%014d  RUNNING   ACTIVE   bench-100k   %dh ago   in %dm ", i+seed, i%7, i%59)
			lines[i] = "\x1b[38;2;95;175;255m" + text + "\x1b[m" + strings.Repeat(" ", 160-len(text))
		}
		return strings.Join(lines, "\n")
	}
	for _, bc := range []struct {
		name string
		next func(i int) string
	}{
		{"every-row", func(i int) string { return frame(i % 2 * 100) }},
		{"one-row", func(i int) string {
			f := frame(0)
			if i%2 == 1 {
				f = strings.Replace(f, "RUNNING", "STOPPED", 1)
			}
			return f
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := newScreen(Options{Out: io.Discard, Width: 160, Height: 48, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color"}})
			s.Show(frame(0), "")
			s.draw()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Show(bc.next(i+1), "")
				s.draw()
			}
		})
	}
}
