package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/views/inert"
)

// runSort is `:sort [column [asc|desc]]`: by a column (key or title,
// ascending unless desc), or, alone, back to the natural order.
func (m Model) runSort(args []string) (tea.Model, tea.Cmd) {
	p := m.panes[m.active]
	usage := " — usage: :sort [column [asc|desc]]"
	if len(args) > 2 {
		m.setFlash("too many arguments"+usage, true)
		return m, nil
	}
	column, desc := "", false
	if len(args) > 0 {
		column = args[0]
	}
	if len(args) == 2 {
		switch strings.ToLower(args[1]) {
		case "asc":
		case "desc":
			desc = true
		default:
			m.setFlash(fmt.Sprintf("%q is not asc or desc%s", inert.String(args[1]), usage), true)
			return m, nil
		}
	}
	if err := p.SortBy(column, desc); err != nil {
		m.setFlash(err.Error(), true)
		return m, nil
	}
	m.setFlash(sortedText(p.Status().Sort), false)
	return m, nil
}

func sortedText(label string) string {
	if label == "" {
		return "natural order (as the query lists them)"
	}
	return "sorted by " + label
}

// sortPrompt is what the status bar says after the sort key: the columns
// on screen, numbered.
func (m Model) sortPrompt() string {
	cols := m.panes[m.active].SortColumns()
	var b strings.Builder
	b.WriteString("sort by:")
	for i, c := range cols {
		if i == 9 {
			break
		}
		fmt.Fprintf(&b, " %d %s", i+1, c)
	}
	b.WriteString(" · 0 natural order · esc cancels")
	return b.String()
}

// sortKey handles the key after the sort prefix: a column's number sorts
// by it (the same one again reverses), 0 restores the natural order,
// anything else drops the prefix (and is not acted on).
func (m Model) sortKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.sortPending = false
	p := m.panes[m.active]
	s := k.String()
	n, err := strconv.Atoi(s)
	if err != nil || len(s) != 1 {
		m.setFlash("", false)
		return m, nil
	}
	if n == 0 {
		_ = p.SortBy("", false)
		m.setFlash(sortedText(""), false)
		return m, nil
	}
	cols := p.SortColumns()
	if n > len(cols) {
		m.setFlash(fmt.Sprintf("no column %d on screen (1-%d)", n, len(cols)), true)
		return m, nil
	}
	col := cols[n-1]
	desc := false
	if cur := p.Status().Sort; cur == col+" ↑" {
		desc = true // the same column again: the other way
	}
	if err := p.SortBy(col, desc); err != nil {
		m.setFlash(err.Error(), true)
		return m, nil
	}
	m.setFlash(sortedText(p.Status().Sort), false)
	return m, nil
}

// startSort is the sort prefix key: wait for a column number.
func (m Model) startSort(k tea.KeyPressMsg) (Model, bool) {
	if !key.Matches(k, m.ctx.Keys.SortColumn) {
		return m, false
	}
	if len(m.panes[m.active].SortColumns()) == 0 {
		m.setFlash("this pane keeps its own order", false)
		return m, true
	}
	m.sortPending = true
	m.setFlash(m.sortPrompt(), false)
	return m, true
}
