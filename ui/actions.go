package ui

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/data/secret"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// The guarded actions (issue 5), UI side: a key builds plans for the
// selected or marked rows (data/action decides whether each applies), a
// confirmation dialog shows them, and confirming runs them in a tea.Cmd.
// The root model keeps one actionState value; everything a Cmd needs is
// copied into it before it runs.

// actionState is the root model's part of the actions.
type actionState struct {
	// keys are the action bindings as configured. In read-only mode the
	// copies in the shared keymap are disabled (so help does not list
	// them); these originals still recognise the key, to say why nothing
	// happens.
	keys actionBindings
	// run holds what execution needs; the pointer is shared by Model copies
	// and Cmds, and never changes after New.
	run *actionRunner

	opts      action.Options
	protected []string
	now       func() time.Time

	seq  uint64 // last request id issued
	busy uint64 // the single action in flight, 0 when none
}

type actionBindings struct {
	release, retry, markDeletion, markFailed key.Binding
}

// actionRunner is everything an action's Cmd uses: immutable after New
// apart from the audit log, which is opened once, on the first action, so a
// session that never acts never creates the file.
type actionRunner struct {
	conn   *data.Conn
	store  *data.Store
	tables data.Tables
	env    string
	now    func() time.Time

	auditPath string // "" → action.DefaultAuditPath()
	auditOnce sync.Once
	audit     *action.AuditLog
	auditErr  error
}

// auditLog opens the audit log on first use. Safe for concurrent use.
func (r *actionRunner) auditLog() (*action.AuditLog, error) {
	r.auditOnce.Do(func() {
		path := r.auditPath
		if path == "" {
			path, r.auditErr = action.DefaultAuditPath()
			if r.auditErr != nil {
				return
			}
		}
		r.audit, r.auditErr = action.OpenAuditLog(path)
	})
	return r.audit, r.auditErr
}

// resolvedAuditPath is where :audit reads from.
func (r *actionRunner) resolvedAuditPath() (string, error) {
	if r.auditPath != "" {
		return r.auditPath, nil
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
	return &action.Executor{Conn: r.conn, Tables: r.tables, Audit: log, Env: r.env, Now: r.now}, nil
}

// initActions sets up the actions once the model knows whether it is
// read-only. Called at the end of New.
func (m *Model) initActions(o Options) {
	km := &m.ctx.Keys
	m.act = actionState{
		keys:      actionBindings{release: km.Release, retry: km.Retry, markDeletion: km.MarkDeletion, markFailed: km.MarkFailed},
		opts:      o.Actions,
		protected: o.Protected,
		now:       o.Now,
	}
	conn := o.Conn
	if o.Store != nil && o.Store.Conn() != nil {
		// Writes go where the reads come from.
		conn = o.Store.Conn()
	}
	m.act.run = &actionRunner{conn: conn, store: o.Store, tables: m.ctx.Tables, env: m.env, now: o.Now, auditPath: o.AuditPath}
	if m.readOnly {
		// Not offered at all: help and hints no longer list them.
		for _, b := range []*key.Binding{&km.Release, &km.Retry, &km.MarkDeletion, &km.MarkFailed, &km.Confirm, &km.Deny} {
			b.SetEnabled(false)
		}
	}
}

// kindsForKey maps an action key to the actions it may start, and the
// table they apply to. D is one key for two sandbox actions: which one
// depends on the row's status.
func (a actionState) kindsForKey(k tea.KeyPressMsg) ([]action.Kind, bool) {
	switch {
	case key.Matches(k, a.keys.release):
		return []action.Kind{action.ReleaseSession}, true
	case key.Matches(k, a.keys.retry):
		return []action.Kind{action.RetryEvent}, true
	case key.Matches(k, a.keys.markDeletion):
		return []action.Kind{action.MarkSandboxDeletion, action.RetrySandboxDeletion}, true
	case key.Matches(k, a.keys.markFailed):
		return []action.Kind{action.MarkRunFailed}, true
	}
	return nil, false
}

// shownTabler is what a list pane offers to the actions (views/actions_access.go).
type shownTabler interface{ ShownTable() data.TableID }

// actionKey handles an action key in normal mode. ok is false when the key
// is not an action key here (the pane gets it).
func (m Model) actionKey(k tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	kinds, ok := m.act.kindsForKey(k)
	if !ok {
		return m, nil, false
	}
	p := m.panes[m.active]
	if p.ID() == views.PaneStream {
		return m, nil, false
	}
	what := strings.ToLower(kinds[0].Title())
	switch {
	case m.readOnly:
		m.setFlash("read-only mode: actions are not offered ("+k.String()+" would "+what+")", true)
		return m, nil, true
	case p.ID() == views.PaneDelegations:
		m.setFlash(action.DelegationsReadOnly, true)
		return m, nil, true
	case m.act.busy != 0:
		m.setFlash("an action is still running; wait for its result", true)
		return m, nil, true
	}
	var table data.TableID
	if st, ok := p.(shownTabler); ok {
		table = st.ShownTable()
	}
	if table != kinds[0].Table() {
		shown := "nothing yet"
		if table != "" {
			shown = string(table)
		}
		m.setFlash(fmt.Sprintf("%s applies to %s rows; this list shows %s", k.String()+" ("+what+")", kinds[0].Table(), shown), true)
		return m, nil, true
	}

	items, hidden := p.Marked()
	if d, ok := p.(interface{ DetailOpen() bool }); ok && d.DetailOpen() {
		// The detail view is about one item: act on it, not on marks.
		items, hidden = nil, 0
	}
	bulk := len(items) > 0
	if !bulk {
		sel, ok := p.Selected()
		if !ok {
			m.setFlash("no row selected", true)
			return m, nil, true
		}
		items = []data.Item{sel}
	}
	now := m.act.now()
	var plans []action.Plan
	var skipped []skippedRow
	for _, it := range items {
		kind := pickKind(kinds, table, it, now, m.act.opts)
		pl, err := action.PlanFor(kind, it, now, m.act.opts)
		if err != nil {
			skipped = append(skipped, skippedRow{target: targetOf(table, it), reason: reasonOf(err)})
			continue
		}
		plans = append(plans, pl)
	}
	if len(plans) == 0 {
		if !bulk {
			m.setFlash("cannot "+what+": "+skipped[0].reason, true)
		} else {
			m.setFlash(fmt.Sprintf("none of the %d marked rows can be changed (%s: %s)", len(items), skipped[0].target, skipped[0].reason), true)
		}
		return m, nil, true
	}
	m.act.seq++
	d := newConfirmDialog(confirmSpec{
		req:     m.act.seq,
		plans:   plans,
		skipped: skipped,
		bulk:    bulk,
		hidden:  hidden,
		typed:   action.NeedsTypedConfirmation(m.env, m.act.protected),
		env:     m.env,
		keys:    m.act.keys,
		confirm: m.ctx.Keys.Confirm,
		deny:    m.ctx.Keys.Deny,
		theme:   m.ctx.Theme,
		now:     m.act.now,
		after:   m.ctx.After,
		under:   p.View,
	})
	m.dialog, m.mode = d, modeDialog
	m.sizeDialog()
	m.setFlash("", false) // an older message is not about this dialog
	return m, d.Init(), true
}

// pickKind chooses, among the actions a key may start, the one the row is
// in a state for; when none applies, the first one (its PlanFor error then
// says why).
func pickKind(kinds []action.Kind, table data.TableID, it data.Item, now time.Time, opts action.Options) action.Kind {
	if len(kinds) == 1 {
		return kinds[0]
	}
	avail := action.Available(table, it, now, opts)
	for _, k := range kinds {
		for _, a := range avail {
			if a == k {
				return k
			}
		}
	}
	return kinds[0]
}

// skippedRow is a marked row the action does not apply to, and why.
type skippedRow struct{ target, reason string }

func reasonOf(err error) string {
	var na *action.NotApplicableError
	if errors.As(err, &na) {
		return na.Reason
	}
	return err.Error()
}

// targetOf names a row that has no plan: the record's own id.
func targetOf(table data.TableID, it data.Item) string {
	if r := data.Decode(table, it); r != nil && r.ID() != "" {
		return r.ID()
	}
	return "(row without an id)"
}

// doneWord is how a result reads in the status bar summary.
func doneWord(k action.Kind) string {
	switch k {
	case action.ReleaseSession:
		return "released"
	case action.RetryEvent:
		return "queued for retry"
	case action.MarkSandboxDeletion:
		return "marked for deletion"
	case action.RetrySandboxDeletion:
		return "queued for deletion again"
	case action.MarkRunFailed:
		return "marked failed"
	}
	return "done"
}

// plansTitle is the dialog's title: the action's name, or a combined one
// when a bulk mixes the two sandbox actions.
func plansTitle(plans []action.Plan) string {
	if len(plans) == 0 {
		return ""
	}
	k := plans[0].Kind
	for _, p := range plans[1:] {
		if p.Kind != k {
			return "Mark for deletion / retry deletion"
		}
	}
	return k.Title()
}

// oneLine is a sanitised single line for the status bar. Results quote
// values found in the item, so credentials in them are masked first.
func oneLine(s string) string {
	s, _ = secret.Text(s)
	return inert.String(strings.ReplaceAll(s, "\n", " "))
}
