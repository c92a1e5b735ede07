package vtable

import (
	"math"
	"strconv"
	"strings"
)

// sortKey is precomputed per row when the sort column is chosen, so the sort
// compares plain values instead of parsing strings N log N times.
type sortKey struct {
	empty bool
	isNum bool
	num   float64
	str   string
}

// sortLast marks a cell with no value (a missing time): like an empty cell
// it sorts last in both directions. ^sortLast is a NaN pattern, so no
// number SortNum stores can collide with it (nor with 0).
const sortLast = 1

// SortNum returns c sorting by n instead of by its text: unix seconds for a
// time shown as "in 12m", the value of a count. A NaN sorts last.
func (c Cell) SortNum(n float64) Cell {
	if n != n {
		return c.SortLast()
	}
	if n == 0 {
		n = 0 // -0 and +0 are one key
	}
	c.sort = ^math.Float64bits(n)
	return c
}

// SortLast returns c sorting as a missing value: after every other row,
// whichever the direction, like an empty cell. For a "-" standing for no
// time at all.
func (c Cell) SortLast() Cell {
	c.sort = sortLast
	return c
}

// SortKey reports the numeric sort key set by SortNum; ok is false when the
// cell sorts by its text or was marked SortLast.
func (c Cell) SortKey() (n float64, ok bool) {
	if c.sort == 0 || c.sort == sortLast {
		return 0, false
	}
	return math.Float64frombits(^c.sort), true
}

// keyOf is the cell's precomputed sort key: the number it was given, or
// its text parsed as makeKey does.
func keyOf(c Cell) sortKey {
	switch c.sort {
	case 0:
		return makeKey(c.Text)
	case sortLast:
		return sortKey{empty: true}
	}
	return sortKey{isNum: true, num: math.Float64frombits(^c.sort)}
}

func makeKey(text string) sortKey {
	t := strings.TrimSpace(text)
	if t == "" {
		return sortKey{empty: true}
	}
	// Only try a number when it can be one: ParseFloat allocates an error
	// for every non-number, and it accepts "Inf"/"NaN", which here are words.
	if c := t[0]; c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') {
		if f, err := strconv.ParseFloat(t, 64); err == nil && f == f { // not NaN
			return sortKey{isNum: true, num: f, str: t}
		}
	}
	return sortKey{str: t}
}

// compareKeys orders numbers numerically and before text, text by bytes
// (ISO timestamps and ids sort correctly that way). Empty cells are not
// compared here: they always go last, whatever the direction.
func compareKeys(a, b sortKey) int {
	switch {
	case a.isNum && b.isNum:
		switch {
		case a.num < b.num:
			return -1
		case a.num > b.num:
			return 1
		}
		return strings.Compare(a.str, b.str)
	case a.isNum:
		return -1
	case b.isNum:
		return 1
	}
	return strings.Compare(a.str, b.str)
}
