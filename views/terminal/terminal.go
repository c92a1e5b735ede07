// Package terminal carries what a pane writes to the terminal itself rather
// than in a frame: the bell, a copy to the clipboard (OSC 52).
package terminal

import (
	"encoding/base64"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Msg is a sequence for the terminal. The root writes it in order with the
// frames, so a long clipboard sequence is never cut by a frame written
// meanwhile.
type Msg struct{ Seq string }

// Write is a command that has the root write seq to the terminal.
func Write(seq string) tea.Cmd {
	return func() tea.Msg { return Msg{Seq: seq} }
}

// Copy is a command that puts text on the system clipboard (OSC 52; the
// terminal, and tmux, must allow it).
func Copy(text string) tea.Cmd { return Write(ansi.SetSystemClipboard(text)) }

// clipboardStart opens a copy to the system clipboard.
const clipboardStart = "\x1b]52;c;"

// Clipboard is the text m copies to the clipboard, if it is a copy.
func (m Msg) Clipboard() (string, bool) {
	body, ok := strings.CutPrefix(m.Seq, clipboardStart)
	if !ok {
		return "", false
	}
	body = strings.TrimSuffix(body, "\a")
	text, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return "", false
	}
	return string(text), true
}
