package screen

import (
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

func TestAClusterWithTwoWidthsIsWrittenAsOneWithOne(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"☂️", "☂ "},   // umbrella, emoji presentation: two cells, tmux one
		{"1️⃣", "1⃣ "}, // keycap
		{"⚠️", "⚠ "},
		{"👩\u200d💻", "👩"},      // a ZWJ sequence: the first person, two cells both ways
		{"🙂", "🙂"},             // wide both ways: kept
		{"한", "한"},             // likewise
		{"e\u0301", "e\u0301"}, // one cell both ways: kept
		{"a☂️b", "a☂ b"},
	}
	for _, c := range cases {
		w := ansi.StringWidth(c.in)
		buf := uv.NewScreenBuffer(w, 1)
		buf.Method = ansi.GraphemeWidth
		uv.NewStyledString(c.in).Draw(buf, uv.Rect(0, 0, w, 1))
		safeLine(buf.RenderBuffer, 0)
		got := ""
		for x := 0; x < w; x++ {
			if cell := buf.CellAt(x, 0); cell != nil && cell.Width > 0 {
				got += cell.Content
				if ansi.GraphemeWidth.StringWidth(cell.Content) != ansi.WcWidth.StringWidth(cell.Content) {
					t.Errorf("%q: cell %q still measures two ways", c.in, cell.Content)
				}
			}
		}
		if got != c.want {
			t.Errorf("%q is written %q, want %q", c.in, got, c.want)
		}
	}
}
