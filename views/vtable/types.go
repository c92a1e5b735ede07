// Package vtable is a virtual table: it keeps every row in memory but renders
// only the rows in the visible window, and it keeps the filtered and sorted
// order as a cached index, so drawing a frame or moving the cursor costs the
// same with 100 rows or 100k. (The bubbles table rebuilds every row on each
// update, which is what makes big lists slow in other consoles.)
//
// Filtering and sorting are O(N) / O(N log N) but run only when the filter,
// the sort or the rows change, never per frame or per keypress.
package vtable

import (
	"time"

	"charm.land/lipgloss/v2"
)

// Align is a column's text alignment.
type Align int

const (
	Left Align = iota
	Right
)

// Column describes one column.
type Column struct {
	Key   string // stable name, e.g. "status"; used by SortByKey
	Title string
	Width int // minimum width in cells
	// Fit: the column is as wide as its values on screen, an outlier
	// excepted (fit.go); otherwise it is fixed at Width.
	Fit   bool
	Align Align
	// Priority decides which columns survive a narrow terminal: when the
	// minimum widths do not fit, the lowest Priority is hidden first, and
	// among equals the rightmost. The first column is never hidden.
	Priority int
	// Relative, when set, makes the column live: a cell holding a time as
	// its sort key (SortNum of unix seconds) is shown as Relative(t, now)
	// when drawn, with the table's clock, so "5s ago" keeps counting
	// instead of freezing at load time. Only drawn rows are formatted. A
	// cell without a numeric key (SortLast, "-") shows its Text.
	Relative func(t, now time.Time) string
	// Clocked: the row builder wrote this column's text against the clock
	// (the cell's sort key is the time, as for Relative): the owner must
	// render the row again when that time's relative label changes
	// (NextChange counts it).
	Clocked bool
	// Hidden leaves the column out of the layout whatever the width, while
	// its cells stay in the rows (index-aligned, still searchable by the
	// filter). A list hides a column whose value its scope fixes: under
	// "Sessions · project p-1" every PROJECT cell reads p-1, and the
	// width is better spent on the ids.
	Hidden bool
	// Whole: a cell is never cut (numbers: a cut number reads as another
	// number). The column widens to its widest cell on screen, up to
	// numberMax; one that still does not fit shows as ### (whole.go).
	Whole bool
}

// Cell is one value. Text is raw tenant text; the table passes it through
// inert.Line, so callers never sanitise themselves.
//
// A cell sorts by its text unless it was given a sort key (SortNum,
// SortLast): a relative time such as "3m ago" must sort by the time it
// stands for, not by its letters.
type Cell struct {
	Text  string
	Style *lipgloss.Style // optional foreground style, e.g. a status colour
	// sort is the sort key, packed into one word because a 100k-row table
	// holds about a million cells: 0 means "sort by Text", sortLast means
	// "no value, sort last", anything else is ^Float64bits of the number.
	// Both special values are NaN bit patterns, which SortNum never stores.
	sort uint64
}

// Row is one line of the table.
type Row struct {
	ID    string // stable identity (e.g. the item's key); unique within a table
	Cells []Cell
	Dim   bool   // drawn muted, e.g. an expired delegation
	Tag   string // one-cell marker in the gutter: "!" expired, "~" changed
}

// entry is a row plus what the table caches about it.
type entry struct {
	Row
	seq      uint64 // insertion order: the unsorted order and the sort tiebreak
	haystack string // lower-cased, sanitised cell text for filtering; "" = not built
	hasHay   bool
	key      sortKey // for the current sort column
	visible  bool    // in the current view (passes the filter)
	removed  bool
}
