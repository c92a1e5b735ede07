package streamview

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// testMask stands in for views.MaskSecret (which this package cannot import
// in tests without a cycle once views mounts the pane): signingKey at any
// depth is secret.
func testMask(path []string, v string) (string, bool) {
	if len(path) > 0 && path[len(path)-1] == "signingKey" {
		return "••••••", true
	}
	return v, false
}

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
	if s := summaryText(sel, testMask); !strings.Contains(s, "signingKey: •••••• → ••••••") {
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
