package vtable

import (
	"math"
	"slices"
	"time"
)

// An idle console should draw nothing and wake for nothing: the owner of a
// table with live time columns asks NextChange when the next label on
// screen changes and sleeps until then, and then re-renders only the rows
// whose labels changed (Changed).

// cellTime is the time a cell of a live or clocked column holds.
func cellTime(c Cell) (time.Time, bool) {
	n, ok := c.SortKey()
	if !ok || math.IsNaN(n) || math.IsInf(n, 0) {
		return time.Time{}, false
	}
	sec := math.Floor(n)
	return time.Unix(int64(sec), int64((n-sec)*1e9)), true
}

// clockCols are the shown columns whose text follows the clock.
func (m Model) clockCols() []int {
	var out []int
	for _, i := range m.layout.vis {
		if m.cols[i].Relative != nil || m.cols[i].Clocked {
			out = append(out, i)
		}
	}
	return out
}

// NextChange is the earliest moment at which a row on screen looks
// different by the clock alone, next(t, at) giving when a time t's label
// drawn at moment at next changes; the zero time when none will. The
// labels on screen were drawn at labelsAt: one already out of date gives
// now.
func (m Model) NextChange(now time.Time, next func(t, now time.Time) time.Time) time.Time {
	cols := m.clockCols()
	if len(cols) == 0 {
		return time.Time{}
	}
	drawn := now
	if !m.labelsAt.IsZero() && m.labelsAt.Before(now) {
		drawn = m.labelsAt
	}
	var soonest time.Time
	end := min(m.offset+m.bodyHeight(), len(m.view))
	for _, e := range m.view[min(m.offset, end):end] {
		for _, c := range cols {
			if c >= len(e.Cells) {
				continue
			}
			t, ok := cellTime(e.Cells[c])
			if !ok {
				continue
			}
			at := next(t, drawn)
			if at.IsZero() {
				continue
			}
			if at.Before(now) {
				at = now
			}
			if soonest.IsZero() || at.Before(soonest) {
				soonest = at
			}
		}
	}
	return soonest
}

// Changed returns the ids of the rows on screen that look different at
// now than at since by the clock alone (next as for NextChange).
func (m Model) Changed(since, now time.Time, next func(t, now time.Time) time.Time) []string {
	cols := m.clockCols()
	var out []string
	end := min(m.offset+m.bodyHeight(), len(m.view))
	for _, e := range m.view[min(m.offset, end):end] {
		if slices.ContainsFunc(cols, func(c int) bool {
			if c >= len(e.Cells) {
				return false
			}
			t, ok := cellTime(e.Cells[c])
			if !ok {
				return false
			}
			at := next(t, since)
			return !at.IsZero() && !at.After(now)
		}) {
			out = append(out, e.ID)
		}
	}
	return out
}
