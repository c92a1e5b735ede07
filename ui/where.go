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
	"opsdeck/themes"
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
// every pane drops what the old connection read (views.Reconnector) and the
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

// connection is the connection's sub-model: where the console points, the
// protected set that follows from it, and switching it. Update handles its
// own messages; the root adopts a new session across the sub-models
// (adopt), since every one of them holds something of it.
type connection struct {
	env, profile, endpoint string
	// protected is what the confirmation checks: the config's list, plus
	// the session's env when its settings protect it.
	protected []string
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

// init takes the rest of the connection from o (env, profile and
// endpoint are set first: the actions' runner is made with the env).
func (c *connection) init(o Options) {
	c.connector = o.Connector
	c.baseReadOnly = o.ReadOnly
	c.baseProtected = o.Protected
	c.protected = o.Protected
	c.noColor = o.NoColor
	if o.Conn != nil {
		c.region = o.Conn.Region
	}
	if s := o.Session; s != nil {
		c.sess = s
		c.color = s.Color
		c.protected = protectedFor(o.Protected, s)
	}
}

// Update handles the connection's own messages: a switch's answer, and
// the old reader's end after one.
func (c *connection) Update(r *Model, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case switchedMsg:
		return c.onSwitched(r, msg), true
	case tailSwappedMsg:
		c.onTailSwapped(r.guard, msg)
		return nil, true
	}
	return nil, false
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
				cmd := m.where.switchTo(&m, a.Arg, "env", func(t *session.Target) { *t = session.Target{Env: a.Arg} })
				return m, cmd
			},
			rootComplete: func(m Model) []string { return m.where.connectorNames((session.Connector).Envs) }},
		{CommandSpec: views.CommandSpec{Name: "profile", Usage: ":profile [name]", Arg: views.ArgOptional},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
				cmd := m.where.switchTo(&m, a.Arg, "profile", func(t *session.Target) { t.Profile = a.Arg })
				return m, cmd
			},
			rootComplete: func(m Model) []string { return m.where.connectorNames((session.Connector).Profiles) }},
		{CommandSpec: views.CommandSpec{Name: "region", Usage: ":region [region]", Arg: views.ArgOptional},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
				cmd := m.where.switchTo(&m, a.Arg, "region", func(t *session.Target) { t.Region = a.Arg })
				return m, cmd
			},
			rootComplete: func(m Model) []string { return m.where.connectorNames((session.Connector).Regions) }},
	}
}

func (c *connection) connectorNames(f func(session.Connector) []string) []string {
	if c.connector == nil {
		return nil
	}
	return f(c.connector)
}

// switchWhere starts a switch: name is what was typed (none: say where the
// console is), what names the part that changes, change makes the target
// from the current one.
func (c *connection) switchTo(r *Model, name, what string, change func(*session.Target)) tea.Cmd {
	if name == "" {
		r.setFlash(c.whereLine(what), false)
		return nil
	}
	switch {
	case c.connector == nil:
		r.setFlash(":"+what+" needs a console started by opsdeck (this one cannot connect elsewhere)", true)
		return nil
	case r.act.busy != 0:
		r.setFlash("an action is still running; switch "+what+" once its result is in", true)
		return nil
	}
	t := c.target()
	change(&t)
	// A new connection is a new start: a role given up on asks again.
	r.mfaPrompts.Retry()
	c.seq++
	c.pending = what + " " + name
	r.setPending("connecting to "+c.pending+"…", true)
	conn, seq, label := c.connector, c.seq, c.pending
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		s, err := conn.Open(ctx, t)
		return switchedMsg{seq: seq, what: label, sess: s, err: err}
	}
}

// target is where the console points now.
func (c *connection) target() session.Target {
	if c.sess != nil {
		return c.sess.Target()
	}
	return session.Target{Env: c.env, Profile: c.profile, Region: c.region}
}

// whereLine says where the console is, and what else the operator may
// name (the connector's names of that kind).
func (c *connection) whereLine(what string) string {
	parts := []string{"env " + orDash(c.env)}
	if c.profile != "" {
		parts = append(parts, "profile "+c.profile)
	}
	if c.region != "" {
		parts = append(parts, "region "+c.region)
	}
	parts = append(parts, "at "+orDash(c.endpoint))
	line := strings.Join(parts, " · ")
	if b := c.badge(); b != "" {
		line = b + " " + line
	}
	var known []string
	switch what {
	case "env":
		known = c.connectorNames((session.Connector).Envs)
	case "profile":
		known = c.connectorNames((session.Connector).Profiles)
	}
	if len(known) > 0 {
		line += " (" + what + "s: " + strings.Join(known, ", ") + ")"
	}
	return line
}

// onSwitched adopts a new session, or says why there is none. An answer to
// an older switch (the operator asked again meanwhile) is closed unused.
func (c *connection) onSwitched(r *Model, msg switchedMsg) tea.Cmd {
	if msg.seq != c.seq {
		if msg.sess != nil {
			s := msg.sess
			return func() tea.Msg { s.Close(); return nil }
		}
		return nil
	}
	c.pending = ""
	if msg.err != nil {
		r.setFlash(msg.what+": "+describeConnect(msg.err)+" — nothing changed", true)
		return nil
	}
	cmd := r.adopt(msg.sess, msg.seq)
	w := msg.sess.Where()
	note := "now on env " + w.Env
	if w.Profile != "" {
		note += " · profile " + w.Profile
	}
	if w.Region != "" {
		note += " · " + w.Region
	}
	if action.NeedsTypedConfirmation(c.env, c.protected) {
		note += " — " + c.badge() + ": every action asks for the id typed"
	}
	r.setFlash(note, false)
	return cmd
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
	old := m.where.adopt(s)
	w := s.Where()
	m.ctx.Store, m.ctx.Tables, m.ctx.Seen = s.Store, s.Tables, s.Seen
	m.readOnly = m.where.baseReadOnly || w.ReadOnly
	m.ctx.ReadOnly = m.readOnly
	m.offerActions()
	m.act.run = m.act.run.reconnect(s.Conn, s.Store, s.Tables, s.Env)

	var demand func([]data.TableID)
	if s.Feed != nil {
		demand = s.Demand
	}
	m.live.adopt(s.Feed, demand)

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

// adopt makes s where the console points; it returns the session it
// replaces.
func (c *connection) adopt(s *session.Session) (old *session.Session) {
	old, c.sess = c.sess, s
	w := s.Where()
	c.env, c.profile, c.endpoint = w.Env, w.Profile, s.Conn.Target()
	c.region, c.color = w.Region, w.Color
	c.protected = protectedFor(c.baseProtected, s)
	return old
}

// onTailSwapped notes an old reader that did not stop in time (it has
// been told to; the new one runs regardless).
func (c *connection) onTailSwapped(guard *panicGuard, msg tailSwappedMsg) {
	if msg.err != nil && guard != nil && guard.log != nil {
		fmt.Fprintf(guard.log, "switch: the previous stream reader: %v\n", msg.err)
	}
}

// Session is the connection in use (nil when built without one).
func (m Model) Session() *session.Session { return m.where.sess }

// badge is "PROD" or "PROTECTED" whenever an action here needs its target
// typed to be confirmed (the same test the confirmation makes), else "".
func (c *connection) badge() string {
	if !action.NeedsTypedConfirmation(c.env, c.protected) {
		return ""
	}
	switch strings.ToLower(c.env) {
	case "prod", "production":
		return "PROD"
	}
	return "PROTECTED"
}

// envStyle colours the env's name with its configured colour (none under
// NO_COLOR, or when none is set).
func (c *connection) envStyle(base lipgloss.Style) lipgloss.Style {
	if c.color == "" || c.noColor {
		return base
	}
	return base.Foreground(lipgloss.Color(c.color)).Bold(true)
}

// badgeView is the badge as drawn: text always, in the env's colour (or
// the read-only badge's style) when there is colour.
func (c *connection) badgeView(th themes.Theme) string {
	b := c.badge()
	if b == "" {
		return ""
	}
	st := th.ROBadge
	if c.color != "" && !c.noColor {
		st = st.Background(lipgloss.Color(c.color))
	}
	return st.Render(" " + b + " ")
}

// windowTitle names where the console is, for the terminal's title.
func (c *connection) windowTitle() string {
	t := "opsdeck · " + orDash(c.env)
	if b := c.badge(); b != "" {
		t += " [" + b + "]"
	}
	if c.profile != "" {
		t += " · " + c.profile
	}
	if c.region != "" {
		t += " · " + c.region
	}
	return inert.Line(t, 120)
}
