package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/views"
)

// sortSpec is `:sort [column [asc|desc]]`, a root command: it sorts the
// pane on screen.
var sortSpec = views.CommandSpec{
	Name:  string(VerbSort),
	Usage: ":sort [column [asc|desc]]",
	Arg:   views.ArgOptional,
	Words: []string{"asc", "desc"},
}

// sortCompletions are the columns of the pane on screen, as :sort takes
// them.
func sortCompletions(m Model) []string {
	s := m.panes[m.active].sort
	if s == nil {
		return nil
	}
	var out []string
	for _, c := range s.SortColumns() {
		out = append(out, strings.ToLower(c))
	}
	return out
}

// runSort is `:sort [column [asc|desc]]`: by a column (key or title,
// ascending unless desc), or, alone, back to the natural order.
func (m Model) runSort(a views.Args) (tea.Model, tea.Cmd) {
	p := m.panes[m.active]
	if a.HasWord("asc") && a.HasWord("desc") {
		m.setFlash("asc or desc, not both — usage: "+sortSpec.Usage, true)
		return m, nil
	}
	column, desc := a.Arg, a.HasWord("desc")
	if p.sort == nil {
		m.setFlash(noSort, true)
		return m, nil
	}
	if err := p.sort.SortBy(column, desc); err != nil {
		m.setFlash(err.Error(), true)
		return m, nil
	}
	m.setFlash(sortedText(p.Status().Sort), false)
	return m, nil
}

// noSort is what a pane without sortable columns says to a sort.
const noSort = "this pane keeps its own order"

func sortedText(label string) string {
	if label == "" {
		return "natural order (as the query lists them)"
	}
	return "sorted by " + label
}

// sortPrompt is what the status bar says after the sort key: the columns
// on screen, numbered.
func (m Model) sortPrompt() string {
	var cols []string
	if s := m.panes[m.active].sort; s != nil {
		cols = s.SortColumns()
	}
	var b strings.Builder
	b.WriteString("sort by:")
	for i, c := range cols {
		if i == 9 {
			break
		}
		fmt.Fprintf(&b, " %d %s", i+1, c)
	}
	b.WriteString(" · 0 natural order")
	return b.String()
}

// sortKey handles the key after the sort prefix: a column's number sorts
// by it (the same one again reverses), 0 restores the natural order,
// anything else drops the prefix (and is not acted on).
func (m Model) sortKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.sortPending = false
	p := m.panes[m.active]
	if key.Matches(k, m.ctx.Keys.Back) {
		return m, nil
	}
	s := k.String()
	n, err := strconv.Atoi(s)
	if err != nil || len(s) != 1 {
		m.setFlash("", false)
		return m, nil
	}
	if p.sort == nil {
		return m, nil // the prefix is only taken where columns are (startSort)
	}
	if n == 0 {
		_ = p.sort.SortBy("", false)
		m.setFlash(sortedText(""), false)
		return m, nil
	}
	cols := p.sort.SortColumns()
	if n > len(cols) {
		m.setFlash(fmt.Sprintf("no column %d on screen (1-%d)", n, len(cols)), true)
		return m, nil
	}
	col := cols[n-1]
	desc := false
	if cur := p.Status().Sort; cur == col+" ↑" {
		desc = true // the same column again: the other way
	}
	if err := p.sort.SortBy(col, desc); err != nil {
		m.setFlash(err.Error(), true)
		return m, nil
	}
	m.setFlash(sortedText(p.Status().Sort), false)
	return m, nil
}

// startSort is the sort prefix key (keys.go matched it): wait for a column
// number.
func (m *Model) startSort() {
	if s := m.panes[m.active].sort; s == nil || len(s.SortColumns()) == 0 {
		m.setFlash(noSort, false)
		return
	}
	m.sortPending = true // the footer shows the columns (view.go)
	m.setFlash("", false)
}
