package vtable

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/keymap"
	"opsdeck/themes"
)

func press(s string) tea.KeyPressMsg {
	switch s {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func keys(t *testing.T, m Model, ks ...string) Model {
	t.Helper()
	km := keymap.Default()
	for _, k := range ks {
		m, _ = m.Update(press(k), km)
	}
	return m
}

func cols3() []Column {
	return []Column{
		{Key: "id", Title: "ID", Width: 8, Fit: true, Priority: 9},
		{Key: "status", Title: "STATUS", Width: 9, Priority: 5},
		{Key: "n", Title: "N", Width: 5, Align: Right, Priority: 1},
	}
}

func row(id, status, n string) Row {
	return Row{ID: id, Cells: []Cell{{Text: id}, {Text: status}, {Text: n}}}
}

func numbered(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = row("r"+strconv.Itoa(i), []string{"RUNNING", "ERROR", "done"}[i%3], strconv.Itoa(i))
	}
	return rows
}

func newTable(rows []Row, w, h int) Model {
	m := New(cols3(), themes.Dark())
	m.SetSize(w, h)
	m.SetRows(rows)
	return m
}

func visibleIDs(m Model) []string {
	out := make([]string, len(m.view))
	for i, e := range m.view {
		out[i] = e.ID
	}
	return out
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// checkFrame asserts the layout contract and that nothing but our own SGR
// styling reaches the terminal.
func checkFrame(t *testing.T, view string, w, h int) {
	t.Helper()
	if h <= 0 {
		if view != "" {
			t.Fatalf("height %d: want empty view, got %q", h, view)
		}
		return
	}
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("%dx%d: got %d lines, want %d", w, h, len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw != w {
			t.Fatalf("%dx%d: line %d is %d cells wide: %q", w, h, i, lw, l)
		}
		bare := sgr.ReplaceAllString(l, "")
		for j := 0; j < len(bare); j++ {
			if c := bare[j]; c < 0x20 || c == 0x7f {
				t.Fatalf("%dx%d: line %d has raw control %#x: %q", w, h, i, c, l)
			}
		}
		if strings.ContainsRune(bare, '\u202e') || strings.ContainsRune(bare, '\u009b') {
			t.Fatalf("line %d has a raw bidi/C1 control: %q", i, l)
		}
	}
}
