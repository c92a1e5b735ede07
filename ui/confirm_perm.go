package ui

import (
	"context"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
)

// Permission before the confirm: an action refused for want of a
// permission says so in its dialog, before the operator answers, and y
// does not send a write DynamoDB is known to refuse. Two sources, both
// without writing anything:
//   - what this connection learnt: a write (or a probe) refused with
//     AccessDeniedException on that table earlier in the session, and a
//     step after a write (a release's ecs:StopTask) refused the same way;
//   - the probe (action.ProbeWrite): the plan's own UpdateItem under a
//     condition that never holds, sent when the dialog opens. The dialog
//     opens at once; the answer updates it.
// Read-only mode never probes (no write is offered there at all).

// permTimeout bounds the probe: past it the dialog says nothing more.
const permTimeout = 5 * time.Second

// permMemory is what a connection learnt about its permissions. Shared
// by the Model's copies and the action Cmds; a new connection gets a new
// one (other credentials, other permissions).
type permMemory struct {
	mu     sync.Mutex
	denied map[data.TableID]string // UpdateItem refused on the table: the line
	steps  map[string]string       // a step after the write refused: the line
}

func newPermMemory() *permMemory {
	return &permMemory{denied: map[data.TableID]string{}, steps: map[string]string{}}
}

// deniedWrite is the remembered refusal of writes to t ("" when none).
func (p *permMemory) deniedWrite(t data.TableID) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.denied[t]
}

func (p *permMemory) deniedStep(step string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.steps[step]
}

// note learns from a probe: refused, allowed (forgets a refusal: the
// policy was fixed), or nothing when it could not tell.
func (p *permMemory) note(t data.TableID, perm action.Permission) {
	if !perm.Known {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if perm.Allowed {
		delete(p.denied, t)
	} else {
		p.denied[t] = shortDenied(perm.Denied)
	}
}

// noteResult learns from an executed write and its step.
func (p *permMemory) noteResult(r action.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case r.OK:
		delete(p.denied, r.Plan.Table)
	case data.IsNotAuthorized(r.Err):
		p.denied[r.Plan.Table] = shortDenied(data.Describe(r.Err))
	}
	if t := r.Then; t != nil {
		switch {
		case t.OK:
			delete(p.steps, t.Step)
		case data.IsNotAuthorized(t.Err):
			p.steps[t.Step] = shortDenied(data.Describe(t.Err))
		}
	}
}

// shortDenied is the refusal without the server's own text (the principal
// and policy it names are in :messages and the audit log): the action and
// resource are what the dialog has room for.
func shortDenied(line string) string {
	s, _, _ := strings.Cut(line, " (AccessDeniedException")
	return s
}

// permState is what the dialog knows of the write's permission.
type permState struct {
	checking bool
	// denied: the write would be refused (the line names action and
	// resource); allowed: the probe found it allowed.
	denied  string
	allowed bool
	// unknown: the probe could not tell, and why.
	unknown string
	// step: the step after the write was refused before (the write would
	// go through; the step would not).
	step string
}

// permProbedMsg is a probe's answer for the dialog of request req.
type permProbedMsg struct {
	req   uint64
	table data.TableID
	perm  action.Permission
}

// startPermCheck fills the dialog from what the connection learnt and
// returns the probe (nil in read-only mode or without a connection).
func (m *Model) startPermCheck(d *confirmDialog) tea.Cmd {
	run := m.act.run
	if run == nil || m.readOnly || len(d.plans) == 0 {
		return nil
	}
	p := d.plans[0]
	d.perm.denied = run.perms.deniedWrite(p.Table)
	if step := p.Spec().Then; step != nil {
		d.perm.step = run.perms.deniedStep(step.Name)
	}
	if run.conn == nil || !m.act.probe {
		return nil
	}
	d.perm.checking = true
	req, conn, tables, now := d.req, run.conn, run.tables, m.act.now
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), permTimeout)
		defer cancel()
		at := time.Now()
		if now != nil {
			at = now()
		}
		perm := action.ProbeWrite(ctx, conn, tables, p, at)
		run.perms.note(p.Table, perm)
		return permProbedMsg{req: req, table: p.Table, perm: perm}
	}
}

// probed takes a probe's answer into the dialog it was made for.
func (d *confirmDialog) probed(msg permProbedMsg) {
	if msg.req != d.req {
		return
	}
	d.perm.checking = false
	switch {
	case msg.perm.Known && msg.perm.Allowed:
		d.perm.allowed, d.perm.denied = true, ""
	case msg.perm.Known:
		d.perm.denied = shortDenied(msg.perm.Denied)
	default:
		d.perm.unknown = data.Describe(msg.perm.Err)
	}
}

// writeRefused is why y does nothing: the write is known to be refused.
func (d *confirmDialog) writeRefused() string {
	if d.perm.denied == "" {
		return ""
	}
	return "not sent: DynamoDB refuses this write (" + d.perm.denied + "); ask for the permission (opsdeck iam-policy operator) · " +
		d.deny.Help().Key + " closes"
}

// permLines are the dialog's lines about the permission: the refusal is
// among the lines that always show (footLines), the rest in the body.
func (d *confirmDialog) permBody() string {
	switch {
	case d.perm.denied != "":
		return ""
	case d.perm.checking:
		return "permission: checking (a write that cannot apply)…"
	case d.perm.allowed:
		return "permission: dynamodb:UpdateItem allowed (checked without writing)"
	case d.perm.unknown != "":
		return "permission not checked: " + d.perm.unknown
	}
	return ""
}

func (d *confirmDialog) permFoot() []string {
	var out []string
	if d.perm.denied != "" {
		out = append(out, d.perm.denied+" — the write would be refused")
	}
	if d.perm.step != "" {
		out = append(out, d.perm.step+" last time — the write would be made, its step refused")
	}
	return out
}
