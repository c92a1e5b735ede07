package keymap

import "sort"

// Conflict is one key bound to two actions that can see the same keypress.
type Conflict struct {
	Key     string
	Actions [2]string
}

// overlaps reports whether two contexts can receive the same keypress. The
// global context is live in list and stream panes too; a dialog sees only its
// own keys.
func overlaps(a, b context) bool {
	if a == ctxDialog || b == ctxDialog {
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
	for i := range actions {
		for j := i + 1; j < len(actions); j++ {
			a, b := actions[i], actions[j]
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
