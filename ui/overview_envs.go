package ui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/ui/session"
	"opsdeck/views"
)

// `:overview envs`: every configured env's Overview at once, for an
// incident that crosses envs. Each env gets its own connection and
// credentials from the Connector (main's places: the env's own profile,
// region, endpoint), opened beside the console's own — which is not
// touched: the env in use is counted through the connection it already
// has. Each counts the Overview pane's own plan (Store.CountOverview, the
// numbers drawn by views.TallyText), so the numbers are the Overview's.
// An env that cannot be reached, whose credentials are expired, or whose
// policy refuses the counts says so in its own block while the others
// show numbers. The connections opened here (no stream reader is ever
// started on them) are closed when the screen is left (esc or b), and
// any answer that arrives after that closes its own.

// envsCountTimeout bounds one env's count (every metric, four at a time).
const envsCountTimeout = 30 * time.Second

// envBlock is one env's part of the screen.
type envBlock struct {
	env   string
	where string // profile · region or endpoint, once connected
	// sess is the connection opened for this screen (nil for the env in
	// use, whose connection is the console's, and before it connects).
	sess  *session.Session
	store *data.Store
	state envState
	err   string // why there are no numbers (failed)
	ov    data.Overview
}

type envState int

const (
	envConnecting envState = iota
	envCounting
	envCounted
	envFailed
)

// envsOverview is the screen, a full-size dialog over the panes.
type envsOverview struct {
	gen    uint64
	plan   data.OverviewPlan
	alerts []data.Threshold
	blocks []envBlock
	theme  themes.Theme
	dialogKeys
	back, reload key.Binding
	connector    session.Connector
	now          func() time.Time
	scroll       int
	w, h         int
}

// envConnectedMsg is one env's connection (or why there is none).
type envConnectedMsg struct {
	gen  uint64
	i    int
	sess *session.Session
	err  error
}

// envCountedMsg is one env's count.
type envCountedMsg struct {
	gen uint64
	i   int
	ov  data.Overview
}

// openEnvsOverview opens the screen and starts every env's connection
// (the env in use: its count).
func (m Model) openEnvsOverview(msg views.OverviewEnvsMsg) (tea.Model, tea.Cmd) {
	m.envsSeq++
	d := &envsOverview{
		gen: m.envsSeq, plan: msg.Plan, alerts: msg.Alerts, theme: m.ctx.Theme,
		dialogKeys: dialogKeysOf(m.ctx.Keys), back: m.ctx.Keys.JumpBack, reload: m.ctx.Keys.Reload,
		connector: m.where.connector, now: m.ctx.Now,
	}
	envs := []string{m.where.env}
	if d.connector != nil {
		envs = d.connector.Envs()
	}
	var cmds []tea.Cmd
	for i, e := range envs {
		b := envBlock{env: e}
		if strings.EqualFold(e, m.where.env) {
			b.store, b.state, b.where = m.ctx.Store, envCounting, m.whereShort()
			d.blocks = append(d.blocks, b)
			cmds = append(cmds, d.count(i))
			continue
		}
		d.blocks = append(d.blocks, b)
		cmds = append(cmds, d.connect(i, e))
	}
	m.dialog, m.mode = d, modeDialog
	m.sizeDialog()
	return m, tea.Batch(cmds...)
}

// whereShort is the console's own connection as a block names it.
func (m Model) whereShort() string {
	if m.where.sess != nil {
		return whereOf(m.where.sess.Where())
	}
	return m.where.endpoint
}

func whereOf(w session.Where) string {
	var parts []string
	if w.Profile != "" {
		parts = append(parts, "profile "+w.Profile)
	}
	switch {
	case w.Endpoint != "":
		parts = append(parts, data.RedactURL(w.Endpoint))
	case w.Region != "":
		parts = append(parts, w.Region)
	}
	return strings.Join(parts, " · ")
}

func (d *envsOverview) connect(i int, env string) tea.Cmd {
	gen, c := d.gen, d.connector
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		s, err := c.Open(ctx, session.Target{Env: env})
		return envConnectedMsg{gen: gen, i: i, sess: s, err: err}
	}
}

func (d *envsOverview) count(i int) tea.Cmd {
	gen, st, plan := d.gen, d.blocks[i].store, d.plan
	now := time.Now()
	if d.now != nil {
		now = d.now()
	}
	if st == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), envsCountTimeout)
		defer cancel()
		return envCountedMsg{gen: gen, i: i, ov: st.CountOverview(ctx, plan, now)}
	}
}

// SetSize is the area the screen is drawn in.
func (d *envsOverview) SetSize(w, h int) { d.w, d.h = w, h }

// Update takes the connections, the counts and the keys.
func (d *envsOverview) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case envConnectedMsg:
		return d, d.connected(msg)
	case envCountedMsg:
		if msg.gen == d.gen && msg.i < len(d.blocks) {
			d.counted(msg.i, msg.ov)
		}
		return d, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, d.dismiss), key.Matches(msg, d.back):
			d.close()
			return nil, nil
		case key.Matches(msg, d.reload):
			return d, d.recount()
		case key.Matches(msg, d.up):
			d.scroll = max(d.scroll-1, 0)
		case key.Matches(msg, d.down):
			d.scroll++
		}
	}
	return d, nil
}

// connected adopts an env's connection and counts through it.
func (d *envsOverview) connected(msg envConnectedMsg) tea.Cmd {
	if msg.gen != d.gen || msg.i >= len(d.blocks) {
		if msg.sess != nil {
			msg.sess.Close()
		}
		return nil
	}
	b := &d.blocks[msg.i]
	if msg.err != nil {
		b.state, b.err = envFailed, "cannot connect: "+data.Describe(msg.err)
		return nil
	}
	b.sess, b.store, b.state, b.where = msg.sess, msg.sess.Store, envCounting, whereOf(msg.sess.Where())
	return d.count(msg.i)
}

// counted takes an env's count. Every number failed: the block says why
// (the first failure: denied, expired, unreachable are the same for all).
func (d *envsOverview) counted(i int, ov data.Overview) {
	b := &d.blocks[i]
	b.ov, b.state, b.err = ov, envCounted, ""
	failed := 0
	var first error
	for _, t := range ov.Tallies {
		if t.Err != nil {
			failed++
			if first == nil {
				first = t.Err
			}
		}
	}
	if len(ov.Tallies) > 0 && failed == len(ov.Tallies) {
		b.state, b.err = envFailed, data.Describe(first)
	}
}

// recount counts every connected env again.
func (d *envsOverview) recount() tea.Cmd {
	var cmds []tea.Cmd
	for i := range d.blocks {
		if d.blocks[i].store == nil {
			continue
		}
		d.blocks[i].state = envCounting
		cmds = append(cmds, d.count(i))
	}
	return tea.Batch(cmds...)
}

// close closes the connections opened for the screen; an answer still on
// its way closes its own (connected: the gen no longer matches).
func (d *envsOverview) close() {
	d.gen = 0
	for i := range d.blocks {
		if s := d.blocks[i].sess; s != nil {
			s.Close()
			d.blocks[i].sess = nil
		}
	}
}

// Hints is the footer while the screen is open.
func (d *envsOverview) Hints() string {
	return keyName(d.dismiss) + "/" + keyName(d.back) + " back · " + keyName(d.reload) + " re-count · " +
		keyName(d.up) + "/" + keyName(d.down) + " scroll"
}
