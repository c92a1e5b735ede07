package console

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// The screen model is checked against the renderer bubbletea itself uses:
// frames built to exercise its optimisations (scrolls, inserted and deleted
// lines, repeated characters, cells left in place, wide characters) are
// rendered by ultraviolet, written to the Screen in arbitrary chunks, and
// the Screen must then read exactly the frame's text.
func TestScreenFollowsRenderer(t *testing.T) {
	for _, tc := range []struct {
		name            string
		term            string // picks the sequences the renderer may use
		hardTabs, bs    bool
		scrollOptimised bool
	}{
		{"plain", "xterm-256color", false, false, false},
		{"scroll-optimised", "xterm-256color", false, false, true},
		{"tabs-and-backspace", "xterm-256color", true, true, true},
		{"repeat-and-hpa", "alacritty", true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const w, h = 60, 20
			var out bytes.Buffer
			r := uv.NewTerminalRenderer(&out, []string{"TERM=" + tc.term})
			r.SetFullscreen(true)
			r.SetRelativeCursor(false)
			r.SetScrollOptim(tc.scrollOptimised)
			if tc.hardTabs {
				r.SetTabStops(w)
			} else {
				r.SetTabStops(-1)
			}
			r.SetBackspace(tc.bs)
			r.EnterAltScreen()
			buf := uv.NewScreenBuffer(w, h)
			scr := NewScreen(w, h)
			rng := rand.New(rand.NewPCG(7, 11))
			lines := make([]string, h)
			for i := range lines {
				lines[i] = randomLine(rng, w)
			}
			for frame := 0; frame < 400; frame++ {
				mutate(rng, lines, w)
				buf.Clear()
				uv.NewStyledString(strings.Join(lines, "\n")).Draw(buf, buf.Bounds())
				r.Render(buf.RenderBuffer)
				if err := r.Flush(); err != nil {
					t.Fatal(err)
				}
				// Odd chunk sizes split sequences and UTF-8 characters.
				b := out.Bytes()
				for len(b) > 0 {
					n := min(len(b), 1+rng.IntN(17))
					scr.Write(b[:n])
					b = b[n:]
				}
				out.Reset()
				for y := range lines {
					want := ansi.Strip(lines[y])
					want += strings.Repeat(" ", w-ansi.StringWidth(want))
					if got := scr.Line(y); got != want {
						t.Fatalf("frame %d line %d:\n got %q\nwant %q", frame, y, got, want)
					}
				}
			}
		})
	}
}

var words = []string{"sess_0000abc", "RUNNING", "STOPPED", "·", "…", "│", "↓", "99900 rows",
	"100000 rows", "loading…", "──────", strings.Repeat("─", 30), strings.Repeat("z", 25), "     ", "aaaaaaa", "日本語", "x", "p-1", "2m ago"}

var styles = []lipgloss.Style{
	lipgloss.NewStyle(),
	lipgloss.NewStyle().Bold(true),
	lipgloss.NewStyle().Foreground(lipgloss.Color("#5FAFFF")),
	lipgloss.NewStyle().Background(lipgloss.Color("#303030")).Foreground(lipgloss.Color("#FFFFFF")),
}

func randomLine(rng *rand.Rand, w int) string {
	var b strings.Builder
	width := 0
	for {
		word := words[rng.IntN(len(words))]
		ww := ansi.StringWidth(word) + 1
		if width+ww > w || rng.IntN(12) == 0 {
			break
		}
		b.WriteString(styles[rng.IntN(len(styles))].Render(word))
		b.WriteString(" ")
		width += ww
	}
	return b.String()
}

func mutate(rng *rand.Rand, lines []string, w int) {
	h := len(lines)
	switch rng.IntN(7) {
	case 0: // a few lines change
		for k := rng.IntN(3) + 1; k > 0; k-- {
			lines[rng.IntN(h)] = randomLine(rng, w)
		}
	case 1: // insert a line, the rest shift down
		at := rng.IntN(h)
		copy(lines[at+1:], lines[at:h-1])
		lines[at] = randomLine(rng, w)
	case 2: // delete a line, the rest shift up
		at := rng.IntN(h)
		copy(lines[at:], lines[at+1:])
		lines[h-1] = randomLine(rng, w)
	case 3: // scroll a region by several lines
		top := rng.IntN(h / 2)
		n := rng.IntN(5) + 1
		copy(lines[top:], lines[top+n:])
		for i := h - n; i < h; i++ {
			lines[i] = randomLine(rng, w)
		}
	case 4: // a counter grows in place
		lines[1] = fmt.Sprintf("Sessions · status RUNNING %*s", 20, fmt.Sprintf("%d rows", rng.IntN(200000)))
	case 5: // everything new
		for i := range lines {
			lines[i] = randomLine(rng, w)
		}
	case 6: // a blank stretch, then text
		lines[rng.IntN(h)] = ""
		lines[rng.IntN(h)] = strings.Repeat(" ", rng.IntN(w-10)) + "end"
	}
}
