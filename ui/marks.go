package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"opsdeck/views"
	"opsdeck/views/inert"
)

// Marking across a scope: every loaded row the filter shows, so that "every
// exhausted failed event of this user" is one mark and one confirmation
// (with a guard per row) instead of one space per row.

// markSpec is :mark. ":mark" and ":mark all" (alias :mark-all) mark what
// the current filter shows; ":mark where=<text>" filters by text first.
var markSpec = views.CommandSpec{
	Name: "mark", Aliases: []string{"mark-all"},
	Usage: ":mark [all] [where=<text>]",
	Arg:   views.ArgOptional,
	Opts:  []views.OptSpec{{Key: "where"}},
}

func runMark(m Model, a views.Args) (tea.Model, tea.Cmd) {
	if a.Arg != "" && a.Arg != "all" {
		m.setFlash(fmt.Sprintf("unknown :mark argument %q — usage: %s", inert.String(a.Arg), markSpec.Usage), true)
		return m, nil
	}
	m.markAll(a.Opt("where"))
	return m, nil
}

// markAll marks the shown list's rows that match where (when given, it
// becomes the filter, so the rows marked are the rows on screen), and says
// how many, and what is not marked: rows of pages not loaded yet.
func (m *Model) markAll(where string) {
	p := m.panes[m.active]
	if p.shownTable() == "" || p.marks == nil {
		m.setFlash("nothing to mark here", true)
		return
	}
	if p.detailOpen() {
		m.setFlash("close the detail view (esc) to mark rows", true)
		return
	}
	if where != "" {
		// The filter grammar: a bad expression marks nothing.
		if err := p.setFilter(where); err != nil {
			m.setFlash("nothing marked: "+err.Error(), true)
			return
		}
	}
	n, more := p.marks.MarkAll()
	msg := fmt.Sprintf("%d rows marked", n)
	if f := p.filterText(); f != "" {
		msg = fmt.Sprintf("%d rows marked (filter %q)", n, inert.String(f))
	}
	if more {
		msg += " · more pages not loaded are not marked (" + m.ctx.Keys.LoadAll.Help().Key + " loads all)"
	}
	if n > 0 {
		msg += " · an action key acts on them all, each under its own guard"
	}
	m.setFlash(msg, false)
}
