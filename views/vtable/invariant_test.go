package vtable

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRandomOperationsKeepIndexConsistent drives the table with random
// upserts, removals, filters, sorts and moves, and after every step compares
// the incrementally maintained view with one computed from scratch.
func TestRandomOperationsKeepIndexConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := newTable(nil, 50, 8)
	live := map[string]Row{}
	order := []string{} // insertion order of live ids (re-added ids go last)
	statuses := []string{"RUNNING", "ERROR", "done", ""}
	filters := []string{"", "r", "run", "running", "err", "1", "r1"}
	for step := 0; step < 3000; step++ {
		switch op := rng.IntN(11); {
		case op == 10:
			var page []Row
			for k := rng.IntN(5); k > 0; k-- {
				id := "r" + strconv.Itoa(rng.IntN(60))
				r := row(id, statuses[rng.IntN(len(statuses))], strconv.Itoa(rng.IntN(20)))
				if _, ok := live[id]; !ok {
					order = append(order, id)
				}
				live[id] = r
				page = append(page, r)
			}
			m.Append(page)
		case op < 4:
			id := "r" + strconv.Itoa(rng.IntN(60))
			r := row(id, statuses[rng.IntN(len(statuses))], strconv.Itoa(rng.IntN(20)))
			if _, ok := live[id]; !ok {
				order = append(order, id)
			}
			live[id] = r
			m.Upsert(r)
		case op < 5:
			id := "r" + strconv.Itoa(rng.IntN(60))
			delete(live, id)
			order = slices.DeleteFunc(order, func(s string) bool { return s == id })
			m.Remove(id)
		case op < 6:
			m.SetFilter(filters[rng.IntN(len(filters))])
		case op < 7:
			m.SortBy(rng.IntN(4)-1, rng.IntN(2) == 0)
		case op < 8:
			m.ToggleMark()
		default:
			m.MoveDown(rng.IntN(7) - 3)
			m.MoveUp(rng.IntN(3))
		}
		want := expectedView(live, order, m.Filter(), m.sortCol, m.sortDesc)
		if got := visibleIDs(m); !slices.Equal(got, want) {
			t.Fatalf("step %d: view %v, want %v (filter %q sort %d/%v)", step, got, want, m.Filter(), m.sortCol, m.sortDesc)
		}
		if m.Len() != len(live) {
			t.Fatalf("step %d: Len %d want %d", step, m.Len(), len(live))
		}
		if n := m.VisibleLen(); n > 0 && (m.Cursor() < 0 || m.Cursor() >= n) {
			t.Fatalf("step %d: cursor %d of %d", step, m.Cursor(), n)
		}
		for _, id := range m.Marked() {
			if _, ok := live[id]; !ok {
				t.Fatalf("step %d: marked id %q is not a row", step, id)
			}
		}
	}
}

// expectedView is the obvious, slow definition of the view.
func expectedView(live map[string]Row, order []string, filter string, col int, desc bool) []string {
	var ids []string
	for _, id := range order {
		r := live[id]
		if filter != "" {
			ok := false
			for _, c := range r.Cells {
				if strings.Contains(strings.ToLower(c.Text), strings.ToLower(filter)) {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		ids = append(ids, id)
	}
	if col < 0 {
		return ids
	}
	slices.SortStableFunc(ids, func(a, b string) int {
		ka, kb := makeKey(live[a].Cells[col].Text), makeKey(live[b].Cells[col].Text)
		if ka.empty || kb.empty {
			switch {
			case ka.empty && kb.empty:
				return 0
			case ka.empty:
				return 1
			}
			return -1
		}
		c := compareKeys(ka, kb)
		if desc {
			c = -c
		}
		return c
	})
	return ids
}
