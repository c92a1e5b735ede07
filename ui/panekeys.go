package ui

// Pane keys: the registry's panes with the keys the keymap binds to them
// (keymap stays a leaf; ui feeds it the names and default keys).

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
	"opsdeck/views"
)

// isPaneKey: k is the key of one of the panes (its place in the tab order).
func (m Model) isPaneKey(k tea.KeyPressMsg) (int, bool) {
	for i, spec := range views.Registry() {
		if b := m.ctx.Keys.Binding(paneKey(spec).Name); b != nil && key.Matches(k, *b) {
			return i, true
		}
	}
	return 0, false
}

// paneKey is the keymap's binding for a pane, as the registry declares it.
func paneKey(s views.PaneSpec) keymap.PaneKey {
	return keymap.NewPaneKey(s.DefaultKey, strings.ToLower(s.Name))
}

// paneKeys are the keymap's pane bindings, in tab order.
func paneKeys() []keymap.PaneKey {
	var out []keymap.PaneKey
	for _, s := range views.Registry() {
		out = append(out, paneKey(s))
	}
	return out
}
