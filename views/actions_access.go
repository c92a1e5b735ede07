package views

import "opsdeck/data"

// Accessors the guarded actions (ui/actions*.go) need from a list pane. They
// live in their own file so the pane files stay about listing.

// ShownTable is the table whose rows the pane shows now ("" before the pane
// has a scope). The Sessions pane shows sessions, API keys or contexts
// depending on its sub-view, so an action must ask rather than assume.
func (b *base) ShownTable() data.TableID {
	l := b.active()
	if !l.hasScope {
		return ""
	}
	return l.scope.Table
}

// ClearMarks unmarks every row of the shown list, after a bulk action has
// dealt with them.
func (b *base) ClearMarks() { b.active().table.ClearMarks() }

// MarkAll marks every loaded row the shown list's filter shows, for one
// bulk action over them. marked is how many rows are marked now; more says
// the list has pages not loaded yet, whose rows are not marked.
func (b *base) MarkAll() (marked int, more bool) {
	l := b.active()
	return l.table.MarkVisible(), l.ld.next != nil
}
