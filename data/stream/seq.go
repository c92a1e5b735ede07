package stream

import (
	"math/big"
	"strings"
)

// Sequence numbers are decimal strings of up to 40 digits, so they are
// compared as big integers (DynamoDB Local pads them to 21 digits; AWS does
// not pad, so plain string order would be wrong).

// seqAfter reports whether sequence number a comes strictly after b.
// An empty b means "nothing delivered yet": every record is after it.
func seqAfter(a, b string) bool {
	if b == "" {
		return true
	}
	x, okx := new(big.Int).SetString(strings.TrimSpace(a), 10)
	y, oky := new(big.Int).SetString(strings.TrimSpace(b), 10)
	if okx && oky {
		return x.Cmp(y) > 0
	}
	// Not numbers (never seen in practice): fall back to length-then-lexical
	// order, which matches numeric order for unpadded digit strings.
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}
