package keymap

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// context says where a binding is live. Two bindings may share a key only when
// their contexts never see the same keypress (e.g. Mark in lists, Pause in the
// Stream pane, Deny inside a dialog).
type context int

const (
	ctxGlobal context = iota // every pane outside dialogs: navigation, panes, data
	ctxList                  // list panes only
	ctxStream                // the Stream pane only
	ctxDialog                // a confirmation dialog has focus (sees only Confirm/Deny)
	// ctxPrompt: the command or filter line has focus, or a dialog's own
	// editing keys (every other key is typed). Dismiss and Deny both
	// cancel a dialog, so their sharing esc is no clash.
	ctxPrompt
)

// action ties a config name to a field of Map.
type action struct {
	name string
	ctx  context
	get  func(*Map) *key.Binding
}

// actions lists the fixed rebindable actions in help order. Names are
// snake_case, the style of the YAML config; Rebind also accepts kebab-case.
// A Map's action keys (Map.Actions) follow them, then dialogActions.
var actions = []action{
	{"up", ctxGlobal, func(m *Map) *key.Binding { return &m.Up }},
	{"down", ctxGlobal, func(m *Map) *key.Binding { return &m.Down }},
	{"top", ctxGlobal, func(m *Map) *key.Binding { return &m.Top }},
	{"bottom", ctxGlobal, func(m *Map) *key.Binding { return &m.Bottom }},
	{"page_up", ctxGlobal, func(m *Map) *key.Binding { return &m.PageUp }},
	{"page_down", ctxGlobal, func(m *Map) *key.Binding { return &m.PageDown }},
	{"enter", ctxGlobal, func(m *Map) *key.Binding { return &m.Enter }},
	{"back", ctxGlobal, func(m *Map) *key.Binding { return &m.Back }},
	{"quit", ctxGlobal, func(m *Map) *key.Binding { return &m.Quit }},
	{"help", ctxGlobal, func(m *Map) *key.Binding { return &m.Help }},
	{"command", ctxGlobal, func(m *Map) *key.Binding { return &m.Command }},
	{"filter", ctxGlobal, func(m *Map) *key.Binding { return &m.Filter }},
	{"next_pane", ctxGlobal, func(m *Map) *key.Binding { return &m.NextPane }},
	{"prev_pane", ctxGlobal, func(m *Map) *key.Binding { return &m.PrevPane }},
	{"mark", ctxList, func(m *Map) *key.Binding { return &m.Mark }},
	{"mark_all", ctxList, func(m *Map) *key.Binding { return &m.MarkAll }},
	{"reload", ctxGlobal, func(m *Map) *key.Binding { return &m.Reload }},
	{"load_all", ctxList, func(m *Map) *key.Binding { return &m.LoadAll }},
	{"cancel", ctxGlobal, func(m *Map) *key.Binding { return &m.Cancel }},
	{"copy", ctxGlobal, func(m *Map) *key.Binding { return &m.Copy }},
	{"reveal", ctxGlobal, func(m *Map) *key.Binding { return &m.Reveal }},
	{"sort_next", ctxGlobal, func(m *Map) *key.Binding { return &m.SortNext }},
	{"sort_reverse", ctxGlobal, func(m *Map) *key.Binding { return &m.SortReverse }},
	{"sort_column", ctxList, func(m *Map) *key.Binding { return &m.SortColumn }},
	{"pause", ctxStream, func(m *Map) *key.Binding { return &m.Pause }},
	{"scan", ctxList, func(m *Map) *key.Binding { return &m.Scan }},
	{"next_view", ctxList, func(m *Map) *key.Binding { return &m.NextView }},
	{"submit", ctxPrompt, func(m *Map) *key.Binding { return &m.Submit }},
	{"dismiss", ctxPrompt, func(m *Map) *key.Binding { return &m.Dismiss }},
	{"complete_next", ctxPrompt, func(m *Map) *key.Binding { return &m.CompleteNext }},
	{"complete_prev", ctxPrompt, func(m *Map) *key.Binding { return &m.CompletePrev }},
	{"line_up", ctxPrompt, func(m *Map) *key.Binding { return &m.LineUp }},
	{"line_down", ctxPrompt, func(m *Map) *key.Binding { return &m.LineDown }},
	{"goto", ctxGlobal, func(m *Map) *key.Binding { return &m.Goto }},
	{"goto_context", ctxGlobal, func(m *Map) *key.Binding { return &m.GotoContext }},
	{"jump_back", ctxGlobal, func(m *Map) *key.Binding { return &m.JumpBack }},
}

var dialogActions = []action{
	{"confirm", ctxDialog, func(m *Map) *key.Binding { return &m.Confirm }},
	{"deny", ctxDialog, func(m *Map) *key.Binding { return &m.Deny }},
}

// ActionKey is a key that starts guarded actions (several may share one:
// the row's state picks). The keymap does not know which exist: they are
// declared with the actions (data/action's Spec: Key, DefaultKey, Verb,
// Dangerous) and ui.DefaultKeys turns the declarations into these. The
// keymap stores them, rebinds them by Name and checks them for clashes.
type ActionKey struct {
	Name string // the config name, e.g. "release"
	// Dangerous: the key opens a confirmation for a write, so confirm may
	// not share it (Hazards), and read-only mode does not offer it.
	Dangerous bool
	Binding   key.Binding
}

// NewActionKey binds an action key to its default keys, with a help text.
func NewActionKey(name, desc string, dangerous bool, keys ...string) ActionKey {
	return ActionKey{Name: name, Dangerous: dangerous, Binding: bind(desc, keys...)}
}

// WithActions returns m with the action keys it does not have yet (by
// name) appended, in order. Those it has are kept as they are: a config
// file may have rebound them already. A key whose name is not snake_case,
// or is a fixed binding's, is left out: it could not be rebound (ui's tests
// hold every declared action to having its key).
func (m Map) WithActions(keys []ActionKey) Map {
	out := m
	out.Actions = slices.Clone(m.Actions)
	for _, k := range keys {
		if k.Name == "" || normalName(k.Name) != k.Name {
			continue
		}
		if _, taken := out.lookup(k.Name); !taken {
			out.Actions = append(out.Actions, k)
		}
	}
	return out
}

// PaneKey is a key that shows one pane. The keymap does not know which
// panes exist: ui turns the panes' registry (views.Registry) into these.
type PaneKey struct {
	Name    string // the config name: "pane_" + the default key, e.g. "pane_1"
	Binding key.Binding
}

// NewPaneKey is the key of a pane whose default key is k, described by
// desc (the pane's name).
func NewPaneKey(k, desc string) PaneKey {
	return PaneKey{Name: "pane_" + normalName(k), Binding: bind(desc, k)}
}

// WithPanes returns m with the pane keys it does not have yet (by name)
// appended, in order; those it has (a config file may have rebound them)
// are kept.
func (m Map) WithPanes(keys []PaneKey) Map {
	out := m
	out.Panes = slices.Clone(m.Panes)
	for _, k := range keys {
		if _, taken := out.lookup(k.Name); !taken && k.Name != "" {
			out.Panes = append(out.Panes, k)
		}
	}
	return out
}

// all lists every rebindable action of m in help order: the fixed ones
// (the pane keys after prev_pane), m's action keys (live in list panes),
// then the dialog's.
func (m *Map) all() []action {
	at := slices.IndexFunc(actions, func(a action) bool { return a.name == "prev_pane" }) + 1
	out := slices.Clone(actions[:at])
	for i, p := range m.Panes {
		out = append(out, action{p.Name, ctxGlobal, func(m *Map) *key.Binding { return &m.Panes[i].Binding }})
	}
	out = append(out, actions[at:]...)
	for i, a := range m.Actions {
		out = append(out, action{a.Name, ctxList, func(m *Map) *key.Binding { return &m.Actions[i].Binding }})
	}
	return append(out, dialogActions...)
}

// ActionNames returns every action name accepted by Rebind, in help order.
func (m Map) ActionNames() []string {
	all := m.all()
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = a.name
	}
	return out
}

func normalName(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "-", "_")
}

// lookup finds the named action in all's order without building all's
// list: the root asks for a pane key's binding on every key press, and a
// list (and a closure per pane and action) each time cost allocations per
// key that grew with the panes.
func (m *Map) lookup(name string) (action, bool) {
	n := normalName(name)
	at := slices.IndexFunc(actions, func(a action) bool { return a.name == "prev_pane" }) + 1
	for _, a := range actions[:at] {
		if a.name == n {
			return a, true
		}
	}
	for i, p := range m.Panes {
		if p.Name == n {
			return action{p.Name, ctxGlobal, func(m *Map) *key.Binding { return &m.Panes[i].Binding }}, true
		}
	}
	for _, a := range actions[at:] {
		if a.name == n {
			return a, true
		}
	}
	for i, a := range m.Actions {
		if a.Name == n {
			return action{a.Name, ctxList, func(m *Map) *key.Binding { return &m.Actions[i].Binding }}, true
		}
	}
	for _, a := range dialogActions {
		if a.name == n {
			return a, true
		}
	}
	return action{}, false
}

// Binding returns a pointer to the binding of the named action, or nil.
func (m *Map) Binding(name string) *key.Binding {
	a, ok := m.lookup(name)
	if !ok {
		return nil
	}
	return a.get(m)
}

// Rebind replaces the keys of one action. The help label follows the keys so
// the help screen always shows what actually works.
func (m *Map) Rebind(actionName string, keys []string) error {
	a, ok := m.lookup(actionName)
	if !ok {
		return fmt.Errorf("unknown action %q (known: %s)", actionName, strings.Join(m.ActionNames(), ", "))
	}
	// Map is a value, and copies share the action keys' array: change a
	// copy of it, so that the Map this one was copied from keeps its keys.
	m.Actions = slices.Clone(m.Actions)
	m.Panes = slices.Clone(m.Panes)
	clean := make([]string, 0, len(keys))
	for _, k := range keys {
		if k == " " {
			k = "space"
		}
		k = strings.TrimSpace(k)
		if k == "" {
			return fmt.Errorf("action %q: empty key", a.name)
		}
		clean = append(clean, k)
	}
	if len(clean) == 0 {
		return fmt.Errorf("action %q: no keys given", a.name)
	}
	b := a.get(m)
	desc := b.Help().Desc
	b.SetKeys(clean...)
	b.SetHelp(helpLabel(clean), desc)
	b.SetEnabled(true)
	return nil
}

// Apply rebinds from the config file. lines maps an action name (as written)
// to its line in file, so errors read "FILE:LINE: ..." like a compiler's.
// Actions are applied in sorted order for deterministic errors; after all are
// applied, keys shared between actions of one context are reported.
func (m *Map) Apply(bindings map[string][]string, lines map[string]int, file string) error {
	where := func(name string) string {
		if ln, ok := lines[name]; ok && file != "" {
			return fmt.Sprintf("%s:%d: ", file, ln)
		}
		if file != "" {
			return file + ": "
		}
		return ""
	}
	names := make([]string, 0, len(bindings))
	for n := range bindings {
		names = append(names, n)
	}
	sort.Strings(names)
	next := *m
	var errs []error
	for _, n := range names {
		if err := next.Rebind(n, bindings[n]); err != nil {
			errs = append(errs, fmt.Errorf("%s%w", where(n), err))
		}
	}
	if len(errs) == 0 {
		for _, c := range next.Conflicts() {
			errs = append(errs, fmt.Errorf("%skey %q is bound to both %q and %q", where(firstPresent(bindings, c.Actions)), c.Key, c.Actions[0], c.Actions[1]))
		}
		// A confirm key that can be pressed by accident is refused, at the
		// line that made it so (confirm's own, or the other action's).
		for _, h := range next.Hazards() {
			at := firstPresent(bindings, [2]string{h.Action, "confirm"})
			if h.Action == "" {
				at = firstPresent(bindings, [2]string{"confirm", "confirm"})
			}
			errs = append(errs, fmt.Errorf("%sconfirm cannot be %q: %s; bind confirm to a key used nowhere else (default y)", where(at), h.Key, h.Why))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	*m = next
	return nil
}

// firstPresent picks the action of a clash that the file rebinds (the second
// one when both are), so the error points at the line that caused it.
func firstPresent(bindings map[string][]string, names [2]string) string {
	for i := 1; i >= 0; i-- {
		for n := range bindings {
			if normalName(n) == names[i] {
				return n
			}
		}
	}
	return ""
}

// helpLabel renders keys for the help screen: "k/↑".
func helpLabel(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = prettyKey(k)
	}
	return strings.Join(out, "/")
}

func prettyKey(k string) string {
	switch k {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	case "pgdown":
		return "pgdn"
	}
	return k
}
