// Package lineedit is the console's one-line text input: the command line,
// the filter line and the typed confirmation of a protected environment.
//
// What is typed, pasted, completed or recalled from history is data, often
// a tenant's id, and it is kept exactly: a zero-width space, a bidi
// override or an ESC in an id stays in the value, so the command that uses
// it finds the item. What is drawn is the value made inert: each such
// character appears as its visible escape (`\u202e`, `\x1b`), styled apart
// from typed text so `\u202e` the escape is never mistaken for six typed
// characters. (bubbles' textinput does the opposite on both counts: it
// drops control characters from the value and draws format characters
// raw.)
package lineedit

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/views/inert"
)

// Model is a one-line input. The zero value is usable (no length limit).
type Model struct {
	value []rune
	pos   int // cursor, in runes: 0..len(value)
	// Limit caps the value's length in runes (0: none); a paste beyond it
	// is cut.
	Limit int
	focus bool
}

// New returns an empty input holding at most limit runes (0: no limit).
func New(limit int) Model { return Model{Limit: limit} }

// SetValue replaces the value, exactly as given, and puts the cursor at its
// end.
func (m *Model) SetValue(s string) {
	m.value = []rune(s)
	if m.Limit > 0 && len(m.value) > m.Limit {
		m.value = m.value[:m.Limit]
	}
	m.pos = len(m.value)
}

// Value is the text as typed or pasted, unchanged.
func (m Model) Value() string { return string(m.value) }

// Position is the cursor, in runes.
func (m Model) Position() int { return m.pos }

// CursorEnd moves the cursor after the last rune.
func (m *Model) CursorEnd() { m.pos = len(m.value) }

// Focus shows the cursor; Blur hides it.
func (m *Model) Focus()       { m.focus = true }
func (m *Model) Blur()        { m.focus = false }
func (m Model) Focused() bool { return m.focus }

// Update edits the value with a key press or a paste and reports whether
// the value changed. Keys it does not know are ignored.
func (m *Model) Update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		return m.insert([]rune(msg.Content))
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return false
}

func (m *Model) key(k tea.KeyPressMsg) bool {
	switch k.String() {
	case "left", "ctrl+b":
		m.pos = max(m.pos-1, 0)
	case "right", "ctrl+f":
		m.pos = min(m.pos+1, len(m.value))
	case "home", "ctrl+a":
		m.pos = 0
	case "end", "ctrl+e":
		m.pos = len(m.value)
	case "alt+left", "alt+b", "ctrl+left":
		m.pos = m.wordLeft()
	case "alt+right", "alt+f", "ctrl+right":
		m.pos = m.wordRight()
	case "backspace", "ctrl+h":
		if m.pos == 0 {
			return false
		}
		m.value = append(m.value[:m.pos-1], m.value[m.pos:]...)
		m.pos--
		return true
	case "delete", "ctrl+d":
		if m.pos >= len(m.value) {
			return false
		}
		m.value = append(m.value[:m.pos], m.value[m.pos+1:]...)
		return true
	case "ctrl+w", "alt+backspace":
		from := m.wordLeft()
		if from == m.pos {
			return false
		}
		m.value = append(m.value[:from], m.value[m.pos:]...)
		m.pos = from
		return true
	case "ctrl+u":
		if m.pos == 0 {
			return false
		}
		m.value = append([]rune(nil), m.value[m.pos:]...)
		m.pos = 0
		return true
	case "ctrl+k":
		if m.pos >= len(m.value) {
			return false
		}
		m.value = m.value[:m.pos]
		return true
	default:
		if k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper|tea.ModMeta|tea.ModHyper) == 0 {
			return m.insert([]rune(k.Text))
		}
	}
	return false
}

func (m *Model) insert(rs []rune) bool {
	if m.Limit > 0 {
		rs = rs[:min(len(rs), max(m.Limit-len(m.value), 0))]
	}
	if len(rs) == 0 {
		return false
	}
	out := make([]rune, 0, len(m.value)+len(rs))
	out = append(out, m.value[:m.pos]...)
	out = append(out, rs...)
	out = append(out, m.value[m.pos:]...)
	m.value = out
	m.pos += len(rs)
	return true
}

func (m Model) wordLeft() int {
	i := m.pos
	for i > 0 && unicode.IsSpace(m.value[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(m.value[i-1]) {
		i--
	}
	return i
}

func (m Model) wordRight() int {
	i := m.pos
	for i < len(m.value) && unicode.IsSpace(m.value[i]) {
		i++
	}
	for i < len(m.value) && !unicode.IsSpace(m.value[i]) {
		i++
	}
	return i
}

// Styles dress the drawn input.
type Styles struct {
	Text    lipgloss.Style // typed text
	Escaped lipgloss.Style // the visible escape of a character made inert
	Cursor  lipgloss.Style // the cell under the cursor (reverse by default)
}

// DefaultStyles: escapes underlined, the cursor in reverse video.
func DefaultStyles() Styles {
	return Styles{
		Escaped: lipgloss.NewStyle().Underline(true),
		Cursor:  lipgloss.NewStyle().Reverse(true),
	}
}

// cell is one rune as drawn: its inert text and its width.
type cell struct {
	text    string
	width   int
	escaped bool
}

func cellOf(r rune) cell {
	s := inert.String(string(r))
	esc := s != string(r)
	return cell{text: s, width: inert.Width(s), escaped: esc}
}

// View draws the value in at most width cells, scrolled so that the cursor
// shows, with every character made inert.
func (m Model) View(width int, st Styles) string {
	if width <= 0 {
		return ""
	}
	cells := make([]cell, len(m.value))
	for i, r := range m.value {
		cells[i] = cellOf(r)
	}
	cursorW := 1
	if m.pos < len(cells) {
		cursorW = max(cells[m.pos].width, 1)
	}
	// First visible rune: as far left as possible while the cursor (and
	// the cell it sits on) still fits.
	start := 0
	used := cursorW
	for i := m.pos - 1; i >= 0; i-- {
		if used+cells[i].width > width {
			start = i + 1
			break
		}
		used += cells[i].width
	}
	var b strings.Builder
	w := 0
	for i := start; i <= len(cells); i++ {
		if i == len(cells) {
			if m.focus && i == m.pos && w < width {
				b.WriteString(st.Cursor.Render(" "))
			}
			break
		}
		c := cells[i]
		if w+c.width > width {
			break
		}
		style := st.Text
		if c.escaped {
			style = st.Escaped
		}
		if m.focus && i == m.pos {
			style = st.Cursor
		}
		b.WriteString(style.Render(c.text))
		w += c.width
	}
	return b.String()
}
