package ui

// Messages: what the console tells the operator in passing (a command's
// answer, an action's result, a pane's note). Each one is shown on the
// message line — the footer, whole width, wrapping into the status bar
// when one line is not enough — until it expires, and kept in the
// session's log, which :messages lists in full with the time of each.

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// How long a message stays on screen. An error stays longer: it is what
// the operator most needs to read, and it may be long. Either can be read
// again, whole, in :messages.
const (
	messageFor      = 10 * time.Second
	errorMessageFor = 30 * time.Second
)

// maxMessages bounds the session's log; the oldest go first.
const maxMessages = 1000

// messageEntry is one message of the session.
type messageEntry struct {
	At   time.Time
	Text string // masked (setFlash), not yet made inert
	Err  bool
	From string // the pane whose note it was; "" for the console's own
}

// messageLog is shared by the Model's copies, as fitCache is: only the
// program's loop updates the model.
type messageLog struct {
	entries []messageEntry
	dropped int // entries let go past maxMessages
	// seq numbers the messages shown; armed is the one whose expiry timer
	// is on its way.
	seq, armed uint64
	// noteSeq is the message that shows a pane's note.
	noteSeq  uint64
	noteFrom views.PaneID
	// notes is the last note seen of each pane, so a note is logged once.
	notes map[views.PaneID]string
}

// messageExpiredMsg: the message numbered seq has been shown long enough.
type messageExpiredMsg struct{ seq uint64 }

func (l *messageLog) add(e messageEntry) {
	if l == nil {
		return
	}
	l.entries = append(l.entries, e)
	if n := len(l.entries) - maxMessages; n > 0 {
		l.entries = append(l.entries[:0:0], l.entries[n:]...)
		l.dropped += n
	}
}

// logMessage records a message just set as the shown one.
func (m *Model) logMessage(text string, isErr bool, from string) {
	if m.msgs == nil || text == "" {
		return
	}
	m.msgs.seq++
	m.flashSeq = m.msgs.seq
	m.msgs.add(messageEntry{At: m.ctx.Now(), Text: text, Err: isErr, From: from})
}

// noteMessages makes a note the shown pane just put in its status a
// message: logged once, and shown unless the same update set a message of
// the root's own (ctrl+c says "load cancelled" and the pane notes what it
// kept: the root's answer is the one to the key). A pane's error is
// logged too; the message line shows it for as long as it holds.
func (m *Model) noteMessages(seqBefore uint64) {
	if m.msgs == nil {
		return
	}
	p := m.panes[m.active]
	st := p.Status()
	if m.msgs.notes == nil {
		m.msgs.notes = map[views.PaneID]string{}
	}
	id := p.ID()
	errKey := id + "\x00err"
	if st.Err != m.msgs.notes[errKey] {
		m.msgs.notes[errKey] = st.Err
		if st.Err != "" {
			m.msgs.add(messageEntry{At: m.ctx.Now(), Text: maskText(st.Err), Err: true, From: id.Name()})
		}
	}
	if st.Note == m.msgs.notes[id] {
		return
	}
	m.msgs.notes[id] = st.Note
	if st.Note == "" {
		if m.msgs.noteSeq == m.flashSeq && m.msgs.noteFrom == id && m.flashSeq == seqBefore {
			// The pane took its note back (a poll that failed worked
			// again): so does the message line; the log keeps it.
			m.flash = ""
		}
		return
	}
	text := maskText(st.Note)
	if m.flashSeq != seqBefore {
		m.msgs.add(messageEntry{At: m.ctx.Now(), Text: text, From: id.Name()})
		return
	}
	m.flash, m.cmdErr = text, false
	m.logMessage(text, false, id.Name())
	m.msgs.noteSeq, m.msgs.noteFrom = m.flashSeq, id
}

// setPending shows a message about work under way ("releasing …",
// "exporting … 40%"): it stays until the work's answer replaces it, rather
// than expiring while the work goes on. log: keep it in the log (a
// progress step is not worth keeping).
func (m *Model) setPending(text string, log bool) {
	text = maskText(text)
	m.flash, m.cmdErr = text, false
	if log {
		m.logMessage(text, false, "")
	} else if m.msgs != nil {
		m.msgs.seq++
		m.flashSeq = m.msgs.seq
	}
	if m.msgs != nil {
		m.msgs.armed = m.flashSeq
	}
}

// armMessage arms the expiry of the message shown, once per message.
func (m *Model) armMessage() tea.Cmd {
	if m.msgs == nil || m.flash == "" || m.flashSeq == m.msgs.armed || m.quitting {
		return nil
	}
	m.msgs.armed = m.flashSeq
	d := messageFor
	if m.cmdErr {
		d = errorMessageFor
	}
	return m.ctx.After(d, messageExpiredMsg{seq: m.flashSeq})
}

// onMessageExpired takes the message off the screen if it is still the
// one the timer was armed for.
func (m Model) onMessageExpired(e messageExpiredMsg) (tea.Model, tea.Cmd) {
	if e.seq == m.flashSeq && m.flash != "" {
		m.flash, m.cmdErr = "", false
	}
	return m, nil
}

// messageLines is the message shown, wrapped to w cells on at most max
// lines; the last ends in "… (:messages)" when it was cut: the list has it
// whole.
func (m Model) messageLines(w, maxLines int) []string {
	if m.flash == "" || w <= 0 || maxLines <= 0 {
		return nil
	}
	st := m.ctx.Theme.Muted
	if m.cmdErr {
		st = m.ctx.Theme.Error
	}
	text := inert.String(m.flash)
	lines := strings.Split(ansi.Wrap(text, w, ""), "\n")
	if len(lines) > maxLines {
		rest := strings.Join(lines[maxLines-1:], " ")
		const more = inert.Ellipsis + " (:messages)"
		lines = append(lines[:maxLines-1], ansi.Truncate(rest, max(w-lipgloss.Width(more), 0), "")+more)
	}
	for i, l := range lines {
		lines[i] = fitLine(st.Render(l), w)
	}
	return lines
}

// openMessages shows the session's messages (":messages").
func (m Model) openMessages() (tea.Model, tea.Cmd) {
	d := &messagesDialog{theme: m.ctx.Theme, keys: m.ctx.Keys, under: m.panes[m.active].View, loc: m.ctx.Location}
	if m.msgs != nil {
		d.entries = append([]messageEntry(nil), m.msgs.entries...)
		d.dropped = m.msgs.dropped
	}
	d.scroll = -1 // newest at the bottom, in view
	m.dialog, m.mode = d, modeDialog
	return m, nil
}

// messagesDialog lists the messages, oldest first, each whole (wrapped)
// under its time.
type messagesDialog struct {
	entries []messageEntry
	dropped int
	theme   themes.Theme
	keys    keymap.Map
	under   func() string
	loc     *time.Location
	scroll  int // -1: at the end
}

func (d *messagesDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	if d.scroll < 0 {
		d.scroll = 1 << 30 // frameBox brings it back in range
	}
	var closed bool
	if d.scroll, closed = scrollKey(d.keys, k, d.scroll, 1<<30); closed {
		return nil, nil
	}
	return d, nil
}

func (d *messagesDialog) View(width, height int) string {
	th := d.theme
	inner := max(width-6, 1)
	head := fmt.Sprintf("%s this session, oldest first", plural(len(d.entries), "message"))
	if d.dropped > 0 {
		head += fmt.Sprintf(" (%d older let go)", d.dropped)
	}
	body := []string{th.Muted.Render(inert.Line(head, inner))}
	if len(d.entries) == 0 {
		body = append(body, "", inert.Line("No message yet.", inner))
	}
	for _, e := range d.entries {
		at := e.At
		if d.loc != nil {
			at = at.In(d.loc)
		}
		stamp := at.Format("15:04:05") + " "
		if e.From != "" {
			stamp += e.From + ": "
		}
		st := lipgloss.NewStyle()
		if e.Err {
			st = th.Error
			stamp += "✗ "
		}
		// The time, then the text wrapped under itself.
		sw := lipgloss.Width(stamp)
		text := wrapStyled(st, e.Text, max(inner-sw, 8))
		body = append(body, th.Muted.Render(stamp)+text[0])
		body = append(body, indent(text[1:], strings.Repeat(" ", sw))...)
	}
	if d.scroll < 0 {
		d.scroll = 1 << 30
	}
	foot := []string{th.Muted.Render(inert.Line("↑/↓ pgup/pgdn g/G scroll · esc closes", inner))}
	return overlay(d.under, frameBox("Messages", body, foot, inner, height, &d.scroll, th), width, height, th)
}

// Hints is the footer line while the list is open.
func (d *messagesDialog) Hints() string { return "↑/↓ pgup/pgdn g/G scroll · esc close" }
