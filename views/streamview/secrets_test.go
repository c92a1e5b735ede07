package streamview

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data/secret"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
)

var testMask = secret.Default

func TestSecretsMaskedInRowsAndComparisonRevealPerRecord(t *testing.T) {
	m := New(Options{Theme: themes.Theme{}, Keys: keymap.Default(), Location: time.UTC, Mask: testMask})
	m.SetSize(120, 40)
	old := img("sessionId", "s-1", "status", "RUNNING", "signingKey", "sk-OLD-SECRET",
		"eventHistory", avL(avM("signingKey", "sk-NESTED-SECRET")))
	new := img("sessionId", "s-1", "status", "RUNNING", "signingKey", "sk-NEW-SECRET",
		"eventHistory", avL(avM("signingKey", "sk-NESTED-SECRET2")))
	m.Append([]stream.Record{session("MODIFY", "s-1", old, new, 0), session("INSERT", "s-2", nil, new, 1)})
	list := m.View()
	if strings.Contains(list, "SECRET") {
		t.Fatalf("secret in the list:\n%s", list)
	}
	press(m, "k")
	sel, _ := m.Selected()
	if s := summaryText(sel, testMask, testSummary(sel.Table)); !strings.Contains(s, "signingKey: •••••• → ••••••") {
		t.Fatalf("a changed secret should show that it changed, masked: %q", s)
	}
	m.SetFilter("sk-old")
	if len(rows(t, m)) != 0 {
		t.Fatal("the filter must not find text that is masked")
	}
	m.SetFilter("")
	press(m, "g", "enter")
	if v := m.View(); strings.Contains(v, "SECRET") || !strings.Contains(v, "••••••") {
		t.Fatalf("secret in the comparison:\n%s", v)
	}
	press(m, "s") // reveal, this record only
	if v := m.View(); !strings.Contains(v, "sk-OLD-SECRET") || !strings.Contains(v, "sk-NESTED-SECRET2") {
		t.Fatalf("reveal should show the secrets:\n%s", v)
	}
	press(m, "esc", "j", "enter")
	if v := m.View(); strings.Contains(v, "SECRET") {
		t.Fatalf("reveal leaked to the next record:\n%s", v)
	}
	press(m, "esc", "k", "enter")
	if v := m.View(); strings.Contains(v, "SECRET") {
		t.Fatalf("reveal must not outlive its comparison:\n%s", v)
	}
}

func TestSetThemeRestylesCachedRows(t *testing.T) {
	m := newModel(0)
	m.Append([]stream.Record{insert("a", "RUNNING", 0), insert("b", "RUNNING", 1)})
	plain := m.View()
	m.SetTheme(themes.Dark())
	dark := m.View()
	if plain == dark || !strings.Contains(dark, "\x1b[") {
		t.Fatal("SetTheme did not restyle the rows")
	}
	// The non-selected row (a) must be restyled too, not served from cache.
	if strings.Split(dark, "\n")[2] == strings.Split(plain, "\n")[2] {
		t.Fatal("cached row kept the old theme")
	}
}

// TestSecretsOfEveryTypeMaskedInSummaryAndComparison: a signingKey stored
// as a list, map, set, number or binary value, a connectUrl stored as a
// map, a token inside an opaque URL in any attribute: masked in the row's
// summary and in the comparison, revealed by s for that record only.
func TestSecretsOfEveryTypeMaskedInSummaryAndComparison(t *testing.T) {
	m := New(Options{Theme: themes.Theme{}, Keys: keymap.Default(), Location: time.UTC, Mask: testMask})
	m.SetSize(160, 60)
	old := img("sessionId", "s-1", "status", "RUNNING",
		"signingKey", avL(avS("KEYLIST-0123456789")),
		"connectUrl", avM("url", "wss://203.0.113.9:9223/cdp?signingKey=KEYURL-0123456789"),
		"note", "reconnect at wss:203.0.113.9:9223/cdp?token=KEYOPAQUE-0123456789",
		"blob", &types.AttributeValueMemberB{Value: []byte("signingKey=KEYBIN-0123456789")})
	new := img("sessionId", "s-1", "status", "RUNNING",
		"signingKey", avM("value", "KEYMAP-0123456789"),
		"connectUrl", avM("url", "wss://203.0.113.9:9223/cdp?signingKey=KEYURL2-0123456789"),
		"note", "reconnect at wss:203.0.113.9:9223/cdp?token=KEYOPAQUE2-0123456789",
		"apiKey", &types.AttributeValueMemberSS{Value: []string{"KEYSET-0123456789"}},
		"token", avN("98765432109876543210"),
		"blob", &types.AttributeValueMemberB{Value: []byte("signingKey=KEYBIN2-0123456789")})
	m.Append([]stream.Record{session("MODIFY", "s-1", old, new, 0)})
	secrets := []string{"KEYLIST", "KEYMAP", "KEYURL", "KEYOPAQUE", "KEYSET", "98765432109876543210", "KEYBIN",
		"S0VZQk", "c2lnbmluZ0tleT1LRVlCSU4"} // base64 of the binary ones
	check := func(where, frame string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(frame, s) {
				t.Fatalf("%s shows %s:\n%s", where, s, frame)
			}
		}
	}
	sel, _ := m.Selected()
	check("summary", summaryText(sel, testMask, testSummary(sel.Table)))
	check("list", m.View())
	press(m, "enter")
	check("comparison", m.View())
	if v := m.View(); !strings.Contains(v, "••••••") || !strings.Contains(v, "203.0.113.9:9223/cdp?signingKey=") {
		t.Fatalf("the comparison should show what is masked and keep the rest:\n%s", v)
	}
	press(m, "s")
	if v := m.View(); !strings.Contains(v, "KEYMAP-0123456789") || !strings.Contains(v, "KEYURL2-0123456789") {
		t.Fatalf("s should reveal this record's secrets:\n%s", v)
	}
}
