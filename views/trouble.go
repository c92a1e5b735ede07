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
	rules := data.Trouble{}
	if t := troubleRules.Load(); t != nil {
		rules = *t
	}
	_, ok := rules.Of(r.Table(), r.Item(), now)
	return ok
}
