// Package keymap holds every key binding of opsdeck in one struct. The help
// screen is generated from it (it implements help.KeyMap) and the config file
// can rebind any action by name. It is a leaf package: it imports only the
// bubbles key and help packages, so every other package may depend on it.
package keymap

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// Map is the complete set of bindings. Bindings that share a key on purpose
// live in different contexts (see contexts in conflicts.go): Mark and Pause are
// both space, but Mark applies to list panes and Pause only to the Stream pane;
// Deny includes esc, which only a dialog sees.
type Map struct {
	// Navigation.
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
	Enter, Back                             key.Binding

	// Global.
	Quit, Help, Command, Filter key.Binding
	NextPane, PrevPane          key.Binding
	// Panes show one pane each (WithPanes adds them: ui knows the panes).
	Panes []PaneKey

	// Data.
	Mark, MarkAll, Reload, LoadAll, Cancel, Copy, Reveal key.Binding
	SortNext, SortReverse, Pause, Scan                   key.Binding
	// SortColumn is a prefix: then a column's number (as the header
	// shows them, 1..9) sorts by it — again the same number reverses —
	// and 0 returns to the natural order.
	SortColumn key.Binding
	// NextView cycles a pane's sub-views (Sessions: sessions, API keys,
	// contexts, the project's record).
	NextView key.Binding
	// Goto opens what the selected row is related to (a session's project,
	// a sandbox's track, an event's type, a stream record's item);
	// GotoContext a session's browser context; JumpBack returns from a jump.
	Goto, GotoContext, JumpBack key.Binding

	// The command line, the filter line and a dialog's own keys: Submit
	// runs the line (in a dialog: answers a typed phrase; a bare one means
	// No), Dismiss abandons it, CompleteNext/CompletePrev cycle the
	// completions, LineUp/LineDown walk the command history (in a dialog:
	// scroll it).
	Submit, Dismiss            key.Binding
	CompleteNext, CompletePrev key.Binding
	LineUp, LineDown           key.Binding

	// Actions are the keys that start the guarded actions. Which ones
	// exist comes from the action declarations (see ActionKey); Default
	// has none, ui.DefaultKeys adds them.
	Actions []ActionKey
	// Confirm and Deny answer a confirmation dialog.
	Confirm, Deny key.Binding
}

var _ help.KeyMap = Map{}

func bind(desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpLabel(keys), desc))
}

// Default returns the console's fixed bindings, without the pane keys and action keys (WithPanes and WithActions
// add them). No default uses ctrl+b / ctrl+a (tmux and screen prefixes) or
// ctrl+s / ctrl+q (XON/XOFF flow control); ctrl+c is the only control key and
// it cancels a running load rather than quitting, so a habitual ctrl+c never
// loses a session by surprise.
func Default() Map {
	m := Map{
		Up:       bind("up", "k", "up"),
		Down:     bind("down", "j", "down"),
		Top:      bind("top", "g", "home"),
		Bottom:   bind("bottom", "G", "end"),
		PageUp:   bind("page up", "pgup"),
		PageDown: bind("page down", "pgdown"),
		Enter:    bind("open detail", "enter"),
		Back:     bind("back / clear", "esc"),

		Quit:     bind("quit", "q"),
		Help:     bind("help", "?"),
		Command:  bind("command", ":"),
		Filter:   bind("filter", "/"),
		NextPane: bind("next pane", "tab"),
		PrevPane: bind("previous pane", "shift+tab"),

		Mark:        bind("mark row, move down", "space"),
		MarkAll:     bind("mark all shown", "A"),
		Reload:      bind("reload", "r"),
		LoadAll:     bind("load all pages", "L"),
		Cancel:      bind("cancel load", "ctrl+c"),
		Copy:        bind("copy JSON", "c"),
		Reveal:      bind("reveal secrets", "s"),
		SortNext:    bind("sort by next column", ">"),
		SortReverse: bind("reverse sort", "<"),
		SortColumn:  bind("sort by column #", "#"),
		Pause:       bind("pause stream", "space"),
		Scan:        bind("scan table", "S"),
		NextView:    bind("sessions / keys / contexts / project", "v"),
		Goto:        bind("go to related", "o"),
		GotoContext: bind("go to context", "O"),
		JumpBack:    bind("jump back", "b"),

		Submit:       bind("run / submit", "enter"),
		Dismiss:      bind("abandon the line", "esc", "ctrl+c"),
		CompleteNext: bind("next completion", "tab"),
		CompletePrev: bind("previous completion", "shift+tab"),
		LineUp:       bind("older command / scroll", "up"),
		LineDown:     bind("newer command / scroll", "down"),

		Confirm: bind("confirm", "y"),
		Deny:    bind("cancel", "n", "esc"),
	}
	return m
}

// ShortHelp is the one-line hint shown in the footer.
func (m Map) ShortHelp() []key.Binding {
	return []key.Binding{m.Up, m.Down, m.Enter, m.Filter, m.Command, m.NextPane, m.Help, m.Quit}
}

// FullHelp groups bindings into columns for the help screen: navigation,
// panes, data, actions, views. NextView has a column of its own, last: its
// long description would widen the data column past 80 cells, and the help
// drops a column that does not fit whole (the Sessions pane lists the key
// in its own section anyway).
func (m Map) FullHelp() [][]key.Binding {
	nav := []key.Binding{m.Up, m.Down, m.Top, m.Bottom, m.PageUp, m.PageDown, m.Enter, m.Back}
	panes := []key.Binding{m.NextPane, m.PrevPane}
	for _, p := range m.Panes {
		panes = append(panes, p.Binding)
	}
	panes = append(panes, m.Command, m.Filter, m.Help, m.Quit)
	data := []key.Binding{m.Mark, m.MarkAll, m.Reload, m.LoadAll, m.Cancel, m.Copy, m.Reveal, m.SortNext, m.SortReverse, m.SortColumn, m.Pause, m.Scan, m.Goto, m.GotoContext, m.JumpBack}
	var actions []key.Binding
	for _, a := range m.Actions {
		actions = append(actions, a.Binding)
	}
	actions = append(actions, m.Confirm, m.Deny)
	prompt := []key.Binding{m.Submit, m.Dismiss, m.CompleteNext, m.CompletePrev, m.LineUp, m.LineDown}
	return [][]key.Binding{nav, panes, data, actions, prompt, {m.NextView}}
}
