package ui

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// Browsing any table (views/tables*.go) as the root sees it: the Tables
// pane's commands and its enter are jumps, so b returns to where the
// operator was; its rows have no action.

// readOnlyNote is what every action key says on the Tables pane.
const readOnlyNote = "read-only: no actions for unmodeled tables"

// pushJump remembers from as the way back (b).
func (m *Model) pushJump(from jumpPlace) {
	m.jumps = append(m.jumps, from)
	if len(m.jumps) > maxJumps {
		m.jumps = m.jumps[1:]
	}
}

// here is the pane and scope shown now, as a jump's way back.
func (m Model) here() jumpPlace {
	p := m.panes[m.active]
	return jumpPlace{pane: p.ID(), scope: p.currentScope()}
}

// openScopeMsg shows an OpenScopeMsg's scope; a Jump remembers where it
// left from when the scope did open.
func (m Model) openScopeMsg(msg views.OpenScopeMsg) (tea.Model, tea.Cmd) {
	if !msg.Jump {
		return m.openScope(msg.Scope)
	}
	from := m.here()
	next, cmd := m.openScope(msg.Scope)
	nm := next.(Model)
	if nm.here() != from {
		nm.pushJump(from)
	}
	return nm, cmd
}

// readOnlyRows: the shown pane lists rows no action is declared for (a
// table no pane models), so an action key only says so.
func (m Model) readOnlyRows() bool {
	p := m.panes[m.active]
	if s, ok := views.Spec(p.ID()); ok && s.ReadOnly {
		return true
	}
	return data.IsUnmodeled(p.shownTable())
}

// cycle is the pane tab (dir 1) or shift+tab (dir -1) goes to: the next
// in tab order, passing over the panes reached only on demand.
func (m Model) cycle(dir int) int {
	n := len(m.panes)
	i := m.active
	for range n {
		i = (i + dir + n) % n
		if s, ok := views.Spec(m.panes[i].ID()); !ok || !s.OnDemand {
			return i
		}
	}
	return m.active
}
