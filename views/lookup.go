package views

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// Lookups by id: the command line's way to one item (or the few records
// under one key) of any table, each read through the scope its document
// names (its service's file, data/svc_*.go) and shown in the pane that
// owns the table. Each pane's lookups are in its file (ShowAPIKey in
// sessions.go, ShowSandbox in sandboxes.go, …); here is what they share.
// The looked-up list keeps its lookup title until another scope replaces
// it, and an id that is not there says so in the words of its table.

// completeMax bounds the values one command's completion offers from
// the rows shown.
const completeMax = 50

// shownValues are the values of attr in the rows shown, whichever table
// they are of (a project id is in sessions, API keys, contexts and
// projects alike), for completion.
func (b *base) shownValues(attr string) []string {
	return b.Values(b.active().scope.Table, attr, completeMax)
}

// lookup points list i of the pane at scope s, shown, titled and with the
// empty table's text for an id not found, and starts its read. A lookup
// narrowed by a filter term (an event by its id alone) reads on through
// empty pages until its item shows or the partition ends: the operator
// asked for that one item, and sees the wait and can cancel it.
func (b *base) lookup(i int, s data.Scope, title, missing string) tea.Cmd {
	b.setScope(i, s, nil)
	l := b.lists[i]
	l.title, l.missing = title, missing
	l.seek = s.Filter[0].Attr != ""
	l.refreshEmpty()
	return b.reload()
}

// lookupTitle is the title of the list shown when a lookup filled it, ""
// otherwise (an explicit scan's result is never a lookup).
func (b *base) lookupTitle() string {
	if b.scan != nil {
		return ""
	}
	return b.lists[b.cur].title
}
