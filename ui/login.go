package ui

// :login — sign in to IAM Identity Center from the console: a dialog
// shows the address and the code to approve in a browser while the
// console polls (data.DeviceLogin); the token goes to the CLI's cache and
// the panes whose read failed are read again. esc gives up.

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// VerbLogin starts the device-code sign-in.
const VerbLogin Verb = "login"

// loginCallTimeout bounds each call to IAM Identity Center.
const loginCallTimeout = 30 * time.Second

// loginState is the sign-in under way (seq numbers them; active: one
// waits).
type loginState struct {
	seq    uint64
	active bool
	dev    *data.DeviceLogin
	conn   *data.Conn
}

// loginMsg is every message of :login.
type loginMsg interface {
	signInMsg
	loginSeq() uint64
}

type loginStartedMsg struct {
	seq  uint64
	dev  *data.DeviceLogin
	err  error
	conn *data.Conn
}
type loginPollMsg struct{ seq uint64 }
type loginPolledMsg struct {
	seq      uint64
	done     bool
	err      error
	interval time.Duration
}
type loginCancelMsg struct{ seq uint64 }

func (loginStartedMsg) signIn()            {}
func (loginPollMsg) signIn()               {}
func (loginPolledMsg) signIn()             {}
func (loginCancelMsg) signIn()             {}
func (x loginStartedMsg) loginSeq() uint64 { return x.seq }
func (x loginPollMsg) loginSeq() uint64    { return x.seq }
func (x loginPolledMsg) loginSeq() uint64  { return x.seq }
func (x loginCancelMsg) loginSeq() uint64  { return x.seq }

// openLogin asks IAM Identity Center for a code, in a Cmd.
func (m Model) openLogin() (tea.Model, tea.Cmd) {
	c := m.conn()
	switch {
	case c == nil:
		m.setFlash("login: not connected", true)
		return m, nil
	case m.sign.login.active:
		m.setFlash("login: a sign-in is already waiting for approval", true)
		return m, nil
	}
	m.sign.login = loginState{seq: m.sign.login.seq + 1, active: true, conn: c}
	seq := m.sign.login.seq
	m.setPending("login: asking IAM Identity Center for a code…", false)
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), loginCallTimeout)
		defer cancel()
		dev, err := c.StartSSOLogin(ctx, time.Now())
		return loginStartedMsg{seq: seq, dev: dev, err: err, conn: c}
	}
}

func (m Model) onLogin(msg loginMsg) (tea.Model, tea.Cmd) {
	if msg.loginSeq() != m.sign.login.seq || !m.sign.login.active {
		return m, nil // cancelled, or an earlier sign-in's
	}
	switch msg := msg.(type) {
	case loginStartedMsg:
		if msg.err != nil {
			m.sign.login.active = false
			m.setFlash(oneLine(msg.err.Error()), true)
			return m, nil
		}
		m.sign.login.dev = msg.dev
		d := &loginDialog{seq: msg.seq, dev: msg.dev, loc: m.ctx.Location, theme: m.ctx.Theme, keys: m.ctx.Keys, under: m.panes[m.active].View}
		if m.dialog == nil {
			m.flash, m.cmdErr = "", false // the dialog is the answer
			m.dialog, m.mode = d, modeDialog
		} else {
			// Another dialog holds the screen: the address and the code go
			// on the message line, and the sign-in waits all the same.
			m.setFlash("login: open "+msg.dev.VerificationURIComplete+" (code "+msg.dev.UserCode+")", false)
		}
		return m, m.ctx.After(msg.dev.Interval, loginPollMsg{seq: msg.seq})
	case loginPollMsg:
		dev, c, seq := m.sign.login.dev, m.sign.login.conn, msg.seq
		return m, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), loginCallTimeout)
			defer cancel()
			done, err := dev.Poll(ctx, time.Now())
			if done {
				c.FreshSSOToken() // the watch's problem, if any, is over
			}
			return loginPolledMsg{seq: seq, done: done, err: err, interval: dev.Interval}
		}
	case loginPolledMsg:
		if !msg.done && msg.err == nil {
			return m, m.ctx.After(msg.interval, loginPollMsg{seq: msg.seq})
		}
		m.sign.login.active = false
		if d, ok := m.dialog.(*loginDialog); ok && d.seq == msg.seq {
			m.dialog, m.mode = nil, modeNormal
		}
		if msg.err != nil {
			m.setFlash(oneLine(msg.err.Error()), true)
			return m, nil
		}
		return m.signedInAgain("signed in")
	case loginCancelMsg:
		m.sign.login.active = false
		m.setFlash("login cancelled", false)
	}
	return m, nil
}

// loginDialog shows where to approve the sign-in.
type loginDialog struct {
	seq    uint64
	dev    *data.DeviceLogin
	loc    *time.Location
	theme  themes.Theme
	keys   keymap.Map
	under  func() string
	scroll int
}

func (d *loginDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	var closed bool
	if d.scroll, closed = scrollKey(d.keys, k, d.scroll, 1<<30); closed {
		seq := d.seq
		return nil, func() tea.Msg { return loginCancelMsg{seq: seq} }
	}
	return d, nil
}

func (d *loginDialog) View(width, height int) string {
	th := d.theme
	inner := max(width-6, 1)
	plain := lipgloss.NewStyle()
	var body []string
	add := func(st lipgloss.Style, text string) {
		body = append(body, wrapStyled(st, text, inner)...)
	}
	add(plain, "Open this address in a browser and approve the sign-in:")
	add(th.Key, d.dev.VerificationURI)
	add(plain, "code: "+d.dev.UserCode)
	if d.dev.VerificationURIComplete != "" {
		body = append(body, "")
		add(th.Muted, "or this one, with the code filled in:")
		add(th.Key, d.dev.VerificationURIComplete)
	}
	body = append(body, "")
	exp := d.dev.Expires
	if d.loc != nil {
		exp = exp.In(d.loc)
	}
	add(th.Muted, "waiting for approval… (the code is good until "+exp.Format("15:04:05")+")")
	foot := []string{th.Muted.Render(inert.Line("esc cancels", inner))}
	return overlay(d.under, frameBox("Sign in · "+d.dev.Session.Label(), body, foot, inner, height, &d.scroll, th), width, height, th)
}

// Hints is the footer line while the dialog is open.
func (d *loginDialog) Hints() string { return "esc cancel · the console polls until approved" }
