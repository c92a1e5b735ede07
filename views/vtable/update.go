package vtable

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
)

// Update handles navigation (up/down/top/bottom/page) and mark. Other keys
// — sorting, filtering, actions — belong to the pane or root, which call
// the methods directly, so one key is never handled twice.
func (m Model) Update(msg tea.Msg, km keymap.Map) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.Up):
			m.MoveUp(1)
		case key.Matches(msg, km.Down):
			m.MoveDown(1)
		case key.Matches(msg, km.Top):
			m.Top()
		case key.Matches(msg, km.Bottom):
			m.Bottom()
		case key.Matches(msg, km.PageUp):
			m.PageUp()
		case key.Matches(msg, km.PageDown):
			m.PageDown()
		case key.Matches(msg, km.Mark):
			// Mark and move on, so a run of rows is marked by holding
			// the key (on the last row the cursor stays).
			m.ToggleMark()
			m.MoveDown(1)
		}
	}
	return m, nil
}
