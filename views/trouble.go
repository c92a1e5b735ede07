package views

import (
	"sync/atomic"
	"time"

	"opsdeck/data"
)

// Rows that point at trouble carry the gutter tag "!" and a coloured cell:
// the glyph says it without colour (NO_COLOR, colour-blind eyes). What
// counts as trouble is data.Trouble — the overview's own scopes, so a
// marked row is one an overview number includes.

// troubleRules is set once, before the program runs (SetTrouble): the row
// builders are plain functions of a record, the clock and the theme.
var troubleRules atomic.Pointer[data.Trouble]

// SetTrouble sets the windows rows are marked by (the overview's).
func SetTrouble(t data.Trouble) { troubleRules.Store(&t) }

// troubleOf says whether a record is in trouble at now.
func troubleOf(r data.Record, now time.Time) bool {
	_, ok := troubleCheck(r.Table(), now).Of(r.Item())
	return ok
}

// lastCheck is the check troubleOf used last. A page's rows are built with
// one clock, so a page of a load-all builds its check once instead of once a
// row (a tenth of the CPU its rows took). Pages are built on the UI
// goroutine and on the ones that read ahead: the check is swapped whole.
var lastCheck atomic.Pointer[data.TroubleCheck]

func troubleCheck(table data.TableID, now time.Time) data.TroubleCheck {
	rules := data.Trouble{}
	if t := troubleRules.Load(); t != nil {
		rules = *t
	}
	if c := lastCheck.Load(); c != nil && c.Same(rules, table, now) {
		return *c
	}
	c := rules.At(table, now)
	lastCheck.Store(&c)
	return c
}
