package views

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Cell styles are shared: a lipgloss.Style is a few hundred bytes, and one
// copy per cell of 100k rows would cost tens of megabytes. Rows point into
// this cache instead, keyed by theme and role.
var (
	styleMu    sync.Mutex
	styleCache = map[string]*lipgloss.Style{}
)

// styleCacheMax bounds the cache: status words come from tenant data, and a
// hostile table could hold millions of distinct ones. Past the bound a cell
// gets its own copy, correct but unshared.
const styleCacheMax = 1024

func sharedStyle(key string, make func() lipgloss.Style) *lipgloss.Style {
	styleMu.Lock()
	defer styleMu.Unlock()
	if st, ok := styleCache[key]; ok {
		return st
	}
	st := make()
	if len(styleCache) < styleCacheMax {
		styleCache[key] = &st
	}
	return &st
}

// statusCell is a status word coloured by what it means (themes.Status).
func statusCell(text string, th themes.Theme) vtable.Cell {
	key := th.Name + "\x00status\x00" + strings.ToLower(strings.TrimSpace(text))
	return vtable.Cell{Text: text, Style: sharedStyle(key, func() lipgloss.Style { return th.Status(text) })}
}

// errorCell and warnCell flag a value (expired, past deadline, exposed).
func errorCell(text string, th themes.Theme) vtable.Cell {
	return vtable.Cell{Text: text, Style: sharedStyle(th.Name+"\x00error", func() lipgloss.Style { return th.Error })}
}

func warnCell(text string, th themes.Theme) vtable.Cell {
	return vtable.Cell{Text: text, Style: sharedStyle(th.Name+"\x00warn", func() lipgloss.Style { return th.Warn })}
}

// The cells below carry a sort key beside their text, so that sorting by an
// age or expiry column orders by the time ("5d ago" before "3m ago"), not
// by the letters of the rendered text, and counts compare as numbers
// without being parsed again.

// timeCell shows t relative to now and sorts by its unix seconds; a missing
// time shows "-" and sorts last in both directions.
func timeCell(t, now time.Time) vtable.Cell {
	return timeKey(vtable.Cell{Text: Relative(t, now)}, t)
}

// timeKey gives c (whatever its text, e.g. "expired 3m ago") t's sort key.
func timeKey(c vtable.Cell, t time.Time) vtable.Cell {
	if t.IsZero() {
		return c.SortLast()
	}
	return c.SortNum(float64(t.Unix()) + float64(t.Nanosecond())/1e9)
}

// intCell shows and sorts a count.
func intCell(n int64) vtable.Cell {
	return vtable.Cell{Text: strconv.FormatInt(n, 10)}.SortNum(float64(n))
}

// numCell shows a number exactly as stored (data.Number: never clamped,
// truncated or rounded; "-" when absent, "?" when not a number) and sorts
// by its value, nearest float64, with missing values last.
func numCell(n data.Number) vtable.Cell {
	c := vtable.Cell{Text: n.String()}
	if f, ok := n.Float64(); ok {
		return c.SortNum(f)
	}
	return c.SortLast()
}

// timeCellOf is timeCell for an attribute of a record: a value that is
// there but cannot be read as a time shows "unreadable" rather than "-" or
// the meaning a missing time has ("never").
func timeCellOf(m data.Meta, attr string, t, now time.Time, th themes.Theme) vtable.Cell {
	if t.IsZero() && m.Unreadable(attr) {
		return warnCell("unreadable", th).SortLast()
	}
	return timeCell(t, now)
}

// restyle gives c another style, keeping its text and sort key.
func restyle(c vtable.Cell, with vtable.Cell) vtable.Cell {
	c.Style = with.Style
	return c
}
