package views

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/detail"
	"opsdeck/views/streamview"
)

// fuzzSecret is planted by the item generator only where the masker must
// find it.
const fuzzSecret = "Zq9X7vKp2LmW4rTb8NcY3hJd"

// itemGen builds items of every attribute type and nesting from fuzz
// bytes, with hostile characters in names and values, and the secret in
// places a credential lives (under secret names in any type, in URLs).
type itemGen struct{ b []byte }

func (g *itemGen) next() int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0])
	g.b = g.b[1:]
	return c
}

var (
	fuzzNames = []string{"sessionId", "signingKey", "connectUrl", "note", "status", "m", "token", "\x1b[2J", "\u202ename",
		"a\u200bb", "apiKey", "[0]", "x\x00y", "日本"}
	fuzzWords = []string{"ok", "\x1b[2J", "\x1b]52;c;aGk=\x07", "\u202e", "\u2028", "\u009b", "\xff\xfe", "\t", "\r\n",
		"wss://h:9223/cdp", "?x=1", "🎉", "\u200b", "\U000e0041", "=", ":", "@"}
)

func (g *itemGen) text() string {
	var b strings.Builder
	for n := g.next() % 4; n > 0; n-- {
		b.WriteString(fuzzWords[g.next()%len(fuzzWords)])
	}
	return b.String()
}

func (g *itemGen) value(depth int, secretName bool) types.AttributeValue {
	planted := func() string {
		if secretName {
			return fuzzSecret
		}
		return "wss://h/cdp?signingKey=" + fuzzSecret
	}
	c := g.next() % 11
	if depth > 5 {
		c %= 8
	}
	switch c {
	case 0:
		if g.next()%3 == 0 {
			return &types.AttributeValueMemberS{Value: g.text() + " " + planted() + " " + g.text()}
		}
		return &types.AttributeValueMemberS{Value: g.text()}
	case 1:
		if secretName {
			return &types.AttributeValueMemberN{Value: "98765432109876543210"}
		}
		return &types.AttributeValueMemberN{Value: strconv.Itoa(g.next()*7919) + ".5"}
	case 2:
		if secretName || g.next()%3 == 0 {
			return &types.AttributeValueMemberB{Value: []byte(planted())}
		}
		return &types.AttributeValueMemberB{Value: []byte(g.text())}
	case 3:
		return &types.AttributeValueMemberBOOL{Value: g.next()%2 == 0}
	case 4:
		return &types.AttributeValueMemberNULL{Value: true}
	case 5:
		return &types.AttributeValueMemberSS{Value: []string{g.text() + "s", planted()}}
	case 6:
		return &types.AttributeValueMemberNS{Value: []string{"1", "123456789012345678901234567890"}}
	case 7:
		return &types.AttributeValueMemberBS{Value: [][]byte{[]byte(g.text()), []byte(planted())}}
	case 8, 9:
		m := map[string]types.AttributeValue{}
		for n := g.next() % 4; n > 0; n-- {
			k := fuzzNames[g.next()%len(fuzzNames)]
			m[k] = g.value(depth+1, secretName || secret.SecretName(k))
		}
		return &types.AttributeValueMemberM{Value: m}
	default:
		var l []types.AttributeValue
		for n := g.next() % 4; n > 0; n-- {
			l = append(l, g.value(depth+1, secretName))
		}
		return &types.AttributeValueMemberL{Value: l}
	}
}

// liveControl reports a character that would act on a terminal: anything
// but SGR styling that is not printable.
func liveControl(frame string) (rune, bool) {
	if !utf8.ValidString(frame) {
		return utf8.RuneError, true
	}
	for _, r := range ansi.Strip(frame) {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e || r == 0x2066 ||
			r == 0x200b || r == 0x2028 || r == 0xfeff || r >= 0xe0000 && r <= 0xe007f {
			return r, true
		}
	}
	return 0, false
}

// FuzzRenderItem: whatever an item holds (every type, any nesting, hostile
// names and values), the detail view, its JSON copy, the Stream pane's row
// and its comparison draw nothing a terminal would act on and show no
// planted secret until it is revealed.
func FuzzRenderItem(f *testing.F) {
	f.Add([]byte{3, 1, 0, 0, 0, 8, 2, 2, 0}, uint8(80), uint8(24))
	f.Add([]byte{4, 2, 9, 2, 1, 2, 5, 3, 7, 10, 2, 0, 6}, uint8(40), uint8(10))
	f.Add([]byte("signingKey as a list, a map, a set and bytes"), uint8(120), uint8(40))
	f.Fuzz(func(t *testing.T, b []byte, w8, h8 uint8) {
		w, h := int(w8)%160+20, int(h8)%50+6
		g := &itemGen{b: b}
		item := map[string]types.AttributeValue{"sessionId": &types.AttributeValueMemberS{Value: "sess_" + g.text()}}
		for n := g.next()%4 + 1; n > 0; n-- {
			k := fuzzNames[g.next()%len(fuzzNames)]
			item[k] = g.value(0, secret.SecretName(k))
		}
		forms := []string{fuzzSecret, base64.StdEncoding.EncodeToString([]byte(fuzzSecret))[:16], "98765432109876543210"}
		noSecret := func(where, s string) {
			t.Helper()
			flat := strings.Join(strings.Fields(ansi.Strip(s)), "")
			for _, f := range forms {
				if strings.Contains(flat, f) {
					t.Fatalf("%s shows %q:\n%s", where, f, ansi.Strip(s))
				}
			}
		}
		inertFrame := func(where, s string) {
			t.Helper()
			if r, bad := liveControl(s); bad {
				t.Fatalf("%s: live %U:\n%q", where, r, s)
			}
		}

		d := detail.New(item, detail.Options{Title: "fuzz " + g.text(), Theme: themes.Dark(), Mask: secret.Default})
		d.SetSize(w, h)
		for _, k := range []string{"", "G"} {
			if k != "" {
				d, _ = d.Update(tea.KeyPressMsg{Code: rune(k[0]), Text: k}, keymap.Default())
			}
			v := d.View()
			inertFrame("detail", v)
			noSecret("detail", v)
		}
		if js, err := detail.JSONMasked(item, secret.Default); err == nil {
			noSecret("copy", js)
		}

		sv := streamview.New(streamview.Options{Theme: themes.Dark(), Keys: keymap.Default(), Location: time.UTC, Mask: secret.Default, Summary: Summary})
		sv.SetSize(w, h)
		nw := map[string]types.AttributeValue{}
		for k, v := range item {
			nw[k] = v
		}
		nw["status"] = &types.AttributeValueMemberS{Value: "NEW " + g.text()}
		sv.Append([]stream.Record{{Table: data.TableSessions, EventName: "MODIFY", Keys: map[string]types.AttributeValue{"sessionId": item["sessionId"]},
			Old: item, New: nw, ApproxTime: time.Unix(0, 0)}})
		v := sv.View()
		inertFrame("stream row", v)
		noSecret("stream row", v)
		sv.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		v = sv.View()
		inertFrame("stream comparison", v)
		noSecret("stream comparison", v)
		sv.Update(tea.KeyPressMsg{Code: 's', Text: "s"}) // revealed: still inert
		inertFrame("stream comparison revealed", sv.View())
	})
}
