package views

import (
	"time"

	"opsdeck/data"
)

// A count that starts just after a change may not see it yet (a global
// secondary index is written a moment after the table), so the changes
// received within data.CountSlack before a count starts are placed against
// it too, like those received while it runs (data.ReadSpan.Place).

// receivedChange is a change and when it reached the pane (wall clock,
// the clock a count's span is taken with).
type receivedChange struct {
	at time.Time
	c  Change
}

// recentLog keeps the changes received within data.CountSlack, bounded.
type recentLog struct{ items []receivedChange }

// add keeps c, received at at, dropping what is too old to matter.
func (l *recentLog) add(c Change, at time.Time) {
	cut := at.Add(-data.CountSlack)
	i := 0
	for i < len(l.items) && !l.items[i].at.After(cut) {
		i++
	}
	l.items = append(l.items[i:], receivedChange{at: at, c: c})
	if len(l.items) > maxUnsettled {
		l.items = l.items[len(l.items)-maxUnsettled:]
	}
}

// since lists the changes received within data.CountSlack of now.
func (l *recentLog) since(now time.Time) []Change {
	cut := now.Add(-data.CountSlack)
	var out []Change
	for _, r := range l.items {
		if r.at.After(cut) {
			out = append(out, r.c)
		}
	}
	return out
}

func (l *recentLog) reset() { l.items = nil }
