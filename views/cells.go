package views

import (
	"strings"
	"sync"

	"charm.land/lipgloss/v2"

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
