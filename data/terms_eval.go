package data

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Terms inside a Scope: their encoding (Scope stays comparable with ==),
// their types (settled from the schema), the FilterExpression they send
// and Matches' evaluation of them, which is DynamoDB's: = and the orders
// are false when the attribute is absent or of another type, <> is then
// true; begins_with holds only for a string (or binary) with the prefix.

// The sort-key conditions a planned Query adds to scope.go's.
const (
	SKLess    SKOp = SKBetween + 1 + iota // sort key < value
	SKAtMost                              // sort key <= value
	SKGreater                             // sort key > value
	SKAtLeast                             // sort key >= value
)

// Where returns the scope with terms added to its filter. The terms' types
// are settled from the scope's table (see PlanQuery); a term on a key
// attribute of the scope's table or index is refused (DynamoDB allows
// none in a FilterExpression), so is index=.
func (s Scope) Where(terms ...Term) (Scope, error) {
	schema, _ := Schema(s.Table)
	have := s.FilterTerms()
	for _, t := range terms {
		if t.Op == OpIndex {
			return s, fmt.Errorf("index=%s: this list reads its own index", t.Value)
		}
		if s.PKAttr != "" && isKeyOf(schema, s.Index, t.Attr) {
			return s, fmt.Errorf("%s is a key of %s: it cannot be a filter here", t.Attr, s.Operation())
		}
		rt, err := resolveTerm(schema, t)
		if err != nil {
			return s, err
		}
		have = append(have, rt)
	}
	s.Terms = encodeTerms(have)
	return s, nil
}

// FilterTerms is the scope's further filter terms (Terms), typed.
func (s Scope) FilterTerms() []Term { return decodeTerms(s.Terms) }

// encodeTerms writes terms as length-prefixed fields, so no value (however
// hostile) can be read back as another field.
func encodeTerms(terms []Term) string {
	var b strings.Builder
	field := func(v string) {
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
	}
	for _, t := range terms {
		field(t.Attr)
		field(strconv.Itoa(int(t.Op)))
		field(string(t.Type))
		field(t.Value)
		field(t.High)
	}
	return b.String()
}

func decodeTerms(s string) []Term {
	var out []Term
	next := func() (string, bool) {
		i := strings.IndexByte(s, ':')
		if i < 0 {
			return "", false
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 || i+1+n > len(s) {
			return "", false
		}
		v := s[i+1 : i+1+n]
		s = s[i+1+n:]
		return v, true
	}
	for s != "" {
		var f [5]string
		for i := range f {
			v, ok := next()
			if !ok {
				return out
			}
			f[i] = v
		}
		op, _ := strconv.Atoi(f[1])
		out = append(out, Term{Attr: f[0], Op: Op(op), Type: AttrType(f[2]), Value: f[3], High: f[4]})
	}
	return out
}

// keyTypeIn is the declared type of attr where it is a key of the table or
// of any of its indexes ("" when it is none).
func keyTypeIn(schema TableSchema, attr string) AttrType {
	if schema.PK.Name == attr {
		return schema.PK.Type
	}
	if schema.SK != nil && schema.SK.Name == attr {
		return schema.SK.Type
	}
	for _, ix := range schema.Indexes {
		if ix.PK.Name == attr {
			return ix.PK.Type
		}
		if ix.SK != nil && ix.SK.Name == attr {
			return ix.SK.Type
		}
	}
	return ""
}

// isKeyOf reports whether attr is a key of the read: the base table's keys
// for the table, the index's keys (an LSI's include the table's partition
// key) for an index.
func isKeyOf(schema TableSchema, index, attr string) bool {
	pk, sk := schema.PK, schema.SK
	if index != "" {
		ix, ok := schema.Index(index)
		if !ok {
			return false
		}
		pk, sk = ix.PK, ix.SK
	}
	return pk.Name == attr || (sk != nil && sk.Name == attr)
}

// resolveTerm settles the type a term's value is sent as: a key's declared
// type; for begins_with always a string; else a documented attribute's
// scalar type (S or N); else N when the value reads as a number and was not
// quoted, S otherwise. Both bounds of a between take one type (the
// server refuses mixed ones) and must be in order.
func resolveTerm(schema TableSchema, t Term) (Term, error) {
	if t.Attr == "" {
		return t, fmt.Errorf("a term needs an attribute")
	}
	numeric := !t.Quoted && looksNumeric(t.Value) && (t.Op != OpBetween || looksNumeric(t.High))
	switch kt := keyTypeIn(schema, t.Attr); {
	case t.Op == OpBegins:
		t.Type = TypeS
		if kt == TypeB {
			t.Type = TypeB
		}
	case kt == TypeN:
		if !looksNumeric(t.Value) || (t.Op == OpBetween && !looksNumeric(t.High)) {
			return t, fmt.Errorf("%s: %s is a number key", t, t.Attr)
		}
		t.Type = TypeN
	case kt != "":
		t.Type = kt
	case schema.Attrs[t.Attr] == "S":
		t.Type = TypeS
	case schema.Attrs[t.Attr] == "N" && numeric:
		t.Type = TypeN
	case numeric:
		t.Type = TypeN
	default:
		t.Type = TypeS
	}
	if t.Op == OpBetween {
		if c, ok := compareValues(t.value(), t.high()); ok && c > 0 {
			return t, fmt.Errorf("%s: the lower bound is above the upper one", t)
		}
	}
	return t, nil
}

func (t Term) value() types.AttributeValue { return keyValue(t.Type, t.Value) }
func (t Term) high() types.AttributeValue  { return keyValue(t.Type, t.High) }

// expr is the term as a condition, its names and values added to e.
func (t Term) expr(e *Expr) string {
	n := e.Name(t.Attr)
	switch t.Op {
	case OpEq:
		return n + " = " + e.Value(t.value())
	case OpNe:
		return n + " <> " + e.Value(t.value())
	case OpLt:
		return n + " < " + e.Value(t.value())
	case OpLe:
		return n + " <= " + e.Value(t.value())
	case OpGt:
		return n + " > " + e.Value(t.value())
	case OpGe:
		return n + " >= " + e.Value(t.value())
	case OpBegins:
		return "begins_with(" + n + ", " + e.Value(t.value()) + ")"
	case OpBetween:
		return n + " BETWEEN " + e.Value(t.value()) + " AND " + e.Value(t.high())
	}
	return ""
}

// holds evaluates the term on an item as DynamoDB's FilterExpression does.
func (t Term) holds(item map[string]types.AttributeValue) bool {
	v := item[t.Attr]
	switch t.Op {
	case OpEq:
		return v != nil && EqualValues(v, t.value())
	case OpNe:
		return v == nil || !EqualValues(v, t.value())
	case OpBegins:
		return beginsWith(v, t.value())
	case OpBetween:
		lo, okLo := compareValues(v, t.value())
		hi, okHi := compareValues(v, t.high())
		return okLo && okHi && lo >= 0 && hi <= 0
	}
	c, ok := compareValues(v, t.value())
	if !ok {
		return false
	}
	switch t.Op {
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpGt:
		return c > 0
	case OpGe:
		return c >= 0
	}
	return false
}

// termsExpr joins the scope's further terms into the filter built so far.
func (s Scope) termsExpr(e *Expr, filter string) string {
	for _, t := range s.FilterTerms() {
		c := t.expr(e)
		if c == "" {
			continue
		}
		if filter != "" {
			filter += " AND "
		}
		filter += c
	}
	return filter
}

// termsHold is Matches' test of the further terms.
func (s Scope) termsHold(item map[string]types.AttributeValue) bool {
	for _, t := range s.FilterTerms() {
		if !t.holds(item) {
			return false
		}
	}
	return true
}
