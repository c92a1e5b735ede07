package secret

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The planted secret: long, random-looking, and unlike anything the
// generator writes on its own.
const planted = "Zq9X7vKp2LmW4rTb8NcY3hJd"

// gen builds an attribute value tree from fuzz bytes: every type, any
// nesting, names and strings drawn from a small alphabet that includes
// secret and URL names, URL pieces and hostile characters. Wherever the
// generator puts the planted secret, it puts it where the masker must find
// it: under a secret name (any type), as a credential query value or
// password of a URL, as a JWT, or in binary under a secret name.
type gen struct {
	b       []byte
	planted int
}

func (g *gen) next() int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0])
	g.b = g.b[1:]
	return c
}

var names = []string{"sessionId", "signingKey", "connectUrl", "note", "x", "token", "api_key", "meta", "seleniumRemoteUrl",
	"[0]", "status", "userMetadata", "Password", "webhookUri", "\u202e", "a\x1bb"}

var words = []string{"plain", "RUNNING", "2026-11-21T11:00:00+03:00", "wss://h:9223/cdp", "?", "&", "=", "#", "/", ":",
	"@", "\x1b[2J", "\u202e", " ", "https://", "eyJ", ".", "%", "proj_1", "日本"}

// secretString is a string that carries the planted secret in a shape the
// masker must recognise whatever the attribute is called.
func (g *gen) secretString() string {
	switch g.next() % 7 {
	case 0:
		return "wss://203.0.113.9:9223/cdp?signingKey=" + planted
	case 1:
		return "see https://u:" + planted + "@host/x for it"
	case 2:
		return "eyJhbGciOiJIUzI1NiJ9." + base64.RawURLEncoding.EncodeToString([]byte(planted)) + ".sig"
	case 3:
		return "wss:devtools/page/" + planted + "?x=1"
	case 4:
		return `{"accessToken":"` + planted + `"}`
	case 5:
		return "Authorization: Bearer " + planted
	default:
		return "https://h/cb#id_token=" + planted
	}
}

func (g *gen) str() string {
	var b strings.Builder
	for n := g.next() % 5; n > 0; n-- {
		b.WriteString(words[g.next()%len(words)])
	}
	return b.String()
}

func (g *gen) value(depth int, secretName bool) types.AttributeValue {
	plant := func() string {
		g.planted++
		if secretName {
			return planted
		}
		return g.secretString()
	}
	c := g.next()
	if depth > 6 {
		c %= 9 // leaves only
	}
	switch c % 11 {
	case 0:
		if g.next()%3 == 0 {
			// Text around it is separated the way text is: a URL glued to
			// a word ("eyJwss:…") is not a URL.
			return &types.AttributeValueMemberS{Value: g.str() + " " + plant() + " " + g.str()}
		}
		return &types.AttributeValueMemberS{Value: g.str()}
	case 1:
		if secretName && g.next()%2 == 0 {
			g.planted++
			return &types.AttributeValueMemberN{Value: "98765432109876543210"}
		}
		return &types.AttributeValueMemberN{Value: strconv.Itoa(g.next())}
	case 2:
		if g.next()%3 == 0 {
			return &types.AttributeValueMemberB{Value: []byte(plant())}
		}
		return &types.AttributeValueMemberB{Value: []byte(g.str())}
	case 3:
		return &types.AttributeValueMemberBOOL{Value: g.next()%2 == 0}
	case 4:
		return &types.AttributeValueMemberNULL{Value: true}
	case 5:
		ss := []string{g.str() + "a"}
		if g.next()%2 == 0 {
			ss = append(ss, plant())
		}
		return &types.AttributeValueMemberSS{Value: ss}
	case 6:
		return &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}}
	case 7:
		bs := [][]byte{[]byte(g.str())}
		if g.next()%2 == 0 {
			bs = append(bs, []byte(plant()))
		}
		return &types.AttributeValueMemberBS{Value: bs}
	case 8:
		return &types.AttributeValueMemberS{Value: plant()}
	case 9:
		m := map[string]types.AttributeValue{}
		for n := g.next() % 4; n > 0; n-- {
			k := names[g.next()%len(names)]
			m[k] = g.value(depth+1, secretName || SecretName(k))
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

// FuzzMaskValue: whatever the tree, a planted secret never survives
// masking — in any type, at any depth, as text or as base64 — and masking
// never panics.
func FuzzMaskValue(f *testing.F) {
	f.Add([]byte{9, 3, 1, 0, 0, 0})
	f.Add([]byte{9, 2, 1, 2, 0, 9, 1, 2, 2, 0})
	f.Add([]byte{10, 3, 8, 1, 5, 1, 1, 7, 1, 1})
	f.Add([]byte("signingKey as a map, list, set and binary"))
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b: b}
		item := map[string]types.AttributeValue{}
		for n := g.next()%5 + 1; n > 0; n-- {
			k := names[g.next()%len(names)]
			item[k] = g.value(0, SecretName(k))
		}
		out, _ := Item(Default, item)
		for k, v := range out {
			d := dump(v)
			if strings.Contains(d, planted) || strings.Contains(d, base64.StdEncoding.EncodeToString([]byte(planted))[:16]) ||
				strings.Contains(d, base64.RawURLEncoding.EncodeToString([]byte(planted))[:16]) || strings.Contains(d, "98765432109876543210") {
				t.Fatalf("%q: secret survived masking: %q", k, d)
			}
		}
		// Masking what is masked changes nothing more.
		again, _ := Item(Default, out)
		for k := range out {
			if dump(again[k]) != dump(out[k]) {
				t.Fatalf("%q: not stable: %q → %q", k, dump(out[k]), dump(again[k]))
			}
		}
	})
}

// FuzzText: free text never panics, the mask never grows a secret, and text
// with nothing to mask comes back unchanged.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "a=b", "wss://x?token=" + planted, "eyJ.eyJ.", "https://u:p@", "-----BEGIN PRIVATE KEY-----",
		"bearer ", "token:" + planted, "\xff\xfe:=@", "x-y:", ":::", "a" + planted + "@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, changed := Text(s)
		if !changed && out != s {
			t.Fatalf("unchanged text rewritten: %q → %q", s, out)
		}
		if changed && !strings.Contains(out, Mask) {
			t.Fatalf("changed without a mask: %q → %q", s, out)
		}
		for _, probe := range []string{"wss://h/cdp?token=" + planted, "https://user:" + planted + "@host/"} {
			if o, _ := Text(s + " " + probe); strings.Count(o, planted) > strings.Count(s, planted) {
				t.Fatalf("secret after %q survived: %q", s, o)
			}
		}
	})
}
