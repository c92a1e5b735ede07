package views

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// The live tail's side of the list panes: merging a changed item into the
// rows with a brief highlight, and the polling fallback for tables without
// a DynamoDB stream, which re-reads what the pane has loaded and merges the
// answer the same way (so the list is never blanked and the cursor stays).

// HighlightFor is how long a changed row or cell stays highlighted. The root
// schedules one redraw after it, so the highlight goes away even when
// nothing else happens.
const HighlightFor = 3 * time.Second

// maxPollPages bounds one polling refresh: a list grown to 100k rows by
// load-all is refreshed on its first pages only (and then rows missing from
// the answer are not removed, since the answer is partial).
const maxPollPages = 10

// pollTimeout bounds one polling refresh, so a server that never answers
// does not hold the next refresh back forever.
const pollTimeout = 30 * time.Second

// PollFailedNote starts the status note of a list whose last poll failed;
// the root drops such a note (by reloading) once the table is live again.
const PollFailedNote = "polling failed"

// pollState is one list's polling bookkeeping.
type pollState struct {
	running  bool // a refresh is in flight: ticks are dropped meanwhile
	failures int  // consecutive failed refreshes
	skip     int  // ticks still to skip (backoff after failures)
}

// PollMsg is a refresh's answer. It is addressed by Pane but deliberately
// has no PaneID method: the root gives it to PollDone, not to Update.
type PollMsg struct {
	Pane  PaneID
	list  *list
	scope data.Scope
	recs  []data.Record
	next  data.Cursor
	pages int // pages read
	full  bool
	err   error
}

func (b *base) Poll() tea.Cmd { return b.active().startPoll() }

func (b *base) PollDone(m PollMsg) tea.Cmd {
	for _, l := range b.lists {
		if l == m.list {
			l.pollDone(m)
			l.refreshEmpty()
		}
	}
	return nil
}

func (b *base) Reload() tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range b.lists {
		if l.ld.started {
			cmds = append(cmds, l.load())
			l.refreshEmpty()
		}
	}
	return tea.Batch(cmds...)
}

// startPoll re-reads as many pages as the list has loaded. Everything the
// Cmd uses is copied here.
func (l *list) startPoll() tea.Cmd {
	if !l.hasScope || l.fetch == nil || !l.ld.started || l.ld.loading || l.poll.running {
		return nil
	}
	if l.poll.skip > 0 {
		l.poll.skip--
		return nil
	}
	l.poll.running = true
	var (
		pages = min(max(l.ld.pages, 1), maxPollPages)
		full  = l.ld.pages <= maxPollPages
		fetch = l.fetch
		st    = l.ctx.Store
		limit = l.ctx.PageSize
		msg   = PollMsg{Pane: l.pane, list: l, scope: l.scope, full: full}
	)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), pollTimeout)
		defer cancel()
		var cur data.Cursor
		for i := 0; i < pages; i++ {
			res, err := fetch(ctx, st, data.PageRequest{Limit: limit, Cursor: cur})
			if err != nil {
				msg.err = err
				return msg
			}
			msg.recs = append(msg.recs, res.recs...)
			msg.pages++
			cur = res.next
			if cur == nil {
				break
			}
		}
		msg.next = cur
		return msg
	}
}

// pollDone merges a refresh into the rows: changed rows are replaced in
// place and highlighted, new ones inserted, and — when the answer covers
// everything the list had loaded — rows the table no longer holds removed.
func (l *list) pollDone(m PollMsg) {
	l.poll.running = false
	if !l.hasScope || m.scope != l.scope || l.ld.loading {
		return // the scope changed or a load replaces the rows anyway
	}
	if m.err != nil {
		if data.IsCancelled(m.err) {
			return
		}
		// Back off: skip 1, 3, 7, 15, then 30 ticks.
		l.poll.failures++
		l.poll.skip = min(1<<min(l.poll.failures, 5)-1, 30)
		l.note = PollFailedNote + " (" + data.Describe(m.err) + "); retrying later"
		return
	}
	if l.poll.failures > 0 {
		l.note = ""
	}
	l.poll.failures, l.poll.skip = 0, 0
	now, th := l.ctx.now(), l.ctx.Theme
	seen := make(map[string]bool, len(m.recs))
	for _, r := range m.recs {
		id := rowID(r.Table(), r.Item(), -1)
		if strings.HasPrefix(id, "\x00") {
			continue // no usable key: cannot be matched with a row, left as loaded
		}
		seen[id] = true
		l.upsertLive(id, r, now, th)
	}
	if !m.full {
		return
	}
	for id := range l.items {
		if !seen[id] && !strings.HasPrefix(id, "\x00") {
			l.dropItem(id)
			l.table.Remove(id)
			if l.detailID == id {
				l.closeDetail()
			}
		}
	}
	l.ld.next = m.next
}

// ttlNote says which row DynamoDB's TTL process deleted.
func ttlNote(table data.TableID, old data.Item, kind string) string {
	id := ""
	if r := data.Decode(table, old); r != nil {
		id = r.ID()
	}
	if id == "" {
		return fmt.Sprintf("a row of %s expired (TTL) and was removed", kind)
	}
	return fmt.Sprintf("%s expired (TTL) and was removed from %s", id, kind)
}
