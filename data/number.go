package data

import (
	"math"
	"math/big"
	"strings"
)

// Number is a numeric attribute as stored. DynamoDB numbers carry up to 38
// digits, more than int64 or float64 hold, so the text is kept and is what
// is shown: a count of 99999999999999999999 reads 99999999999999999999, not
// 9223372036854775807, and 2.5 is not shown as 2. Int64 and Float64 give
// the value for arithmetic and sorting when it fits.
type Number struct {
	// Text is the number as stored (DynamoDB's decimal text, or the text of
	// a numeric string); "" when the attribute is absent or unreadable.
	Text string

	unreadable bool // present, but not a number
	f          float64
	i          int64
	isInt      bool // a whole number that int64 holds exactly
}

// parseNumberText reads text as a Number; ok is false when it is not a
// decimal number.
func parseNumberText(text string) (Number, bool) {
	text = strings.TrimSpace(text)
	if i, ok := plainInt(text); ok {
		return Number{Text: text, f: float64(i), i: i, isInt: true}, true
	}
	bf, ok := ParseNumber(text)
	if !ok || bf.IsInf() {
		return Number{unreadable: true}, false
	}
	n := Number{Text: text}
	n.f, _ = bf.Float64()
	if bf.IsInt() {
		if i, acc := bf.Int64(); acc == big.Exact {
			n.i, n.isInt = i, true
		}
	}
	return n, true
}

// Present reports whether the attribute held a readable number.
func (n Number) Present() bool { return n.Text != "" }

// Unreadable reports whether the attribute was there but is not a number.
func (n Number) Unreadable() bool { return n.unreadable }

// Int64 is the value when it is a whole number int64 holds exactly.
func (n Number) Int64() (int64, bool) { return n.i, n.isInt }

// Float64 is the nearest float64 (for sorting and comparisons that need no
// exactness); ok is false when there is no number.
func (n Number) Float64() (float64, bool) {
	if !n.Present() || math.IsInf(n.f, 0) {
		return 0, false
	}
	return n.f, true
}

// Sign is -1, 0 or +1; 0 for an absent or unreadable number.
func (n Number) Sign() int {
	switch {
	case !n.Present() || n.f == 0:
		return 0
	case n.f < 0:
		return -1
	}
	return 1
}

// String is what a cell shows: the stored text, "-" when absent, "?" when
// the value is not a number.
func (n Number) String() string {
	switch {
	case n.unreadable:
		return "?"
	case !n.Present():
		return "-"
	case n.isInt:
		return formatInt(n.i)
	}
	return Clip(n.Text, 40)
}

func formatInt(i int64) string { return big.NewInt(i).String() }

// IntNumber is the Number of a whole value, as DynamoDB would store it.
func IntNumber(i int64) Number {
	return Number{Text: formatInt(i), f: float64(i), i: i, isInt: true}
}
