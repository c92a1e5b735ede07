package inert

import (
	"strings"
	"testing"
)

var sink string

func BenchmarkString(b *testing.B) {
	clean := strings.Repeat("sess-0123456789 RUNNING proj-42 ", 4)
	unicodeClean := strings.Repeat("セッション RUNNING ñandú ", 4)
	dirty := strings.Repeat("sess-\x1b[2J0123\u202e RUNNING\xff ", 4)
	for _, c := range []struct{ name, s string }{
		{"clean-ascii", clean}, {"clean-unicode", unicodeClean}, {"dirty", dirty},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				sink = String(c.s)
			}
		})
	}
}

func BenchmarkLine(b *testing.B) {
	s := strings.Repeat("sess-0123456789 RUNNING proj-42 ", 4)
	b.ReportAllocs()
	for b.Loop() {
		sink = Line(s, 24)
	}
}
