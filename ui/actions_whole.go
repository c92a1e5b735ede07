package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// A list that reads only the attributes its columns show (views/whole.go)
// holds partial items; an action's plan, and the guard the operator
// confirms, are built from whole items, read here by key first.

// wholeItemsMsg carries the whole items for the action key k pressed; it
// is honoured only while it is the read the root waits for.
type wholeItemsMsg struct {
	req   uint64
	k     tea.KeyPressMsg
	items []data.Item // the items still there, in the order asked
	asked int
	err   error
}

func (wholeItemsMsg) isActionMsg() {}

func (w wholeItemsMsg) why() string {
	if w.err != nil {
		return "could not read the rows: " + data.Describe(w.err)
	}
	if w.asked == 1 {
		return "the row is gone (deleted since the list was read)"
	}
	return fmt.Sprintf("the %d rows are gone (deleted since the list was read)", w.asked)
}

// readWholeFor reads the whole items of the rows an action key applies
// to; the key is handled again when they arrive.
func (a *actionState) readWholeFor(r *Model, k tea.KeyPressMsg, table data.TableID, items []data.Item) (tea.Cmd, bool) {
	st := a.run.store
	if st == nil {
		r.setFlash("no connection to read the rows", true)
		return nil, true
	}
	a.seq++
	a.whole = a.seq
	req := a.seq
	keys := make([]data.Item, len(items))
	for i, it := range items {
		keys[i] = data.KeyOf(table, it)
	}
	timeout := r.ctx.ReadTimeout
	if timeout <= 0 {
		timeout = singleTimeout
	}
	r.setPending("reading the whole row before planning…", true)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		var got []data.Item
		var err error
		if len(keys) == 1 {
			// Consistent: a single action's guard is the state now.
			it, found, e := st.GetItem(ctx, table, keys[0])
			if found {
				got = []data.Item{it}
			}
			err = e
		} else {
			all, _, e := st.BatchGet(ctx, table, keys)
			for _, it := range all {
				if it != nil {
					got = append(got, it)
				}
			}
			err = e
		}
		return wholeItemsMsg{req: req, k: k, items: got, asked: len(keys), err: err}
	}, true
}

// onWholeItems continues the action once its whole items are in, unless
// the operator has moved on (another key, a dialog, another pane).
func (a *actionState) onWholeItems(r *Model, w wholeItemsMsg) tea.Cmd {
	if w.req != a.whole || r.mode != modeNormal {
		return nil
	}
	a.whole = 0
	r.setFlash("", false)
	if w.err != nil {
		w.items = nil
	}
	cmd, _ := a.actionKeyOn(r, w.k, &w)
	return cmd
}
