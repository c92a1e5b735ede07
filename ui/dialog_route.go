package ui

// Routing to the dialog on top: while one is open it gets every message
// first (updateDialog) and is sized with the screen.

import (
	tea "charm.land/bubbletea/v2"
)

// Dialog is a modal that owns the keyboard while open — the confirmation
// dialogs of the guarded actions plug in here. Update returns the dialog to
// keep showing, or nil when it closed (its Cmd carries the outcome).
type Dialog interface {
	Update(msg tea.Msg) (Dialog, tea.Cmd)
	View(width, height int) string
}

// OpenDialogMsg opens a dialog over the active pane.
type OpenDialogMsg struct{ Dialog Dialog }

func (m Model) updateDialog(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.sizeDialog()
	d, cmd := m.dialog.Update(msg)
	m.dialog = d
	if d == nil {
		m.mode = modeNormal
	}
	return m, cmd
}

// sizeDialog tells the open dialog the area it is drawn in, so that it can
// refuse an answer to a question that does not show.
func (m *Model) sizeDialog() {
	if d, ok := m.dialog.(interface{ SetSize(w, h int) }); ok {
		d.SetSize(m.width, m.paneHeight())
	}
}
