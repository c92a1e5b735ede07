package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
	"opsdeck/themes"
)

// helpPages opens the help screen at w×h and collects every line it shows
// while scrolling down with j to the end.
func helpPages(t *testing.T, w, h int) (first string, seen string) {
	t.Helper()
	var tm tea.Model = New(Options{Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow }})
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: w, Height: h})
	tm, _ = tm.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	first = stripANSI(tm.(Model).Render())
	var all strings.Builder
	prev := ""
	for i := 0; i < 200; i++ {
		scr := stripANSI(tm.(Model).Render())
		all.WriteString(scr + "\n")
		if scr == prev {
			break
		}
		prev = scr
		tm, _ = tm.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	}
	if tm.(Model).Mode() != "help" {
		t.Fatalf("j left the help screen (mode %s)", tm.(Model).Mode())
	}
	return first, all.String()
}

// TestHelpIsComplete: at 120×40 and at 80×24 every binding of the keymap
// and every command can be read on the help screen (scrolling where it
// does not fit), and nothing is cut with "…".
func TestHelpIsComplete(t *testing.T) {
	km := DefaultKeys()
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		first, seen := helpPages(t, size[0], size[1])
		t.Logf("%dx%d:\n%s", size[0], size[1], first)
		body := strings.Join(strings.Split(first, "\n")[2:size[1]-2], "\n")
		if strings.Contains(body, "…") {
			t.Errorf("%dx%d: help cut with …:\n%s", size[0], size[1], first)
		}
		flat := strings.Join(strings.Fields(seen), " ")
		for _, g := range km.FullHelp() {
			for _, b := range g {
				if !strings.Contains(flat, b.Help().Key) || !strings.Contains(flat, strings.Join(strings.Fields(b.Help().Desc), " ")) {
					t.Errorf("%dx%d: binding %q (%s) not on the help screen", size[0], size[1], b.Help().Key, b.Help().Desc)
				}
			}
		}
		for _, u := range Usage() {
			if !strings.Contains(flat, strings.Join(strings.Fields(u), " ")) {
				t.Errorf("%dx%d: command %q not on the help screen", size[0], size[1], u)
			}
		}
	}
}

// The help screen is cached between frames; a resize or a scroll while it
// is open still draws it anew, at the new size and offset.
func TestHelpFollowsAResizeWhileOpen(t *testing.T) {
	var tm tea.Model = New(Options{Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow }})
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	tm, _ = tm.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	wide := stripANSI(tm.(Model).Render())
	if again := stripANSI(tm.(Model).Render()); again != wide {
		t.Fatalf("the same help screen drawn twice differs:\n%s\n---\n%s", wide, again)
	}

	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	narrow := stripANSI(tm.(Model).Render())
	lines := strings.Split(narrow, "\n")
	if len(lines) != 20 {
		t.Errorf("after the resize the screen has %d lines, want 20", len(lines))
	}
	for i, l := range lines {
		if w := len([]rune(l)); w > 60 {
			t.Errorf("line %d is %d cells wide after the resize to 60:\n%s", i, w, narrow)
			break
		}
	}
	if !strings.Contains(narrow, " of ") {
		t.Errorf("at 60×20 the help does not fit and must say where its window is:\n%s", narrow)
	}

	tm, _ = tm.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if scrolled := stripANSI(tm.(Model).Render()); scrolled == narrow {
		t.Errorf("j did not scroll the cached help screen:\n%s", scrolled)
	}
}

// The Sessions pane's v is listed once: in the pane's own section, not
// again among the keys of every pane.
func TestHelpListsAPaneKeyOnce(t *testing.T) {
	_, seen := helpPages(t, 160, 48)
	first := strings.Split(seen, "\n")
	var n int
	for _, l := range first[2:46] { // the help body: not the tab bar, title, status bar, hints
		n += strings.Count(l, "sessions / keys / contexts / project")
	}
	if n != 1 {
		t.Errorf("v listed %d times on the help screen:\n%s", n, strings.Join(first[:48], "\n"))
	}
}
