package detail

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data/secret"
	"opsdeck/internal/termcells"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// readValue pages through the detail view, drawing every page in a
// terminal emulator, and returns the value shown for top-level attribute
// name: its first line's value cells and those of every continuation line
// after it, joined.
func readValue(t *testing.T, m Model, name string) string {
	t.Helper()
	w := m.width
	valueCol := nameColumn(m.nodes, w) + 1 + typeWidth + 1
	term := termcells.New(w, m.height)
	var parts []string
	in := false
	for off := 0; off < m.Lines(); off += m.bodyHeight() {
		m.offset = off
		scr := term.Draw(m.View(), w, m.height)
		for y := 1; y < m.height && off+y-1 < m.Lines(); y++ {
			head := strings.TrimRight(scr.Span(y, 0, valueCol), " ")
			switch {
			case strings.HasPrefix(head, name+" "):
				in = true
			case head != "":
				if in {
					return strings.Join(parts, "")
				}
				continue
			}
			if in {
				parts = append(parts, strings.TrimRight(scr.Span(y, valueCol, w), " "))
			}
		}
	}
	if !in {
		t.Fatalf("%s not on any page", name)
	}
	return strings.Join(parts, "")
}

// TestLongValuesReadWhole: every value can be read whole by scrolling —
// an ecsTaskArn at 80 columns, a revealed signing key at the end of a
// 40 KB value at 160, wide characters and escapes — and none is cut.
func TestLongValuesReadWhole(t *testing.T) {
	key := "hs_huge_Q7xV9kP2mW4rT8bN3cY6hJ1d"
	// 40 KB: 300 lines at 160 columns, past the 200 lines a value was once
	// cut to (TestHugeItem lays out and reaches the end of 390 KB).
	huge := strings.Repeat("frame-0123456789abcdef;", 40*1024/23) + "last: wss://203.0.113.66:9223/cdp?signingKey=" + key
	values := map[string]string{
		"ecsTaskArn": "arn:aws:ecs:us-east-1:418295036614:task/wallcrawler-browsers/e3b9f2f3b1ded4be4f28941dd90bb702",
		"debugDump":  huge,
		"wide":       strings.Repeat("日本語のセッション識別子", 20),
		"escapes":    strings.Repeat("a\x1b[2Jb\u202ec\x00d\n", 30),
	}
	item := map[string]types.AttributeValue{}
	for k, v := range values {
		item[k] = s(v)
	}
	for _, w := range []int{80, 160, 40} {
		m := New(item, Options{Theme: themes.Dark(), Mask: secret.Default, Reveal: true})
		m.SetSize(w, 24)
		for name, v := range values {
			if name == "debugDump" && w != 160 {
				continue // one width is proof enough: pages cost emulator time
			}
			if got, want := readValue(t, m, name), inert.String(v); got != want {
				if len(got) > 200 {
					got = "…" + got[len(got)-200:]
				}
				t.Errorf("%d columns: %s reads %q, want the whole value (%d bytes)", w, name, got, len(want))
			}
		}
	}
}
