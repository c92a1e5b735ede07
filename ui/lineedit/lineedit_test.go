package lineedit

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func key(s string) tea.KeyPressMsg {
	switch s {
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return tea.KeyPressMsg{Code: r, Text: s}
}

// noLiveControls fails when a drawn line could make the terminal do
// anything but print: only SGR styling may remain.
func noLiveControls(t *testing.T, drawn string) {
	t.Helper()
	plain := ansi.Strip(drawn)
	for _, r := range plain {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e || r == 0x200b || r == 0x2066 || r == 0xfeff {
			t.Fatalf("live control %U drawn: %q", r, plain)
		}
	}
}

// TestValueKeptDrawnInert: an id with a bidi override, a zero-width space
// and an ESC is kept exactly (so the command finds it) and drawn as
// visible escapes.
func TestValueKeptDrawnInert(t *testing.T) {
	id := "sess_\u202egnp.exe\u200b\x1b[2J"
	var m Model
	m.Focus()
	m.SetValue(":session " + id)
	if m.Value() != ":session "+id {
		t.Fatalf("value changed: %q", m.Value())
	}
	drawn := m.View(80, DefaultStyles())
	noLiveControls(t, drawn)
	if got := ansi.Strip(drawn); !strings.Contains(got, `sess_\u202egnp.exe\u200b\x1b[2J`) {
		t.Fatalf("not shown escaped: %q", got)
	}
}

// TestPasteKeepsEverything: a bracketed paste goes in whole, control and
// invisible characters included; typing edits around it.
func TestPasteKeepsEverything(t *testing.T) {
	var m Model
	m.Update(key("x"))
	m.Update(tea.PasteMsg{Content: "a\u200bb\x07c"})
	m.Update(key("y"))
	if got := m.Value(); got != "xa\u200bb\x07cy" {
		t.Fatalf("value %q", got)
	}
	m.Update(key("backspace"))
	m.Update(key("backspace"))
	if got := m.Value(); got != "xa\u200bb\x07" {
		t.Fatalf("backspace removes one rune at a time: %q", got)
	}
	m.Update(key("ctrl+u"))
	if m.Value() != "" {
		t.Fatalf("ctrl+u: %q", m.Value())
	}
}

func TestEditingKeys(t *testing.T) {
	var m Model
	for _, r := range "run abc" {
		m.Update(key(string(r)))
	}
	m.Update(key("ctrl+w"))
	if m.Value() != "run " {
		t.Fatalf("ctrl+w: %q", m.Value())
	}
	m.Update(key("home"))
	m.Update(key(":"))
	if m.Value() != ":run " || m.Position() != 1 {
		t.Fatalf("insert at home: %q at %d", m.Value(), m.Position())
	}
	m.Limit = 6
	m.Update(tea.PasteMsg{Content: "toolong"})
	if m.Value() != ":trun " {
		t.Fatalf("limit: %q", m.Value())
	}
}

// TestViewScrollsToTheCursor: a value wider than the field shows the part
// around the cursor, never more than width cells.
func TestViewScrollsToTheCursor(t *testing.T) {
	var m Model
	m.Focus()
	m.SetValue(strings.Repeat("a", 50) + "\u202e" + strings.Repeat("b", 50) + "END")
	for _, w := range []int{1, 5, 10, 40} {
		drawn := m.View(w, DefaultStyles())
		noLiveControls(t, drawn)
		if got := ansi.StringWidth(drawn); got > w {
			t.Fatalf("width %d: drawn %d cells: %q", w, got, ansi.Strip(drawn))
		}
		if w >= 5 && !strings.Contains(ansi.Strip(drawn), "D") {
			t.Fatalf("width %d: cursor end not in view: %q", w, ansi.Strip(drawn))
		}
	}
	m.Update(key("home"))
	if got := ansi.Strip(m.View(10, DefaultStyles())); !strings.HasPrefix(got, "aaaa") {
		t.Fatalf("home: %q", got)
	}
}
