package ui

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/keymap"
)

// The guarded actions, UI side: a key builds plans for the selected or
// marked rows (data/action decides whether each applies), a confirmation
// dialog shows them, and confirming runs them in a tea.Cmd. Which actions
// exist, their keys and their words all come from the declarations
// (action.Specs); nothing here names an action. The root model keeps one
// actionState value; everything a Cmd needs is copied into it before it
// runs.

// actionState is the actions' sub-model: the action keys, the write in
// flight, a bulk run, the read of whole items, and a quit that waits for a
// write (quit_drain.go). Update (actions_run.go) handles its messages; it
// reaches the panes, the dialog and the message line through the root it
// is given.
type actionState struct {
	// keys are the action keys as configured. In read-only mode the
	// copies in the shared keymap are disabled (so help does not list
	// them); these originals still recognise the key, to say why nothing
	// happens.
	keys []keymap.ActionKey
	// run holds what execution needs; the pointer is shared by Model copies
	// and Cmds, and never changes after New.
	run *actionRunner

	opts  action.Options
	now   func() time.Time
	probe bool // Options.ProbeWrites

	seq  uint64 // last request id issued
	busy uint64 // the single action in flight, 0 when none
	// whole: the read of whole items an action key waits for, 0 when none.
	whole uint64

	// drain: a quit waits for the write in flight (quit_drain.go);
	// farewell is that write's outcome, for main to print at exit.
	drain    *quitDrain
	farewell string
}

// actionRunner is everything an action's Cmd uses. It never changes after
// it is made: a switch of connection makes a new one (reconnect), sharing
// the audit log, which is opened once, on the first action, so a session
// that never acts never creates the file.
type actionRunner struct {
	conn   *data.Conn
	store  *data.Store
	tables data.Tables
	env    string
	now    func() time.Time

	audit *auditHandle
	// flights are the writes sent and not settled, of every connection
	// of the session: a quit waits for them or abandons them on record.
	flights *action.Flights
	// perms: what this connection learnt of its write permissions.
	perms *permMemory
}

// auditHandle opens the audit log on first use and keeps it for every
// connection of the session.
type auditHandle struct {
	path string // "" → action.DefaultAuditPath()
	once sync.Once
	log  *action.AuditLog
	err  error
}

// reconnect is the runner for another connection, with the same audit log.
func (r *actionRunner) reconnect(conn *data.Conn, store *data.Store, tables data.Tables, env string) *actionRunner {
	return &actionRunner{conn: conn, store: store, tables: tables, env: env, now: r.now, audit: r.audit, flights: r.flights, perms: newPermMemory()}
}

// auditLog opens the audit log on first use. Safe for concurrent use.
func (r *actionRunner) auditLog() (*action.AuditLog, error) {
	a := r.audit
	a.once.Do(func() {
		path := a.path
		if path == "" {
			path, a.err = action.DefaultAuditPath()
			if a.err != nil {
				return
			}
		}
		a.log, a.err = action.OpenAuditLog(path)
	})
	return a.log, a.err
}

// resolvedAuditPath is where :audit reads from.
func (r *actionRunner) resolvedAuditPath() (string, error) {
	if r.audit.path != "" {
		return r.audit.path, nil
	}
	return action.DefaultAuditPath()
}

// executor builds the executor for one run. A missing audit log refuses the
// action: every attempted action must leave its line.
func (r *actionRunner) executor() (*action.Executor, error) {
	log, err := r.auditLog()
	if err != nil {
		return nil, fmt.Errorf("the audit log cannot be opened (%v); no action is taken without its audit line", err)
	}
	return &action.Executor{Conn: r.conn, Tables: r.tables, Audit: log, Env: r.env, Now: r.now, Flights: r.flights}, nil
}

// DefaultKeys is the default keymap with the action keys the declarations
// name (action.Specs): the keymap a config file rebinds.
func DefaultKeys() keymap.Map {
	return keymap.Default().WithPanes(paneKeys()).WithActions(actionKeys())
}

// actionKeys turns the declarations into the keymap's action keys, one per
// key name, in declaration order. A key that several actions share is
// described by their verbs ("mark for deletion / retry deletion"), and is
// dangerous when any of them is.
func actionKeys() []keymap.ActionKey {
	var out []keymap.ActionKey
	at := map[string]int{}
	for _, s := range action.Specs() {
		i, seen := at[s.Key]
		if !seen {
			at[s.Key] = len(out)
			out = append(out, keymap.NewActionKey(s.Key, s.Verb, s.Dangerous, s.DefaultKey))
			continue
		}
		k := &out[i]
		k.Dangerous = k.Dangerous || s.Dangerous
		h := k.Binding.Help()
		if !slices.Contains(strings.Split(h.Desc, " / "), s.Verb) {
			k.Binding.SetHelp(h.Key, h.Desc+" / "+s.Verb)
		}
	}
	return out
}

// specsForKey are the actions the named key starts, in declaration order.
func specsForKey(name string) []action.Spec {
	var out []action.Spec
	for _, s := range action.Specs() {
		if s.Key == name {
			out = append(out, s)
		}
	}
	return out
}

// initActions sets up the actions once the model knows whether it is
// read-only. Called at the end of New.
func (m *Model) initActions(o Options) {
	km := &m.ctx.Keys
	*km = km.WithActions(actionKeys())
	m.act = actionState{
		keys:  slices.Clone(km.Actions),
		opts:  o.Actions,
		now:   o.Now,
		probe: o.ProbeWrites,
	}
	conn := o.Conn
	if o.Store != nil && o.Store.Conn() != nil {
		// Writes go where the reads come from.
		conn = o.Store.Conn()
	}
	m.act.run = &actionRunner{conn: conn, store: o.Store, tables: m.ctx.Tables, env: m.where.env, now: o.Now, audit: &auditHandle{path: o.AuditPath}, flights: &action.Flights{}, perms: newPermMemory()}
	m.offerActions()
}

// offerActions enables the action keys the mode allows: in read-only mode
// dangerous actions are not offered at all (help and hints no longer list
// them, nor the dialog's keys); otherwise every one is, as configured.
// Called again when a switch of connection changes the mode.
func (m *Model) offerActions() {
	km := &m.ctx.Keys
	km.Actions = slices.Clone(m.act.keys)
	for i := range km.Actions {
		if m.readOnly && km.Actions[i].Dangerous {
			km.Actions[i].Binding.SetEnabled(false)
		}
	}
	km.Confirm.SetEnabled(!m.readOnly)
	km.Deny.SetEnabled(!m.readOnly)
}

// actionHelpNotes are the help screen's sentences about actions: that
// read-only mode offers none that write, and why some tables have none.
func actionHelpNotes(readOnly bool) []string {
	var out []string
	if readOnly {
		out = append(out, "Read-only: actions that write are not offered.")
	}
	for _, t := range data.TableIDs() {
		if r := action.NoActionReason(t); r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// actionKey handles an action key in normal mode. ok is false when the key
// is not an action key here (the pane gets it).
func (a *actionState) actionKey(r *Model, k tea.KeyPressMsg) (tea.Cmd, bool) {
	return a.actionKeyOn(r, k, nil)
}

// actionKeyOn is actionKey; whole, when set, holds the whole items read
// for a list that shows only some attributes (actions_whole.go).
func (a *actionState) actionKeyOn(r *Model, k tea.KeyPressMsg, whole *wholeItemsMsg) (tea.Cmd, bool) {
	ak, ok := a.actionKeyFor(k)
	if !ok {
		return nil, false
	}
	if r.readOnlyRows() {
		r.setFlash(readOnlyNote, true)
		return nil, true
	}
	specs := specsForKey(ak.Name)
	p := r.panes[r.active]
	table := p.shownTable()
	tables := paneTables(p.ID())
	if table == "" && len(tables) == 0 {
		return nil, false // a pane that shows no table's rows (Stream)
	}
	what := ak.Binding.Help().Desc
	switch {
	case len(specs) == 0:
		return nil, false
	case r.readOnly && specs[0].Dangerous:
		r.setFlash("read-only mode: actions are not offered ("+k.String()+" would "+what+")", true)
		return nil, true
	case noActionsOn(table, tables) != "":
		r.setFlash(noActionsOn(table, tables), true)
		return nil, true
	case a.busy != 0:
		r.setFlash("an action is still running; wait for its result", true)
		return nil, true
	case r.where.pending != "":
		// The rows shown are about to be dropped for another env's.
		r.setFlash("connecting to "+r.where.pending+": actions wait until the switch is done", true)
		return nil, true
	}
	// A key may act on several tables (the kill switch: API keys and
	// projects, wherever their rows show): the rows shown pick the actions.
	var forTable []action.Spec
	for _, s := range specs {
		if s.Table == table {
			forTable = append(forTable, s)
		}
	}
	if len(forTable) == 0 {
		shown := "nothing yet"
		if table != "" {
			shown = string(table)
		}
		r.setFlash(fmt.Sprintf("%s applies to %s rows; this list shows %s", k.String()+" ("+what+")", specTables(specs), shown), true)
		return nil, true
	}
	specs = forTable

	var items []data.Item
	hidden := 0
	// The detail view is about one item: act on it, not on marks.
	if p.marks != nil && !p.marks.DetailOpen() {
		items, hidden = p.marks.Marked()
	}
	bulk := len(items) > 0
	if !bulk {
		sel, ok := p.selected()
		if !ok {
			r.setFlash("no row selected", true)
			return nil, true
		}
		items = []data.Item{sel}
	}
	switch {
	case whole != nil:
		if len(whole.items) == 0 {
			r.setFlash("cannot "+specs[0].Verb+": "+whole.why(), true)
			return nil, true
		}
		items = whole.items
	case p.marks != nil && p.marks.Partial():
		// A plan's guard is the state of the whole item: read it first.
		return a.readWholeFor(r, k, table, items)
	}
	kinds := make([]action.Kind, len(specs))
	for i, s := range specs {
		kinds[i] = s.Kind
	}
	now := a.now()
	var plans []action.Plan
	var skipped []skippedRow
	for _, it := range items {
		pl, err := action.PlanFirst(kinds, it, now, a.opts)
		if err != nil {
			skipped = append(skipped, skippedRow{target: targetOf(table, it), reason: reasonOf(err)})
			continue
		}
		plans = append(plans, pl)
	}
	if len(plans) == 0 {
		if !bulk {
			r.setFlash("cannot "+specs[0].Verb+": "+skipped[0].reason, true)
		} else {
			r.setFlash(fmt.Sprintf("none of the %d marked rows can be changed (%s: %s)", len(items), skipped[0].target, skipped[0].reason), true)
		}
		return nil, true
	}
	a.seq++
	d := newConfirmDialog(confirmSpec{
		req:        a.seq,
		plans:      plans,
		skipped:    skipped,
		bulk:       bulk,
		hidden:     hidden,
		typed:      action.NeedsTypedConfirmation(r.where.env, r.where.protected),
		env:        r.where.env,
		confirm:    r.ctx.Keys.Confirm,
		deny:       r.ctx.Keys.Deny,
		dialogKeys: dialogKeysOf(r.ctx.Keys),
		theme:      r.ctx.Theme,
		now:        a.now,
		after:      r.ctx.After,
		under:      p.View,
	})
	r.dialog, r.mode = d, modeDialog
	r.sizeDialog()
	r.setFlash("", false) // an older message is not about this dialog
	return tea.Batch(d.Init(), r.startPermCheck(d)), true
}

// skippedRow is a marked row the action does not apply to, and why.
type skippedRow struct{ target, reason string }
