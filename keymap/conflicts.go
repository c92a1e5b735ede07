package keymap

import (
	"fmt"
	"sort"
	"strings"
)

// Conflict is one key bound to two actions that can see the same keypress.
type Conflict struct {
	Key     string
	Actions [2]string
}

// overlaps reports whether two contexts can receive the same keypress. The
// global context is live in list and stream panes too; a dialog sees only its
// own keys.
func overlaps(a, b context) bool {
	if a == ctxDialog || b == ctxDialog || a == ctxPrompt || b == ctxPrompt {
		return a == b
	}
	if a == ctxGlobal || b == ctxGlobal {
		return true
	}
	return a == b
}

// Conflicts lists keys shared by two actions whose contexts overlap, sorted by
// key. The defaults have none (a test holds them to that).
func (m Map) Conflicts() []Conflict {
	var out []Conflict
	all := m.all()
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			a, b := all[i], all[j]
			if !overlaps(a.ctx, b.ctx) {
				continue
			}
			ka, kb := a.get(&m).Keys(), b.get(&m).Keys()
			for _, x := range ka {
				for _, y := range kb {
					if x == y {
						out = append(out, Conflict{Key: x, Actions: [2]string{a.name, b.name}})
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// habitKeys are keys pressed without thinking: to submit, to mark, to move,
// to back out. The dialog also reads several of them itself (enter and esc
// mean No, ↑/↓ scroll). None of them may say yes to a guarded write.
var habitKeys = map[string]string{
	"enter": "enter is pressed by habit to submit, and a bare enter must mean No",
	"space": "space marks rows and is pressed by habit", "tab": "tab moves between panes",
	"shift+tab": "shift+tab moves between panes", "esc": "esc means No in the dialog",
	"ctrl+c": "ctrl+c means No in the dialog", "backspace": "backspace is pressed while typing",
	"up": "↑ scrolls the dialog", "down": "↓ scrolls the dialog", "left": "← is pressed to move",
	"right": "→ is pressed to move", "pgup": "pgup is pressed to move", "pgdown": "pgdown is pressed to move",
	"home": "home is pressed to move", "end": "end is pressed to move",
}

// Hazard is a binding that would put a guarded write one accidental key
// away: the confirm key is also a key pressed outside the dialog (an action
// key, so that "x x" or a key repeat releases at once; or a navigation key
// pressed by habit), or a key pressed by habit anywhere.
type Hazard struct {
	Key    string
	Action string // the other action bound to Key, "" for a habit key
	Why    string
}

// Hazards lists every confirm key that makes a dangerous action one
// accidental key away. The defaults have none (y is used nowhere else).
func (m Map) Hazards() []Hazard {
	var out []Hazard
	for _, k := range m.Confirm.Keys() {
		if why, ok := habitKeys[strings.ToLower(k)]; ok {
			out = append(out, Hazard{Key: k, Why: why})
			continue
		}
		for _, a := range m.all() {
			if a.ctx == ctxDialog {
				continue
			}
			for _, x := range a.get(&m).Keys() {
				if x != k {
					continue
				}
				why := fmt.Sprintf("it is also %s's key, pressed outside the dialog", a.name)
				if m.dangerous(a.name) {
					why = fmt.Sprintf("it is also %s's key: pressing it twice, or a key repeat, would open the dialog and confirm it", a.name)
				}
				out = append(out, Hazard{Key: k, Action: a.name, Why: why})
			}
		}
	}
	return out
}

// dangerous reports whether the named action opens a confirmation for a
// write (ActionKey.Dangerous).
func (m *Map) dangerous(name string) bool {
	for _, a := range m.Actions {
		if a.Name == name {
			return a.Dangerous
		}
	}
	return false
}
