package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/views"
)

// actionMsg marks the messages of the actions; the root routes them all to
// onActionMsg, whatever the mode.
type actionMsg interface{ isActionMsg() }

// confirmedMsg: the operator confirmed the dialog of request req.
type confirmedMsg struct {
	req   uint64
	plans []action.Plan
}

// cancelledMsg: the operator said no.
type cancelledMsg struct {
	req   uint64
	title string
	n     int
}

// actionDoneMsg carries the result of a single action.
type actionDoneMsg struct {
	req uint64
	res action.Result
}

// bulkStepMsg carries the result of row i of a bulk run; plans are the
// whole run (never modified), so the next row can be started from it.
type bulkStepMsg struct {
	req   uint64
	plans []action.Plan
	i     int
	res   action.Result
}

// rowReloadMsg carries a row read back after a write whose outcome is not
// known (a network error): the pane shows what is really stored.
type rowReloadMsg struct {
	table data.TableID
	key   data.Item
	item  data.Item
	found bool
}

func (confirmedMsg) isActionMsg()   {}
func (cancelledMsg) isActionMsg()   {}
func (actionDoneMsg) isActionMsg()  {}
func (bulkStepMsg) isActionMsg()    {}
func (rowReloadMsg) isActionMsg()   {}
func (auditLoadedMsg) isActionMsg() {}

// singleTimeout bounds one conditional write: past it the operator gets an
// error line rather than a status bar that says "releasing…" forever.
const singleTimeout = 30 * time.Second

// Update handles the actions' own messages (every actionMsg, then a
// waiting quit's end) and the quit's: a request, the abandoned writes on
// record, the signal's grace ending. handled is false for any other
// message.
func (a *actionState) Update(r *Model, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case actionMsg:
		return a.drained(r, a.onActionMsg(r, msg)), true
	case QuitMsg:
		return a.requestQuit(r, msg.Signal), true
	case abandonedMsg:
		return a.abandoned(r, msg), true
	case abandonWritesMsg:
		if a.drain == nil || r.quitting {
			return nil, true
		}
		return a.abandonWrites(r), true
	}
	return nil, false
}

// onActionMsg handles every actionMsg.
func (a *actionState) onActionMsg(r *Model, msg actionMsg) tea.Cmd {
	switch msg := msg.(type) {
	case confirmedMsg:
		return a.execute(r, msg)
	case cancelledMsg:
		r.setFlash(fmt.Sprintf("cancelled: nothing written (%s, %s)", strings.ToLower(msg.title), plural(msg.n, "row")), false)
		return nil
	case actionDoneMsg:
		if msg.req == a.busy {
			a.busy = 0
		}
		return a.showResult(r, msg.res)
	case bulkStepMsg:
		return a.bulkStep(r, msg)
	case rowReloadMsg:
		ch := views.Change{Table: msg.table, Event: "MODIFY", Keys: msg.key, New: msg.item}
		if !msg.found {
			ch.Event, ch.New = "REMOVE", nil
		}
		return r.applyToPanes([]views.Change{ch})
	case auditLoadedMsg:
		return r.showAudit(msg)
	case wholeItemsMsg:
		return a.onWholeItems(r, msg)
	}
	return nil
}

// execute starts the confirmed plans: one in the background with a line in
// the status bar, several with a progress dialog.
func (a *actionState) execute(r *Model, c confirmedMsg) tea.Cmd {
	if len(c.plans) == 0 {
		return nil
	}
	run := a.run
	a.busy = c.req
	if len(c.plans) == 1 {
		p := c.plans[0]
		r.setPending(fmt.Sprintf("%s %s…", strings.ToLower(p.Spec().Title), oneLine(p.Target)), true)
		req := c.req
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), singleTimeout)
			defer cancel()
			return actionDoneMsg{req: req, res: runOne(ctx, run, p)}
		}
	}
	d := newBulkDialog(c.req, plansTitle(c.plans), len(c.plans), r.ctx.Theme, r.ctx.Keys, r.panes[r.active].View)
	r.dialog, r.mode = d, modeDialog
	return bulkRow(run, c.req, append([]action.Plan(nil), c.plans...), 0)
}

// runOne executes one plan, or explains why it could not be attempted.
func runOne(ctx context.Context, run *actionRunner, p action.Plan) action.Result {
	exec, err := run.executor()
	if err != nil {
		return action.Result{Plan: p, Err: err, Message: p.Spec().NotDone(err.Error())}
	}
	res := exec.Execute(ctx, p)
	run.perms.noteResult(res)
	return res
}

// bulkRow writes row i of a bulk run. Rows go one after another, each with
// its own guard: an operator's bulk action adds no burst of writes to a
// table that is probably already in trouble, and a failure on one row
// never stops the others. One Cmd per row, so that stopping (esc in the
// progress dialog) takes effect between rows and never aborts a write
// already sent, whose outcome would then be unknown.
func bulkRow(run *actionRunner, req uint64, plans []action.Plan, i int) tea.Cmd {
	p := plans[i]
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), singleTimeout)
		defer cancel()
		return bulkStepMsg{req: req, plans: plans, i: i, res: runOne(ctx, run, p)}
	}
}

// bulkStep records one row and starts the next, or finishes the run.
func (a *actionState) bulkStep(r *Model, msg bulkStepMsg) tea.Cmd {
	d, ok := r.dialog.(*bulkDialog)
	if !ok || d.req != msg.req {
		// The progress dialog is always open during a run; if it is not,
		// keep a fresh one so the summary is not lost.
		d = newBulkDialog(msg.req, plansTitle(msg.plans), len(msg.plans), r.ctx.Theme, r.ctx.Keys, r.panes[r.active].View)
		r.dialog, r.mode = d, modeDialog
	}
	d.record(msg.res)
	next := msg.i + 1
	if next < len(msg.plans) && !d.stopping {
		return bulkRow(a.run, msg.req, msg.plans, next)
	}
	for _, p := range msg.plans[next:] {
		d.record(action.Result{Plan: p, Err: context.Canceled, Message: p.Spec().NotDone("stopped by the operator before this row")})
	}
	if msg.req == a.busy {
		a.busy = 0
	}
	return a.bulkFinished(r, d)
}

// showResult puts a single action's outcome in the status bar and redraws
// its row from what DynamoDB returned.
func (a *actionState) showResult(r *Model, res action.Result) tea.Cmd {
	msg := oneLine(res.Message)
	isErr := !res.OK
	if res.OK {
		msg += " ✓"
	}
	if t := res.Then; t != nil {
		// The step after the write: its own outcome, next to the write's.
		msg += " · " + oneLine(t.Message)
		isErr = isErr || !t.OK
	}
	if res.Err != nil && !res.OK && !res.Unknown && res.UpdateExpression != "" && !errors.Is(res.Err, data.ErrReadOnly) {
		// The request was built and perhaps sent, and it failed: the row
		// is read back (refreshRows) and shows what is stored. An unknown
		// outcome already says to check the row, and says why; nothing
		// may be added that reads as "not done".
		msg += " — the row was read back: check it"
	}
	if res.AuditErr != nil {
		msg += " (audit log not written: " + oneLine(res.AuditErr.Error()) + ")"
		isErr = true
	}
	r.setFlash(msg, isErr)
	return a.refreshRows(r, []action.Result{res})
}

// refreshRows shows the rows as they are now. Success returns ALL_NEW and a
// guard failure ALL_OLD: both are the item as stored, applied like a stream
// record (a row that left the pane's scope leaves the list). Other errors
// leave the outcome unknown, so those rows are read back.
func (a *actionState) refreshRows(r *Model, results []action.Result) tea.Cmd {
	var changes []views.Change
	var reads []tea.Cmd
	for _, res := range results {
		p := res.Plan
		switch {
		case res.OK || (res.Refusal != nil && len(res.Current) > 0):
			changes = append(changes, views.Change{Table: p.Table, Event: "MODIFY", Keys: p.Key, New: res.Current})
		case res.Refusal != nil:
			changes = append(changes, views.Change{Table: p.Table, Event: "REMOVE", Keys: p.Key})
		case a.run.store != nil && len(p.Key) > 0 && !errors.Is(res.Err, data.ErrReadOnly):
			reads = append(reads, reloadRow(a.run.store, p.Table, p.Key))
		}
	}
	return tea.Batch(append(reads, r.applyToPanes(changes))...)
}

func (m *Model) applyToPanes(changes []views.Change) tea.Cmd {
	if len(changes) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	for _, p := range m.panes {
		if p.apply != nil {
			cmds = append(cmds, p.apply.Apply(changes))
		}
	}
	return tea.Batch(cmds...)
}

func reloadRow(st *data.Store, table data.TableID, key data.Item) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), singleTimeout)
		defer cancel()
		item, found, err := st.GetItem(ctx, table, key)
		if err != nil {
			return nil // the status bar already says the write failed
		}
		return rowReloadMsg{table: table, key: key, item: item, found: found}
	}
}

// bulkFinished shows the summary, redraws the rows and clears the marks
// they carried.
func (a *actionState) bulkFinished(r *Model, d *bulkDialog) tea.Cmd {
	d.finish()
	s := d.sum
	all := s.All()
	line := fmt.Sprintf("%d of %d succeeded", len(s.Succeeded), s.Total)
	if n := len(s.GuardFailed); n > 0 {
		line += fmt.Sprintf(" · %d guard failed", n)
	}
	if n := len(s.Unknown); n > 0 {
		line += fmt.Sprintf(" · %d outcome unknown: check them", n)
	}
	if n := len(s.Errors); n > 0 {
		line += fmt.Sprintf(" · %d errors", n)
	}
	var auditErrs int
	for _, res := range all {
		if res.AuditErr != nil {
			auditErrs++
		}
	}
	if auditErrs > 0 {
		line += fmt.Sprintf(" · %d audit lines not written", auditErrs)
	}
	r.setFlash(line, len(s.Succeeded) != s.Total || auditErrs > 0)
	if p := r.panes[r.active]; p.marks != nil {
		p.marks.ClearMarks()
	}
	return a.refreshRows(r, all)
}

// resultLine is a result as one line: the write's message, then the
// outcome of the step after it when the action has one.
func resultLine(r action.Result) string {
	if r.Then == nil {
		return r.Message
	}
	return r.Message + " · " + r.Then.Message
}
