package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data/action"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// defaultAuditEntries is how many entries :audit shows without a number.
const defaultAuditEntries = 200

// auditLoadedMsg carries the entries :audit read.
type auditLoadedMsg struct {
	path    string
	entries []action.AuditEntry
	err     error
}

// openAudit reads the last entries of the audit log (":audit [n]") in a
// Cmd; the overlay opens when they arrive.
func (m Model) openAudit(arg string) (tea.Model, tea.Cmd) {
	n := defaultAuditEntries
	if arg != "" {
		v, err := strconv.Atoi(arg)
		if err != nil || v <= 0 {
			m.setFlash(fmt.Sprintf("\"%s\" is not a number of entries — usage: :audit [n]", inert.Line(arg, 20)), true)
			return m, nil
		}
		n = v
	}
	path, err := m.act.run.resolvedAuditPath()
	if err != nil {
		m.setFlash("audit log: "+oneLine(err.Error()), true)
		return m, nil
	}
	return m, func() tea.Msg {
		es, err := action.ReadAudit(path, n)
		return auditLoadedMsg{path: path, entries: es, err: err}
	}
}

func (m *Model) showAudit(msg auditLoadedMsg) tea.Cmd {
	if msg.err != nil {
		m.setFlash("audit log "+oneLine(msg.path)+": "+oneLine(msg.err.Error()), true)
		return nil
	}
	m.dialog = &auditDialog{path: msg.path, entries: msg.entries, theme: m.ctx.Theme, keys: m.ctx.Keys, under: m.panes[m.active].View}
	m.mode = modeDialog
	return nil
}

// auditDialog lists audit entries, newest first, one line each.
type auditDialog struct {
	path    string
	entries []action.AuditEntry // oldest first, as read
	theme   themes.Theme
	keys    keymap.Map
	under   func() string
	scroll  int
}

func (d *auditDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	var closed bool
	if d.scroll, closed = scrollKey(d.keys, k, d.scroll, len(d.entries)); closed {
		return nil, nil
	}
	return d, nil
}

func (d *auditDialog) View(width, height int) string {
	th := d.theme
	inner := max(width-6, 1)
	var body []string
	body = append(body, th.Muted.Render(inert.Line(fmt.Sprintf("%s · %s, newest first", d.path, entriesLabel(len(d.entries))), inner)))
	if len(d.entries) == 0 {
		body = append(body, "", inert.Line("No action has been attempted yet.", inner))
	}
	for i := len(d.entries) - 1; i >= 0; i-- {
		body = append(body, auditLines(d.entries[i], inner, th)...)
	}
	foot := []string{th.Muted.Render(inert.Line("↑/↓ pgup/pgdn scroll · esc closes", inner))}
	return overlay(d.under, frameBox("Audit log", body, foot, inner, height, &d.scroll, th), width, height, th)
}

// auditLines is one entry: time, result, action, env/target and operator
// on the first line, the message (wrapped) under it.
func auditLines(e action.AuditEntry, w int, th themes.Theme) []string {
	if e.Problem != "" {
		return wrapStyled(th.Warn, "("+e.Problem+") "+e.Raw, w)
	}
	// "ok: <how a lost response was recognised>" is a write that happened,
	// and "unknown: …" one that may have: neither is drawn as a failure.
	st := th.Error
	switch res := strings.SplitN(e.Result, ":", 2)[0]; res {
	case "ok":
		st = th.OK
	case "guard failed", "unknown":
		st = th.Warn
	}
	res := "ok"
	if e.Result != "ok" {
		res = strings.SplitN(e.Result, ":", 2)[0]
	}
	head := e.Time.Local().Format("01-02 15:04:05") + " " + st.Render(inert.Pad(res, 12)) + " "
	rest := fmt.Sprintf("%s %s/%s by %s", e.Action, e.Env, e.Target, e.Operator)
	out := []string{fitLine(head+inert.Line(rest, max(w-lipgloss.Width(head), 1)), w)}
	if e.Message != "" {
		out = append(out, indent(wrapStyled(th.Muted, e.Message, max(w-4, 1)), "    ")...)
	}
	return out
}

func entriesLabel(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

// Hints is the footer line while the overlay is open.
func (d *auditDialog) Hints() string { return "↑/↓ pgup/pgdn g/G scroll · esc close" }
