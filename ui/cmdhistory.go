package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/ui/history"
)

// The command line's history: ↑/↓ walk it (keys.go), and it survives a
// restart through the history file (ui/history), which keeps only lines
// safe to keep on disk. A file that cannot be read or written is said once
// in the status bar; the console runs on with this session's history.

// historyErrMsg: the history file could not be written.
type historyErrMsg struct{ err error }

func (m *Model) initHistory(o Options) {
	m.hist = o.History
	if n := len(o.HistoryLines); n > history.MaxEntries {
		o.HistoryLines = o.HistoryLines[n-history.MaxEntries:]
	}
	m.history = append([]string(nil), o.HistoryLines...)
	m.histPos = len(m.history)
	if o.HistoryErr != nil {
		m.setFlash(o.HistoryErr.Error(), true)
	}
}

// remember appends a command to the history (not repeating the last one)
// and returns the write of it to the file, if there is one.
func (m *Model) remember(line string) tea.Cmd {
	line = historyForm(line)
	if line == "" || (len(m.history) > 0 && m.history[len(m.history)-1] == line) {
		return nil
	}
	m.history = append(m.history, line)
	if len(m.history) > history.MaxEntries {
		m.history = m.history[len(m.history)-history.MaxEntries:]
	}
	f := m.hist
	if f == nil || !history.Keep(line) {
		return nil
	}
	return func() tea.Msg {
		if err := f.Append(line); err != nil {
			return historyErrMsg{err: err}
		}
		return nil
	}
}

// historyForm is the line as history keeps it. `:apikey` also takes the raw
// API key in place of its hash; the key is a credential, so history (in
// memory, and in the file) keeps the hash it was looked up by, which finds
// the same item when recalled and shows nothing secret.
func historyForm(line string) string {
	f := strings.Fields(line)
	if len(f) != 2 {
		return line
	}
	if c, ok := specFor(f[0]); !ok || c.Name != "apikey" {
		return line
	}
	if s, hashed := data.APIKeyLookup(f[1]); hashed {
		return f[0] + " " + s.PKValue
	}
	return line
}
