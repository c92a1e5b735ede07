package vtable

import (
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
