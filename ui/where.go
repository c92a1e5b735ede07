package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/data/stream"
	"opsdeck/ui/session"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// Where the console is, and switching without a restart: `:env <name>`,
// `:profile <name>`, `:region <r>` ask the Connector (main) for a session
// of the new target. Connecting runs in a Cmd; until its answer nothing
// changes, and an unknown env or profile, or a failed connection, changes
// nothing at all. When the new session arrives the root adopts it: the
// store, tables and seen ids of the panes' Context, the actions' runner,
// the live feed and demand hook, read-only mode and the protected set;
// every pane drops what the old connection read (Pane.Reconnect) and the
// shown one loads again. The old session's reader is stopped, and waited
// for, before the new one starts (no shard is read twice by this console).
// The command history, the panes' scopes and filters stay.

// connectTimeout bounds connecting to a new target (a credentials lookup
// may be slow: SSO, a role to assume).
const connectTimeout = 30 * time.Second

// tailStopWait bounds the wait for the old reader to return before the new
// one starts anyway (its context is cancelled: it only has its last calls
// to finish).
const tailStopWait = 5 * time.Second

// whereState is the root's part of the connection.
type whereState struct {
	// sess is the session in use; nil when the console was built from
	// plain Options (tests).
	sess      *session.Session
	connector session.Connector
	// baseReadOnly: --read-only or the config's global read-only; a switch
	// never lifts it. baseProtected: the config's protected list.
	baseReadOnly  bool
	baseProtected []string
	region        string
	color         string
	noColor       bool

	seq     uint64 // the last switch asked for
	pending string // what is being connected to ("env staging"), "" when nothing
}

func (m *Model) initWhere(o Options) {
	m.where.connector = o.Connector
	m.where.baseReadOnly = o.ReadOnly
	m.where.baseProtected = o.Protected
	m.where.noColor = o.NoColor
	if o.Conn != nil {
		m.where.region = o.Conn.Region
	}
	if s := o.Session; s != nil {
		m.where.sess = s
		m.where.color = s.Color
		m.act.protected = protectedFor(o.Protected, s)
	}
}

// protectedFor is the list the confirmation checks: the config's, plus the
// session's env when its settings protect it.
func protectedFor(base []string, s *session.Session) []string {
	out := append([]string(nil), base...)
	if s.Protected {
		out = append(out, s.Env)
	}
	return out
}

// switchedMsg is a connection's answer.
type switchedMsg struct {
	seq  uint64
	what string
	sess *session.Session
	err  error
}

// tailSwappedMsg: the old reader has returned (or the wait gave up) and
// the new one has started.
type tailSwappedMsg struct {
	seq uint64
	err error
}

// whereCommands are :env, :profile and :region (root commands).
func whereCommands() []command {
	return []command{
		{CommandSpec: views.CommandSpec{Name: "env", Usage: ":env [name]", Arg: views.ArgOptional},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
				return m.switchWhere(a.Arg, "env", func(t *session.Target) { *t = session.Target{Env: a.Arg} })
			},
			rootComplete: func(m Model) []string { return m.connectorNames((session.Connector).Envs) }},
		{CommandSpec: views.CommandSpec{Name: "profile", Usage: ":profile [name]", Arg: views.ArgOptional},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
				return m.switchWhere(a.Arg, "profile", func(t *session.Target) { t.Profile = a.Arg })
			},
			rootComplete: func(m Model) []string { return m.connectorNames((session.Connector).Profiles) }},
		{CommandSpec: views.CommandSpec{Name: "region", Usage: ":region [region]", Arg: views.ArgOptional},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
				return m.switchWhere(a.Arg, "region", func(t *session.Target) { t.Region = a.Arg })
			},
			rootComplete: func(m Model) []string { return m.connectorNames((session.Connector).Regions) }},
	}
}

func (m Model) connectorNames(f func(session.Connector) []string) []string {
	if m.where.connector == nil {
		return nil
	}
	return f(m.where.connector)
}

// switchWhere starts a switch: name is what was typed (none: say where the
// console is), what names the part that changes, change makes the target
// from the current one.
func (m Model) switchWhere(name, what string, change func(*session.Target)) (tea.Model, tea.Cmd) {
	if name == "" {
		m.setFlash(m.whereLine(what), false)
		return m, nil
	}
	switch {
	case m.where.connector == nil:
		m.setFlash(":"+what+" needs a console started by opsdeck (this one cannot connect elsewhere)", true)
		return m, nil
	case m.act.busy != 0:
		m.setFlash("an action is still running; switch "+what+" once its result is in", true)
		return m, nil
	}
	t := m.target()
	change(&t)
	// A new connection is a new start: a role given up on asks again.
	m.mfaPrompts.Retry()
	m.where.seq++
	m.where.pending = what + " " + name
	m.setPending("connecting to "+m.where.pending+"…", true)
	conn, seq, label := m.where.connector, m.where.seq, m.where.pending
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		s, err := conn.Open(ctx, t)
		return switchedMsg{seq: seq, what: label, sess: s, err: err}
	}
}

// target is where the console points now.
func (m Model) target() session.Target {
	if m.where.sess != nil {
		return m.where.sess.Target()
	}
	return session.Target{Env: m.env, Profile: m.profile, Region: m.where.region}
}

// whereLine says where the console is, and what else the operator may
// name (the connector's names of that kind).
func (m Model) whereLine(what string) string {
	parts := []string{"env " + orDash(m.env)}
	if m.profile != "" {
		parts = append(parts, "profile "+m.profile)
	}
	if m.where.region != "" {
		parts = append(parts, "region "+m.where.region)
	}
	parts = append(parts, "at "+orDash(m.endpoint))
	line := strings.Join(parts, " · ")
	if b := m.badge(); b != "" {
		line = b + " " + line
	}
	var known []string
	switch what {
	case "env":
		known = m.connectorNames((session.Connector).Envs)
	case "profile":
		known = m.connectorNames((session.Connector).Profiles)
	}
	if len(known) > 0 {
		line += " (" + what + "s: " + strings.Join(known, ", ") + ")"
	}
	return line
}

// onSwitched adopts a new session, or says why there is none. An answer to
// an older switch (the operator asked again meanwhile) is closed unused.
func (m Model) onSwitched(msg switchedMsg) (Model, tea.Cmd) {
	if msg.seq != m.where.seq {
		if msg.sess != nil {
			s := msg.sess
			return m, func() tea.Msg { s.Close(); return nil }
		}
		return m, nil
	}
	m.where.pending = ""
	if msg.err != nil {
		m.setFlash(msg.what+": "+describeConnect(msg.err)+" — nothing changed", true)
		return m, nil
	}
	cmd := m.adopt(msg.sess, msg.seq)
	w := msg.sess.Where()
	note := "now on env " + w.Env
	if w.Profile != "" {
		note += " · profile " + w.Profile
	}
	if w.Region != "" {
		note += " · " + w.Region
	}
	if action.NeedsTypedConfirmation(m.env, m.act.protected) {
		note += " — " + m.badge() + ": every action asks for the id typed"
	}
	m.setFlash(note, false)
	return m, cmd
}

// describeConnect is one line for a failed connection.
func describeConnect(err error) string {
	var unknown *session.UnknownError
	var profile *data.UnknownProfileError
	switch {
	case errors.As(err, &unknown), errors.As(err, &profile):
		return err.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", connectTimeout)
	}
	return data.Describe(err)
}

// adopt makes s the console's connection (see the top of this file).
func (m *Model) adopt(s *session.Session, seq uint64) tea.Cmd {
	old := m.where.sess
	m.where.sess = s
	w := s.Where()
	m.ctx.Store, m.ctx.Tables, m.ctx.Seen = s.Store, s.Tables, s.Seen
	m.env, m.profile, m.endpoint = w.Env, w.Profile, s.Conn.Target()
	m.where.region, m.where.color = w.Region, w.Color
	m.readOnly = m.where.baseReadOnly || w.ReadOnly
	m.ctx.ReadOnly = m.readOnly
	m.offerActions()
	m.act.protected = protectedFor(m.where.baseProtected, s)
	m.act.run = m.act.run.reconnect(s.Conn, s.Store, s.Tables, s.Env)

	m.live.feed, m.live.demand = s.Feed, nil
	if s.Feed != nil {
		m.live.demand = s.Demand
	}
	m.live.health = map[data.TableID]stream.Health{}
	m.live.lineage = nil // the new reader's shard turnover counts from zero
	m.live.reconnect = nil
	m.live.demandSent, m.live.wanted = "", nil

	for _, p := range m.panes {
		if p.reconnect != nil {
			p.reconnect.Reconnect()
		}
	}
	cmds := []tea.Cmd{m.panes[m.active].Init()}
	if s.Feed != nil {
		cmds = append(cmds, s.Feed.Next())
	}
	cmds = append(cmds, func() tea.Msg {
		var err error
		if old != nil {
			old.Close()
			err = old.Wait(tailStopWait)
		}
		s.StartTail(nil)
		return tailSwappedMsg{seq: seq, err: err}
	})
	return tea.Batch(cmds...)
}

// onTailSwapped notes an old reader that did not stop in time (it has
// been told to; the new one runs regardless).
func (m Model) onTailSwapped(msg tailSwappedMsg) (Model, tea.Cmd) {
	if msg.err != nil && m.guard != nil && m.guard.log != nil {
		fmt.Fprintf(m.guard.log, "switch: the previous stream reader: %v\n", msg.err)
	}
	return m, nil
}

// Session is the connection in use (nil when built without one).
func (m Model) Session() *session.Session { return m.where.sess }

// badge is "PROD" or "PROTECTED" whenever an action here needs its target
// typed to be confirmed (the same test the confirmation makes), else "".
func (m Model) badge() string {
	if !action.NeedsTypedConfirmation(m.env, m.act.protected) {
		return ""
	}
	switch strings.ToLower(m.env) {
	case "prod", "production":
		return "PROD"
	}
	return "PROTECTED"
}

// envStyle colours the env's name with its configured colour (none under
// NO_COLOR, or when none is set).
func (m Model) envStyle(base lipgloss.Style) lipgloss.Style {
	if m.where.color == "" || m.where.noColor {
		return base
	}
	return base.Foreground(lipgloss.Color(m.where.color)).Bold(true)
}

// badgeView is the badge as drawn: text always, in the env's colour (or
// the read-only badge's style) when there is colour.
func (m Model) badgeView() string {
	b := m.badge()
	if b == "" {
		return ""
	}
	st := m.ctx.Theme.ROBadge
	if m.where.color != "" && !m.where.noColor {
		st = st.Background(lipgloss.Color(m.where.color))
	}
	return st.Render(" " + b + " ")
}

// windowTitle names where the console is, for the terminal's title.
func (m Model) windowTitle() string {
	t := "opsdeck · " + orDash(m.env)
	if b := m.badge(); b != "" {
		t += " [" + b + "]"
	}
	if m.profile != "" {
		t += " · " + m.profile
	}
	if m.where.region != "" {
		t += " · " + m.where.region
	}
	return inert.Line(t, 120)
}
