package vtable

import (
	"testing"

	"opsdeck/themes"
)

// FuzzView feeds arbitrary cell text, tags and sizes to the renderer: every
// frame keeps its shape and lets no control through.
func FuzzView(f *testing.F) {
	f.Add("\x1b[2J", "\u202e", "!", 80, 10)
	f.Add("日本語🎉", "\xff\xfe", "~", 7, 3)
	f.Add("\x1b]52;c;aGk=\x07", "a\nb", "\x9b", 200, 24)
	f.Fuzz(func(t *testing.T, a, b, tag string, w, h int) {
		w, h = abs(w)%250, abs(h)%60
		m := New(cols3(), themes.Dark())
		m.SetSize(w, h)
		m.SetRows([]Row{
			{ID: a, Tag: tag, Cells: []Cell{{Text: a}, {Text: b}, {Text: a + b}}},
			{ID: b, Tag: a, Cells: []Cell{{Text: b}, {Text: a}}},
			{ID: "x", Dim: true, Cells: []Cell{{Text: tag}}},
		})
		m.MoveDown(1)
		m.ToggleMark()
		checkFrame(t, m.View(), w, h)
		m.SetFilter(a)
		checkFrame(t, m.View(), w, h)
	})
}

func abs(x int) int {
	if x < 0 {
		if -x < 0 { // MinInt
			return 0
		}
		return -x
	}
	return x
}
