package data

import (
	"bytes"
	"cmp"
	"math/big"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// This file is the one definition of "the same DynamoDB value" in opsdeck.
// The guarded transitions use it to evaluate "=" the way DynamoDB does, and
// the stream view to decide which attributes a MODIFY changed; both must
// agree, or a pane would highlight a change the guard calls equal.

// maxNumberLen bounds the text we hand to big.Float. DynamoDB numbers have at
// most 38 significant digits, so anything longer did not come from DynamoDB.
const maxNumberLen = 64

// ParseNumber reads the text of a DynamoDB number (N) exactly enough to
// compare it: false when the text is empty, absurdly long or not a decimal
// number.
func ParseNumber(s string) (*big.Float, bool) {
	if len(s) == 0 || len(s) > maxNumberLen {
		return nil, false
	}
	// 200 bits of mantissa hold more than 38 decimal digits, so two distinct
	// DynamoDB numbers never compare equal after conversion.
	f, _, err := big.ParseFloat(strings.TrimSpace(s), 10, 200, big.ToNearestEven)
	if err != nil {
		return nil, false
	}
	return f, true
}

// EqualValues reports whether a and b hold the same DynamoDB value:
//   - the types must match: S "1" and N 1 differ;
//   - numbers compare by value ("1", "1.0" and "1e0" are equal), as
//     DynamoDB's "=" does; text that is not a number compares as text;
//   - strings and binaries compare byte for byte, BOOL by value, and every
//     NULL equals every other NULL (DynamoDB has only one);
//   - maps compare key by key and lists element by element, deeply;
//   - sets (SS, NS, BS) compare as sets: order is ignored, NS members compare
//     by value;
//   - nil (an absent attribute) equals only nil. DynamoDB's "=" is false
//     when either side is absent; callers evaluating a condition must check
//     that themselves.
func EqualValues(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && equalNumbers(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for k, v := range x.Value {
			w, ok := y.Value[k]
			if !ok || !EqualValues(v, w) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for i := range x.Value {
			if !EqualValues(x.Value[i], y.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameMembers(x.Value, y.Value)
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		// The same text is the common case and needs no parsing.
		return sameMembers(x.Value, y.Value) ||
			sameMembers(canonicalNumbers(x.Value), canonicalNumbers(y.Value))
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		xs := make([]string, len(x.Value))
		ys := make([]string, len(y.Value))
		for i, v := range x.Value {
			xs[i] = string(v)
		}
		for i, v := range y.Value {
			ys[i] = string(v)
		}
		return sameMembers(xs, ys)
	}
	// An unknown member type (a newer SDK): only the very same value is
	// known to be equal.
	return a == b
}

// equalNumbers compares two N texts by value, falling back to the text when
// either is not a number (a malformed item must still compare to itself).
func equalNumbers(x, y string) bool {
	if x == y {
		return true
	}
	c, ok := compareNumbers(x, y)
	return ok && c == 0
}

// compareNumbers orders two N texts by value; ok is false when either is
// not a number. Whole numbers of up to 18 digits, nearly every number the
// services store, are compared as int64s; the rest through ParseNumber.
func compareNumbers(x, y string) (int, bool) {
	if i, ok := plainInt(x); ok {
		if j, ok := plainInt(y); ok {
			return cmp.Compare(i, j), true
		}
	}
	fx, okx := ParseNumber(x)
	fy, oky := ParseNumber(y)
	if !okx || !oky {
		return 0, false
	}
	return fx.Cmp(fy), true
}

// plainInt reads s when it is an optional minus sign and 1 to 18 decimal
// digits, which int64 always holds exactly; any other text (a fraction, an
// exponent, spaces, more digits) is left to ParseNumber. Parsing through
// big.Float cost a microsecond and several allocations a number, and a
// load-all parses a few per item.
func plainInt(s string) (int64, bool) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(s) {
		n = -n
	}
	return n, true
}

// canonicalNumber is one text per numeric value ("4", "4.0" and "04" give
// the same), or s itself when it is not a number.
func canonicalNumber(s string) string {
	f, ok := ParseNumber(s)
	if !ok {
		return s
	}
	return f.Text('g', -1)
}

func canonicalNumbers(vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = canonicalNumber(v)
	}
	return out
}

// sameMembers reports whether a and b hold the same strings, in any order
// (counting repeats, which a malformed set may carry).
func sameMembers(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := make(map[string]int, len(a))
	for _, v := range a {
		count[v]++
	}
	for _, v := range b {
		count[v]--
		if count[v] < 0 {
			return false
		}
	}
	return true
}
