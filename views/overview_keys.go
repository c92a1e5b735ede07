package views

// The Overview's keys: moving between its numbers and opening one (enter
// sends OpenScopeMsg; the root shows the owning pane on that scope).

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// OpenScopeMsg asks the root to show the pane that lists scope's table, on
// exactly that scope.
type OpenScopeMsg struct {
	Scope data.Scope
	// Jump: the root remembers the pane and scope shown before, so b
	// returns there (enter on the Tables catalog).
	Jump bool
}

func (p *Overview) key(k tea.KeyPressMsg) tea.Cmd {
	keys := p.ctx.Keys
	switch {
	case key.Matches(k, keys.Reload):
		return p.recount()
	case key.Matches(k, keys.PageDown):
		p.scroll(1)
	case key.Matches(k, keys.PageUp):
		p.scroll(-1)
	case key.Matches(k, keys.Up):
		p.move(-1, 0)
	case key.Matches(k, keys.Down):
		p.move(1, 0)
	case key.Matches(k, overviewLeft):
		p.move(0, -1)
	case key.Matches(k, overviewRight):
		p.move(0, 1)
	case key.Matches(k, keys.Enter):
		if t, ok := p.selected(); ok {
			sc := t.Scope
			return func() tea.Msg { return OpenScopeMsg{Scope: sc} }
		}
	}
	return nil
}

var (
	overviewLeft  = key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("←/h", "previous number"))
	overviewRight = key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("→/l", "next number"))
)

func (p *Overview) selected() (data.Tally, bool) {
	if p.cursor < 0 || p.cursor >= len(p.ov.Tallies) {
		return data.Tally{}, false
	}
	return p.ov.Tallies[p.cursor], true
}

// move steps the cursor through the layout's grid: rows up and down (the
// nearest column), numbers of a row left and right.
func (p *Overview) move(dRow, dCol int) {
	p.scrolled = false
	rows := p.layout().rows
	r, c := -1, 0
	for i, row := range rows {
		if j := slices.Index(row, p.cursor); j >= 0 {
			r, c = i, j
		}
	}
	if r < 0 {
		if len(rows) > 0 && len(rows[0]) > 0 {
			p.cursor = rows[0][0]
		}
		return
	}
	r = min(max(r+dRow, 0), len(rows)-1)
	c = min(max(c+dCol, 0), len(rows[r])-1)
	p.cursor = rows[r][c]
}

// Help lists the pane's own keys.
func (p *Overview) Help() []key.Binding {
	open := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open these rows in their pane"))
	re := p.ctx.Keys.Reload
	re.SetHelp(re.Help().Key, "re-count now")
	return []key.Binding{overviewLeft, overviewRight, open, re}
}
