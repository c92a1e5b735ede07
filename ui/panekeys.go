package ui

// Pane keys: the registry's panes with the keys the keymap binds to them
// (keymap stays a leaf; ui feeds it the names and default keys).

import (
	"strings"

	"opsdeck/keymap"
	"opsdeck/views"
)

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
