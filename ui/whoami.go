package ui

// :whoami — which AWS identity the console acts as, and until when.

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// VerbWhoAmI opens the identity dialog.
const VerbWhoAmI Verb = "whoami"

// whoamiTimeout bounds the STS call: past it the operator reads an error
// line rather than waiting on a dialog that never opens.
const whoamiTimeout = 15 * time.Second

// whoamiMsg carries what :whoami learnt, for the connection it asked on.
type whoamiMsg struct {
	conn *data.Conn
	id   data.Identity
	err  error
}

// openWhoAmI asks, in a Cmd, who the current connection is; the dialog
// opens when the answer arrives.
func (m Model) openWhoAmI() (tea.Model, tea.Cmd) {
	conn := m.act.run.conn
	if conn == nil {
		m.setFlash("whoami: not connected", true)
		return m, nil
	}
	m.setPending("whoami: asking STS…", false)
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), whoamiTimeout)
		defer cancel()
		id, err := conn.WhoAmI(ctx)
		return whoamiMsg{conn: conn, id: id, err: err}
	}
}

func (m Model) onWhoAmI(msg whoamiMsg) (tea.Model, tea.Cmd) {
	if msg.conn != m.act.run.conn {
		return m, nil // the env was switched meanwhile: the answer is for another identity
	}
	if msg.err != nil {
		m.setFlash("whoami: "+oneLine(msg.err.Error()), true)
		return m, nil
	}
	m.flash, m.cmdErr = "", false // the pending line: the dialog is the answer
	m.dialog = &whoamiDialog{id: msg.id, now: m.ctx.Now(), loc: m.ctx.Location, theme: m.ctx.Theme, keys: m.ctx.Keys, under: m.panes[m.active].View}
	m.mode = modeDialog
	return m, nil
}

// whoamiDialog shows one identity, a field a line.
type whoamiDialog struct {
	id     data.Identity
	now    time.Time // when it was asked, for "in 42m"
	loc    *time.Location
	theme  themes.Theme
	keys   keymap.Map
	under  func() string
	scroll int
}

func (d *whoamiDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	var closed bool
	if d.scroll, closed = scrollKey(d.keys, k, d.scroll, 1<<30); closed {
		return nil, nil
	}
	return d, nil
}

// whoamiFields are the dialog's label/value pairs.
func whoamiFields(id data.Identity, now time.Time, loc *time.Location) [][2]string {
	orNone := func(s, none string) string {
		if s == "" {
			return none
		}
		return s
	}
	endpoint := orNone(id.Endpoint, "AWS ("+id.Region+")")
	if id.Local {
		return [][2]string{
			{"identity", "DynamoDB Local with dummy credentials: no AWS identity"},
			{"profile", "(none)"},
			{"region", id.Region},
			{"endpoint", endpoint},
		}
	}
	expires := "does not expire"
	if id.CanExpire {
		at := id.Expires
		if loc != nil {
			at = at.In(loc)
		}
		expires = at.Format("2006-01-02 15:04:05 MST")
		if left := id.Expires.Sub(now); left > 0 {
			expires += " (in " + minutesText(left) + ")"
		} else {
			expires += " (expired)"
		}
	}
	return [][2]string{
		{"account", id.Account},
		{"arn", id.ARN},
		{"user id", id.UserID},
		{"profile", orNone(id.Profile, "(none: default credential chain)")},
		{"region", id.Region},
		{"endpoint", endpoint},
		{"credentials", orNone(sourceText(id.Source), "(source not given)")},
		{"expires", expires},
	}
}

func (d *whoamiDialog) View(width, height int) string {
	th := d.theme
	inner := max(width-6, 1)
	const label = 13
	var body []string
	for _, f := range whoamiFields(d.id, d.now, d.loc) {
		head := th.Muted.Render(inert.Pad(f[0], label-1)) + " "
		lines := wrapStyled(lipgloss.NewStyle(), f[1], max(inner-label, 8))
		body = append(body, head+lines[0])
		body = append(body, indent(lines[1:], strings.Repeat(" ", label))...)
	}
	foot := []string{th.Muted.Render(inert.Line("esc closes", inner))}
	return overlay(d.under, frameBox("Who am I", body, foot, inner, height, &d.scroll, th), width, height, th)
}

// Hints is the footer line while the dialog is open.
func (d *whoamiDialog) Hints() string { return "esc close" }

// minutesText is d to the minute, rounded up so that "in 0m" never shows
// for credentials that still work: "3h05m", "42m", "1m".
func minutesText(d time.Duration) string {
	mins := int((d + time.Minute - 1) / time.Minute)
	if mins >= 60 {
		return fmt.Sprintf("%dh%02dm", mins/60, mins%60)
	}
	return fmt.Sprintf("%dm", mins)
}

// sourceText says where credentials came from in words. The SDK writes
// the shared file as "SharedConfigCredentials: <path>", which reads as a
// key and its value — and so is masked as one; the path is not a secret.
func sourceText(src string) string {
	if path, ok := strings.CutPrefix(src, "SharedConfigCredentials: "); ok {
		return "shared credentials file " + path
	}
	return src
}
