package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
)

// scrollKey is where a scrolled list dialog (:audit, :messages) is after a
// key: a line or a page either way, the top, or bottom (the dialog's own
// last position; its frame brings a large value back in range). closed
// reports a key that dismisses the dialog.
func scrollKey(km keymap.Map, k tea.KeyPressMsg, scroll, bottom int) (next int, closed bool) {
	switch {
	case key.Matches(k, km.Dismiss, km.Back, km.Quit, km.Submit):
		return scroll, true
	case key.Matches(k, km.Up, km.LineUp):
		scroll--
	case key.Matches(k, km.Down, km.LineDown):
		scroll++
	case key.Matches(k, km.PageUp):
		scroll -= 10
	case key.Matches(k, km.PageDown):
		scroll += 10
	case key.Matches(k, km.Top):
		scroll = 0
	case key.Matches(k, km.Bottom):
		scroll = bottom
	}
	return max(scroll, 0), false
}
