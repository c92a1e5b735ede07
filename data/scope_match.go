package data

// Scope.Matches: the live tail's membership test, derived from the same
// fields the Query sends, so a stream image belongs in a pane exactly when
// the query would return it.

import (
	"bytes"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Matches reports whether item (typically a stream record's NEW image) is
// one the scope's read would return — with the same values the read sends,
// compared the way DynamoDB compares them. A nil or empty item never
// matches, so a REMOVE record (no new image) always takes its row out of a
// pane. It never panics on malformed items: a key attribute of the wrong
// type keeps the item out of a GSI (sparse indexes), exactly as DynamoDB
// does, and a filter term on a string never matches a number.
func (s Scope) Matches(item map[string]types.AttributeValue) bool {
	if len(item) == 0 || !s.inIndex(item) {
		return false
	}
	if s.PKAttr != "" && !EqualValues(item[s.PKAttr], s.pkValue()) {
		return false
	}
	switch s.SKOp {
	case SKEqual:
		if !EqualValues(item[s.SKAttr], s.skValue()) {
			return false
		}
	case SKBeginsWith:
		if !beginsWith(item[s.SKAttr], s.skValue()) {
			return false
		}
	case SKBetween:
		lo, okLo := compareValues(item[s.SKAttr], s.skValue())
		hi, okHi := compareValues(item[s.SKAttr], s.skHigh())
		if !okLo || !okHi || lo < 0 || hi > 0 {
			return false
		}
	case SKLess, SKAtMost, SKGreater, SKAtLeast:
		if !skOrderHolds(s.SKOp, item[s.SKAttr], s.skValue()) {
			return false
		}
	}
	for _, c := range s.Filter {
		if c.Attr != "" && !c.holds(item) {
			return false
		}
	}
	return s.termsHold(item)
}

// inIndex checks GSI membership: every key attribute of the index must be
// present with the declared scalar type. For the base table (or an index the
// schema does not know) every item qualifies.
func (s Scope) inIndex(item map[string]types.AttributeValue) bool {
	if s.Index == "" {
		return true
	}
	ix, ok := s.index()
	if !ok {
		return true
	}
	if !hasKeyType(item[ix.PK.Name], ix.PK.Type) {
		return false
	}
	return ix.SK == nil || hasKeyType(item[ix.SK.Name], ix.SK.Type)
}

// holds evaluates the term as the FilterExpression does: "=" or
// begins_with against a string value.
func (c Cond) holds(item map[string]types.AttributeValue) bool {
	switch c.Cmp {
	case CmpLess:
		n, ok := compareValues(item[c.Attr], c.value())
		return ok && n < 0
	case CmpAtLeast:
		n, ok := compareValues(item[c.Attr], c.value())
		return ok && n >= 0
	}
	want := S(c.Value)
	if c.Contains {
		return contains(item[c.Attr], c.Value)
	}
	if c.Prefix {
		return beginsWith(item[c.Attr], want)
	}
	return EqualValues(item[c.Attr], want)
}

// contains is DynamoDB's contains() with a string operand: a list with an
// S element equal to it, a string set holding it, or a string holding it.
func contains(v types.AttributeValue, want string) bool {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return strings.Contains(x.Value, want)
	case *types.AttributeValueMemberSS:
		return slices.Contains(x.Value, want)
	case *types.AttributeValueMemberL:
		for _, e := range x.Value {
			if s, ok := e.(*types.AttributeValueMemberS); ok && s.Value == want {
				return true
			}
		}
	}
	return false
}

// beginsWith is DynamoDB's begins_with: a string or binary of the same
// type as the prefix.
func beginsWith(v, prefix types.AttributeValue) bool {
	switch p := prefix.(type) {
	case *types.AttributeValueMemberS:
		x, ok := v.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(x.Value, p.Value)
	case *types.AttributeValueMemberB:
		x, ok := v.(*types.AttributeValueMemberB)
		return ok && bytes.HasPrefix(x.Value, p.Value)
	}
	return false
}

// compareValues orders two scalars of the same type the way DynamoDB's
// comparison operators do: numbers by value, strings and binaries byte by
// byte. ok is false when the types differ or a number does not parse (the
// comparison is then false, as DynamoDB's is for mismatched types).
func compareValues(v, w types.AttributeValue) (int, bool) {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		y, ok := w.(*types.AttributeValueMemberS)
		if !ok {
			return 0, false
		}
		return strings.Compare(x.Value, y.Value), true
	case *types.AttributeValueMemberB:
		y, ok := w.(*types.AttributeValueMemberB)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x.Value, y.Value), true
	case *types.AttributeValueMemberN:
		y, ok := w.(*types.AttributeValueMemberN)
		if !ok {
			return 0, false
		}
		return compareNumbers(x.Value, y.Value)
	}
	return 0, false
}

// hasKeyType reports whether v is a scalar of the given key type.
func hasKeyType(v types.AttributeValue, t AttrType) bool {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return t == TypeS
	case *types.AttributeValueMemberN:
		return t == TypeN
	case *types.AttributeValueMemberB:
		return t == TypeB
	}
	return false
}
