package streamview

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// Tenant values that would act on a terminal if printed raw.
var hostile = []string{
	"\x1b[2J\x1b[H",                    // clear screen
	"\x1b]52;c;ZXZpbA==\x07",           // OSC 52: write the clipboard
	"\x1b]0;pwned\x1b\\",               // set the window title
	"evil\u202emoc.elgoog",             // bidi override
	"zero\u200bwidth",                  // zero-width space
	"bad\xff\xfeutf8",                  // invalid UTF-8
	"\x9b31mC1 CSI",                    // C1 CSI as a raw byte
	"tab\tnew\nline\rret",              // layout controls
	strings.Repeat("\x1b[31m", 10_000), // huge and hostile
}

// assertInert fails if the screen holds anything a terminal would act on.
// The test theme has no styles, so every ESC on screen would be data.
func assertInert(t *testing.T, where, screen string) {
	t.Helper()
	if !utf8.ValidString(screen) {
		t.Fatalf("%s: invalid UTF-8 reached the screen", where)
	}
	for _, r := range screen {
		switch {
		case r == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			t.Fatalf("%s: control %U reached the screen", where, r)
		case r == 0x202e || r == 0x200b || r == 0xfeff:
			t.Fatalf("%s: format character %U reached the screen", where, r)
		}
	}
}

func TestHostileStringsAreInert(t *testing.T) {
	m := newModel(0)
	var recs []stream.Record
	for i, h := range hostile {
		old := img("sessionId", h, "status", h, h, h, "nested", avM(h, avL(avS(h))))
		new := img("sessionId", h, "status", "x"+h, "other"+h, h, "nested", avM(h, avL(avS(h), avS(h))))
		r := session("MODIFY", h, old, new, i)
		r.EventName = []string{"MODIFY", h}[i%2] // even the event name
		recs = append(recs, r)
		recs = append(recs, stream.Record{Table: data.TableID(h), TableName: h, EventName: "INSERT",
			Keys: img("k", h), New: img("k", h, "b", &types.AttributeValueMemberB{Value: []byte(h)})})
	}
	m.Append(recs)
	for _, size := range [][2]int{{120, 40}, {80, 24}, {20, 5}} {
		m.SetSize(size[0], size[1])
		assertInert(t, "list", m.View())
		press(m, "g")
		for i := 0; i < len(recs); i++ {
			press(m, "enter")
			assertInert(t, "diff", m.View())
			press(m, "G")
			assertInert(t, "diff bottom", m.View())
			press(m, "esc", "j")
		}
	}
	assertInert(t, "title", m.Title())
	press(m, "/")
	typeText(m, "\x1b[2J")
	assertInert(t, "filter prompt", m.View())
	for _, r := range recs {
		cells := rowCells(r, t0, m.loc, nil, nil)
		assertInert(t, "cached cells", strings.Join(cells[:], " "))
	}
}

// The view keeps its shape with hostile data: exactly height lines of
// exactly width cells, so the tab bar and status bar around it stay put.
func TestHostileStringsKeepTheLayout(t *testing.T) {
	m := newModel(0)
	for i, h := range hostile {
		m.Append([]stream.Record{insert(h+"伝統的な長いキー", h, i)})
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m.SetSize(size[0], size[1])
		lines := strings.Split(m.View(), "\n")
		if len(lines) != size[1] {
			t.Fatalf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := displayWidth(l); w != size[0] {
				t.Fatalf("%dx%d: line of width %d: %q", size[0], size[1], w, l)
			}
		}
	}
}

// Tiny terminals: the pane never draws more lines or wider lines than asked.
func TestTinySizesKeepTheLayout(t *testing.T) {
	m := newModel(0)
	m.Append(demoRecords())
	for _, size := range [][2]int{{1, 1}, {5, 2}, {12, 3}, {30, 4}, {45, 10}} {
		for _, diff := range []bool{false, true} {
			m.SetSize(size[0], size[1])
			if diff {
				press(m, "enter")
			}
			lines := strings.Split(m.View(), "\n")
			if len(lines) != size[1] {
				t.Fatalf("%v diff=%v: %d lines", size, diff, len(lines))
			}
			for _, l := range lines {
				if w := displayWidth(l); w != size[0] {
					t.Fatalf("%v diff=%v: line width %d: %q", size, diff, w, l)
				}
			}
			if diff {
				press(m, "esc")
			}
		}
	}
}
