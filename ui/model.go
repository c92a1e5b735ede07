package ui

import (
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/history"
	"opsdeck/ui/lineedit"
	"opsdeck/views"
	"opsdeck/views/detail"
	"opsdeck/views/terminal"
)

// mode is the one explicit input state. Exactly one thing owns the keyboard:
// the panes (normal), the command line, the filter line, a dialog, or the
// help screen. No "is a prompt open" booleans anywhere else.
type mode int

const (
	modeNormal mode = iota
	modeCommand
	modeFilter
	modeDialog
	modeHelp
)

func (m mode) String() string {
	return [...]string{"normal", "command", "filter", "dialog", "help"}[m]
}

// Model is the root model. Build it with New and run it with
// tea.NewProgram(m).
type Model struct {
	ctx *views.Context
	// panes are the registry's panes (views.Registry), in tab order, each
	// with its capabilities resolved (slot.go).
	panes []*slot

	active int // index into panes of the pane shown
	mode   mode
	// envsSeq numbers the `:overview envs` screens (overview_envs.go).
	envsSeq uint64

	width, height int

	input   lineedit.Model // the command or filter line: value kept exactly, drawn inert
	history []string       // submitted commands, oldest first
	histPos int            // index into history while browsing; len = new line
	draft   string         // the line being typed before browsing history
	comps   []string       // completions of the current tab cycle
	compPos int
	// filterErr is what is wrong with the expression in the filter line
	// ("" when it applies); shown beside it while the rows stay as they
	// were.
	filterErr string
	// sortPending: the sort key was pressed; the next key is a column
	// number (sort.go).
	sortPending bool

	dialog Dialog
	help   help.Model
	// mfa are the open asks for an MFA code (mfa.go), oldest first: the
	// first is drawn over everything and owns the keyboard.
	mfa []mfaAsk
	// mfaPrompts is the bridge the asks come through (Options.MFA); r
	// lets a role given up on ask again. Nil: none.
	mfaPrompts *MFAPrompts

	readOnly bool

	// flash is the message shown on the message line (messages.go): the
	// result of the last command, copy or action, or a pane's note, until
	// it expires. cmdErr marks it as an error; flashSeq numbers it.
	flash    string
	cmdErr   bool
	flashSeq uint64
	// msgs is the session's messages (:messages) and their expiry.
	msgs *messageLog

	quitting bool

	// act is the guarded actions, the confirmation and the quit that waits
	// for a write: a sub-model with its own Update (actions.go).
	act actionState

	// live is the live tail (live.go), a sub-model with its own Update.
	live liveTail

	// jumps is the way back from jumps, newest last (jump.go).
	jumps []jumpPlace

	// clockArmed: a clockTickMsg is on its way, due at clockAt, the
	// arming numbered clockGen (clock.go).
	clockArmed bool
	clockAt    time.Time
	clockGen   uint64

	// frames holds frames back during a load-all (frames.go); fits keeps
	// the last frame's body lines as fitted (view.go).
	frames *frameHold
	fits   *fitCache

	// autoTheme: follow the terminal's background colour (theme.go).
	autoTheme bool
	// send writes a sequence to the terminal at once, in order with the
	// frames (SendToTerminal); nil: the program library writes it.
	send func(seq string)
	// term: what ctrl+l and ctrl+z ask of the terminal (terminal_keys.go).
	term TerminalControl

	// helpOff is the help screen's scroll offset, in lines, and helpCache
	// its last text (help.go).
	helpOff   int
	helpCache *helpCache

	// guard recovers from panics and logs them (recover.go).
	guard *panicGuard

	// scan is the explicit scan and :export, a sub-model with its own
	// Update (scan_export.go).
	scan scanExport

	// where is the connection, a sub-model with its own Update
	// (where.go); hist the history file (cmdhistory.go).
	where connection
	hist  *history.File

	// sign watches an expired SSO sign-in and the credentials' expiry,
	// and runs :login (signin.go, login.go).
	sign signInState
}

// New builds the console. It does no I/O: the first page of the active pane
// is requested by Init.
func New(o Options) Model {
	if len(o.Keys.Quit.Keys()) == 0 {
		o.Keys = keymap.Default()
	}
	o.Keys = o.Keys.WithPanes(paneKeys())
	if o.Theme.Name == "" {
		o.Theme = themes.Dark()
	}
	if s := o.Session; s != nil {
		o.Store, o.Conn, o.Tables, o.Env, o.Feed = s.Store, s.Conn, s.Tables, s.Env, s.Feed
		o.Demand = nil
		if s.Feed != nil {
			o.Demand = s.Demand
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	tables := o.Tables
	if o.Store != nil && tables.Env == "" {
		tables = o.Store.Tables()
	}
	views.SetTrouble(data.Trouble{ExpiringWithin: o.Scopes.Overview.ExpiringWithin, StaleRun: o.Scopes.Overview.StaleRun, RetryMax: o.Scopes.Overview.RetryMax})
	ctx := &views.Context{
		Theme:       o.Theme,
		Keys:        o.Keys,
		Store:       o.Store,
		Tables:      tables,
		Now:         o.Now,
		Timer:       o.Timer,
		ReadOnly:    o.ReadOnly,
		PageSize:    o.PageSize,
		ReadTimeout: o.ReadTimeout,
		Location:    o.Location,
	}
	if o.Session != nil {
		ctx.Seen = o.Session.Seen
	}
	m := Model{ctx: ctx, where: connection{env: o.Env, profile: o.Profile}, readOnly: o.ReadOnly, autoTheme: o.AutoTheme && !o.NoColor,
		guard: &panicGuard{log: o.DebugLog}, mfaPrompts: o.MFA}
	if o.Conn != nil {
		m.where.endpoint = o.Conn.Target()
		if m.where.profile == "" {
			m.where.profile = o.Conn.Profile
		}
		m.readOnly = m.readOnly || o.Conn.ReadOnly
		ctx.ReadOnly = m.readOnly
	}
	if m.where.env == "" {
		m.where.env = tables.Env
	}
	s := o.Scopes
	s.StreamBuffer, s.Location = o.StreamBuffer, o.Location
	for _, spec := range views.Registry() {
		m.panes = append(m.panes, newSlot(spec.New(ctx, s)))
	}

	m.input = lineedit.New(512)
	m.help = help.New()
	if m.ctx.Theme.Name == themes.Plain().Name {
		// NO_COLOR: the key hints too (the help bubble's own styles are
		// grey).
		m.help.Styles = help.Styles{}
	}
	m.setSize(80, 24)
	m.initActions(o)
	m.live = newLiveTail(ctx, o)
	m.frames = &frameHold{}
	m.fits = &fitCache{}
	m.msgs = &messageLog{}
	m.helpCache = &helpCache{}
	m.where.init(o)
	m.initHistory(o)
	return m
}

// Init loads the active pane and starts the live tail.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.panes[m.active].Init(), m.live.Init(), m.queryBackground()}
	for _, p := range m.panes {
		if p.background != nil {
			cmds = append(cmds, p.background.Background())
		}
	}
	return m.guard.guardCmd(tea.Batch(cmds...))
}

// Update routes one message, then keeps the clock ticking while the shown
// pane has live times on screen (clock.go).
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) { return m.safeUpdate(msg) }

func (m Model) routeAndTick(msg tea.Msg) (tea.Model, tea.Cmd) {
	if t, ok := msg.(clockTickMsg); ok {
		return m.onClockTick(t)
	}
	seqBefore := m.flashSeq
	next, cmd := m.update(msg)
	nm, ok := next.(Model)
	if !ok {
		return next, cmd
	}
	nm.noteMessages(seqBefore)
	if e := nm.armMessage(); e != nil {
		cmd = tea.Batch(cmd, e)
	}
	if f := nm.holdFrame(msg); f != nil {
		cmd = tea.Batch(cmd, f)
	}
	if tick := nm.armClock(); tick != nil {
		cmd = tea.Batch(cmd, tick)
	}
	if d := nm.live.demandCmd(nm.panes, nm.active); d != nil {
		cmd = tea.Batch(cmd, d)
	}
	if s := nm.watchSignIn(); s != nil {
		cmd = tea.Batch(cmd, s)
	}
	return nm, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	// A key goes straight to its route (keys.go): no sub-model has keys
	// of its own, and a pane sees a key after that one file.
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return m.key(k)
	}
	if cmd, ok := m.act.Update(&m, msg); ok {
		return m, cmd
	}
	if cmd, ok := m.live.Update(&m, msg); ok {
		return m, cmd
	}
	if cmd, ok := m.where.Update(&m, msg); ok {
		return m, cmd
	}
	if cmd, ok := m.scan.Update(&m, msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
		return m, nil
	case tea.BackgroundColorMsg:
		m.onBackground(msg)
		return m, nil
	case terminal.Msg:
		return m, m.toTerminal(msg.Seq)
	case tea.PasteMsg:
		switch {
		case len(m.mfa) > 0:
			return m.mfaPaste(msg)
		case m.mode == modeCommand || m.mode == modeFilter:
			return m.updateInput(msg)
		case m.mode == modeDialog && m.dialog != nil:
			// The typed confirmation accepts a paste: an id with
			// invisible characters cannot be typed.
			return m.updateDialog(msg)
		}
		return m, nil
	case messageExpiredMsg:
		return m.onMessageExpired(msg)
	case CredentialHelperMsg:
		return m.onCredentialHelper(msg)
	case mfaPromptMsg, mfaWithdrawnMsg, mfaAcceptedMsg:
		return m.onMFA(msg)
	case signInMsg:
		return m.onSignIn(msg)
	case dialogTickMsg:
		return m, nil // a dialog's pause ended: the redraw shows it
	case detail.CopiedMsg:
		m.copied(msg)
		return m, nil
	case whoamiMsg:
		return m.onWhoAmI(msg)
	case OpenDialogMsg:
		if msg.Dialog != nil {
			m.dialog, m.mode = msg.Dialog, modeDialog
		}
		return m, nil
	case historyErrMsg:
		// Said once: the file is left alone for the rest of the session.
		m.hist = nil
		m.setFlash(msg.err.Error()+" (history kept for this session only)", true)
		return m, nil
	case views.OpenScopeMsg:
		return m.openScopeMsg(msg)
	case views.OverviewEnvsMsg:
		return m.openEnvsOverview(msg)
	case envConnectedMsg:
		// Routed here, not by mode: an answer that arrives after the
		// screen was left must still close its connection.
		if d, ok := m.dialog.(*envsOverview); ok && m.mode == modeDialog {
			return m, d.connected(msg)
		}
		if msg.sess != nil {
			msg.sess.Close()
		}
		return m, nil
	case interface{ PaneID() views.PaneID }:
		// An answer addressed to one pane (a page, a quota): it goes there
		// whether or not that pane is shown.
		if p := m.Pane(msg.PaneID()); p != nil {
			return m, p.Update(msg)
		}
		return m, nil
	}
	if m.mode == modeDialog && m.dialog != nil {
		return m.updateDialog(msg)
	}
	if m.mode == modeCommand || m.mode == modeFilter {
		return m.updateInput(msg)
	}
	return m, m.panes[m.active].Update(msg)
}

// setSize lays the screen out: tab bar, pane title, pane, status bar,
// footer (hints, prompt or progress).
func (m *Model) setSize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	m.ctx.Width, m.ctx.Height = m.width, m.paneHeight()
	for _, p := range m.panes {
		p.SetSize(m.width, m.paneHeight())
	}
	m.help.SetWidth(m.width)
	m.sizeDialog()
}

// chromeLines is everything that is not the pane: tab bar, title line,
// status bar and footer.
const chromeLines = 4

func (m Model) paneHeight() int { return max(m.height-chromeLines, 0) }

// switchTo shows pane id and loads it if it never was. A pane whose table
// is polled is refreshed at once rather than at the next tick: its rows may
// be a whole FallbackInterval old, and the operator just asked to see them.
// The pane itself refuses a poll while a load or another poll runs, so
// refreshes never overlap.
func (m *Model) switchTo(i int) tea.Cmd {
	if i < 0 || i >= len(m.panes) {
		return nil
	}
	m.active = i
	p := m.panes[i]
	cmd := p.Init()
	if m.live.needsPolling(p.shownTable()) {
		cmd = tea.Batch(cmd, p.poll.Poll())
	}
	return cmd
}

// openScope shows the pane that lists scope's table, on exactly that
// scope (enter on an overview number, a jump).
func (m Model) openScope(sc data.Scope) (tea.Model, tea.Cmd) {
	id, ok := views.PaneOf(sc.Table)
	if !ok {
		m.setFlash("no pane lists "+string(sc.Table), true)
		return m, nil
	}
	i, ok := m.paneIndex(id)
	if !ok {
		return m, nil
	}
	var cmd tea.Cmd
	if s := m.panes[i].scope; s != nil {
		cmd, ok = s.ShowScope(sc)
	} else {
		ok = false
	}
	if !ok {
		m.setFlash(m.panes[i].ID().Name()+" cannot list "+string(sc.Table), true)
		return m, nil
	}
	m.active = i
	return m, cmd
}

// show makes pane id the shown one, without loading it (a command that
// gives it a scope loads it).
func (m *Model) show(id views.PaneID) (views.Pane, bool) {
	i, ok := m.paneIndex(id)
	if ok {
		m.active = i
	}
	return m.panes[m.active].Pane, ok
}

// paneIndex is pane id's place in the tab order.
func (m Model) paneIndex(id views.PaneID) (int, bool) {
	for i, p := range m.panes {
		if p.ID() == id {
			return i, true
		}
	}
	return 0, false
}

// setFlash shows a message (messages.go) and logs it; "" clears the one
// shown. Messages quote values (a guard that failed says what it found),
// so credentials in them are masked.
func (m *Model) setFlash(text string, isErr bool) {
	text = maskText(text)
	m.flash, m.cmdErr = text, isErr
	m.logMessage(text, isErr, "")
}

// maskText is text with the credentials in it masked (data/secret).
func maskText(text string) string {
	text, _ = secret.Text(text)
	return text
}

func (m *Model) copied(c detail.CopiedMsg) {
	switch {
	case c.Err != nil:
		m.setFlash("copy failed: "+c.Err.Error(), true)
	case c.Masked:
		hint := c.RevealHint
		if hint == "" {
			hint = "s reveals them in the detail view"
		}
		m.setFlash(plural(c.Bytes, "byte")+" of JSON copied (secrets masked; "+hint+")", false)
	default:
		m.setFlash(plural(c.Bytes, "byte")+" of JSON copied", false)
	}
}

// Active returns the id of the pane shown.
func (m Model) Active() views.PaneID { return m.panes[m.active].ID() }

// Pane returns pane id (nil when no pane has that id).
func (m Model) Pane(id views.PaneID) views.Pane {
	if s := m.slotOf(id); s != nil {
		return s.Pane
	}
	return nil
}

// slotOf is pane id with its capabilities (nil when no pane has that id).
func (m Model) slotOf(id views.PaneID) *slot {
	if i, ok := m.paneIndex(id); ok {
		return m.panes[i]
	}
	return nil
}

// Mode names the current input mode ("normal", "command", ...).
func (m Model) Mode() string { return m.mode.String() }

// Flash is the status bar's current message.
func (m Model) Flash() string { return m.flash }

var _ help.KeyMap = keymap.Map{}

// Store is the data store the console reads (nil in some tests).
func (m Model) Store() *data.Store { return m.ctx.Store }
