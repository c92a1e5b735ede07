package ui

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// A jump shows what the selected row is related to (views.JumpFrom) in its
// own pane; the root remembers where it came from, so `b` returns there.

// jumpPlace is where a jump left from: the pane and the scope it showed.
type jumpPlace struct {
	pane  views.PaneID
	scope data.Scope
}

// maxJumps bounds the way back.
const maxJumps = 50

// gotoRelated jumps from a row to what it belongs to; from the Stream
// pane, to the record's item.
func (m Model) gotoRelated() (tea.Model, tea.Cmd) {
	if m.panes[m.active].Status().Tail {
		return m.jump(views.JumpItem)
	}
	return m.jump(views.JumpRelated)
}

func (m Model) gotoContext() (tea.Model, tea.Cmd) { return m.jump(views.JumpContext) }

func (m Model) jump(kind views.JumpKind) (tea.Model, tea.Cmd) {
	p := m.panes[m.active]
	var table data.TableID
	var item data.Item
	ok := false
	if p.sel != nil {
		table, item, ok = p.sel.SelectedRecord()
	}
	if !ok {
		m.setFlash("no row selected to jump from", true)
		return m, nil
	}
	sc, what, ok := views.JumpFrom(kind, table, item)
	if !ok {
		m.setFlash("this "+string(table)+" row names nothing to jump to", true)
		return m, nil
	}
	from := jumpPlace{pane: p.ID(), scope: p.currentScope()}
	next, cmd := m.openScope(sc)
	nm := next.(Model)
	if nm.panes[nm.active].currentScope() != sc {
		return nm, cmd // refused: openScope said why
	}
	nm.jumps = append(nm.jumps, from)
	if len(nm.jumps) > maxJumps {
		nm.jumps = nm.jumps[1:]
	}
	nm.setFlash("→ "+what+" · b goes back", false)
	return nm, cmd
}

func (m Model) jumpBack() (tea.Model, tea.Cmd) {
	if len(m.jumps) == 0 {
		m.setFlash("no jump to go back from", false)
		return m, nil
	}
	back := m.jumps[len(m.jumps)-1]
	m.jumps = m.jumps[:len(m.jumps)-1]
	i, ok := m.paneIndex(back.pane)
	if !ok {
		return m, nil
	}
	if back.scope.Table == "" || m.panes[i].currentScope() == back.scope {
		m.setFlash("", false)
		return m, m.switchTo(i)
	}
	// A scope was recorded, so the pane lists scopes.
	cmd, _ := m.panes[i].scope.ShowScope(back.scope)
	m.active = i
	m.setFlash("", false)
	return m, cmd
}
