package data

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Scope is the one description of a set of items a pane lists: everything
// its read needs — table or GSI, partition key value, sort-key condition,
// filter terms, order — and a short label for humans. Store.Page reads any
// scope (a Query, completed with BatchGetItem where the index does not
// project every attribute; a GetItem when the scope names one whole primary
// key), Store.Count counts one, and Matches, the live tail's test of
// whether a stream record's new image belongs in the pane, is derived from
// the same fields: query and tail agree by construction, not by care.
//
// Build scopes with the constructors (svc_*.go, scope_ctors.go): they take index and
// key names from the schema. Scope is comparable with ==, so a pane can tell
// whether its scope changed; hence fixed-size arrays, no slices.
type Scope struct {
	Table TableID
	Index string // GSI name; "" reads the base table

	// PKAttr = PKValue is the key condition's partition part; PKAttr ""
	// means no key condition (only Via scopes have none).
	PKAttr, PKValue string
	// SKAttr SKOp SKValue is the sort-key part (SKAny: none); SKBetween
	// also uses SKHigh, the inclusive upper bound.
	SKAttr  string
	SKOp    SKOp
	SKValue string
	SKHigh  string

	// Filter holds up to two filter terms, applied by DynamoDB after the
	// key condition (the FilterExpression): pages can come back short.
	Filter [2]Cond
	// Terms, when not "", holds any number of further filter terms
	// (comparison terms, terms.go), encoded so Scope stays comparable:
	// set with Where or PlanQuery, read with FilterTerms.
	Terms string

	// NewestFirst reads the index backwards (ScanIndexForward=false).
	NewestFirst bool

	// Via, when not ViaKey, says the items are found another way than by a
	// key condition of their own table (contexts have no project index).
	Via Via

	// Label is the scope for a title: "project p-1", "user u-1 · type
	// order.*". Raw tenant data: sanitise before it reaches the screen.
	Label string

	// Only, when not "", is the attributes a read returns (set with
	// Project; the table's key attributes always come too): a list that
	// shows a few columns reads a few attributes, not whole items. ""
	// reads whole items. It changes what is read, not which items.
	Only string
}

// Project returns the scope reading only the given attributes (and the
// table's keys) of each item. No attributes reads whole items.
func (s Scope) Project(attrs ...string) Scope {
	attrs = slices.Clone(attrs)
	slices.Sort(attrs)
	s.Only = strings.Join(slices.Compact(attrs), onlySep)
	return s
}

// Whole is the scope reading whole items.
func (s Scope) Whole() Scope {
	s.Only = ""
	return s
}

// Projected is the attributes a read returns besides the keys; nil for
// whole items.
func (s Scope) Projected() []string {
	if s.Only == "" {
		return nil
	}
	return strings.Split(s.Only, onlySep)
}

// onlySep separates Scope.Only's names: a byte no attribute name of the
// schema holds (names may hold ',' or '#').
const onlySep = "\x00"

// readNames is what a projected read asks for: the projected attributes
// and the table's key attributes.
func (s Scope) readNames() []string {
	names := s.Projected()
	if schema, ok := Schema(s.Table); ok {
		for _, k := range schema.KeyNames() {
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	return names
}

// SKOp is a scope's sort-key condition.
type SKOp uint8

const (
	SKAny        SKOp = iota // no sort-key condition
	SKEqual                  // sort key = value
	SKBeginsWith             // begins_with(sort key, value)
	SKBetween                // sort key BETWEEN value AND high (inclusive)
)

// Via says how Store.Page finds a scope's items.
type Via uint8

const (
	// ViaKey: a Query on Table/Index, or a GetItem when the scope names a
	// whole primary key of the base table.
	ViaKey Via = iota
	// ViaProjectSessions: browser contexts, read by the ids that a
	// project's sessions name (docs/SCHEMAS.md). Filter[0] is
	// projectId = the project; a context row belongs to the scope when it
	// names the project itself (the membership the live tail can test).
	ViaProjectSessions
)

// Cond is one filter term on a string attribute: it equals Value, or begins
// with it when Prefix is set. With Cmp set it compares instead (attr <
// Value, attr >= Value), as numbers when Num is set, else as strings byte by
// byte — DynamoDB's own orders. A zero Cond (Attr "") is no term.
type Cond struct {
	Attr   string
	Value  string
	Prefix bool
	Cmp    CmpOp
	Num    bool
	// Contains: DynamoDB's contains(attr, Value) — a list or string set
	// holding the string Value, or a string holding it as a substring.
	// Only the explicit Scan uses it (no key condition can).
	Contains bool
}

// CmpOp is an ordering filter term's operator (CmpNone: Prefix or =).
type CmpOp uint8

const (
	CmpNone    CmpOp = iota
	CmpLess          // attr < value
	CmpAtLeast       // attr >= value
)

// value is the term's operand as the AttributeValue the filter sends.
func (c Cond) value() types.AttributeValue {
	if c.Num {
		return &types.AttributeValueMemberN{Value: c.Value}
	}
	return S(c.Value)
}

// Projection is what the scope's table or index holds of each item: ALL
// for the base table, else the index's projection. Store.Page completes
// KEYS_ONLY and INCLUDE reads with BatchGetItem.
func (s Scope) Projection() Projection {
	if s.Index == "" {
		return Projection{Type: ProjectAll}
	}
	if ix, ok := s.index(); ok {
		return ix.Projection
	}
	return Projection{Type: ProjectAll}
}

// IsGet reports whether the scope is one item by its whole primary key
// (GetItem, consistent): the base table, partition key given and, where
// the table has a sort key, the sort key by equality.
func (s Scope) IsGet() bool {
	if s.Via != ViaKey || s.Index != "" || s.PKAttr == "" || s.Terms != "" {
		return false // a GetItem has no filter: terms need a Query
	}
	schema, ok := Schema(s.Table)
	if !ok {
		return false
	}
	return schema.SK == nil || (s.SKOp == SKEqual && s.SKAttr == schema.SK.Name)
}

// getKey is the primary key an IsGet scope names.
func (s Scope) getKey() Item {
	k := Item{s.PKAttr: s.pkValue()}
	if s.SKOp == SKEqual {
		k[s.SKAttr] = s.skValue()
	}
	return k
}

func (s Scope) index() (Index, bool) {
	schema, ok := Schema(s.Table)
	if !ok {
		return Index{}, false
	}
	return schema.Index(s.Index)
}

// keyType is the declared type of a key attribute of the scope's table or
// index (S when the schema does not say).
func (s Scope) keyType(attr string) AttrType {
	schema, ok := Schema(s.Table)
	if !ok {
		return TypeS
	}
	var stack [4]KeyAttr // at most four keys; kept off the heap
	keys := append(stack[:0], schema.PK)
	if schema.SK != nil {
		keys = append(keys, *schema.SK)
	}
	if ix, ok := schema.Index(s.Index); ok {
		keys = append(keys, ix.PK)
		if ix.SK != nil {
			keys = append(keys, *ix.SK)
		}
	}
	for _, k := range keys {
		if k.Name == attr {
			return k.Type
		}
	}
	return TypeS
}

// keyValue is text as the AttributeValue of a key attribute: what the query
// sends and what Matches compares against.
func keyValue(t AttrType, v string) types.AttributeValue {
	switch t {
	case TypeN:
		return &types.AttributeValueMemberN{Value: v}
	case TypeB:
		return &types.AttributeValueMemberB{Value: []byte(v)}
	}
	return &types.AttributeValueMemberS{Value: v}
}

func (s Scope) pkValue() types.AttributeValue { return keyValue(s.keyType(s.PKAttr), s.PKValue) }
func (s Scope) skValue() types.AttributeValue { return keyValue(s.keyType(s.SKAttr), s.SKValue) }
func (s Scope) skHigh() types.AttributeValue  { return keyValue(s.keyType(s.SKAttr), s.SKHigh) }

// Fixes reports whether every item of the scope has attr = value by the
// scope's own condition (the partition key, a sort key or filter term by
// equality): a column showing attr would repeat the title on every row.
func (s Scope) Fixes(attr string) (value string, ok bool) {
	switch {
	case attr == "":
		return "", false
	case s.PKAttr == attr:
		return s.PKValue, true
	case s.SKOp == SKEqual && s.SKAttr == attr:
		return s.SKValue, true
	}
	for _, c := range s.Filter {
		if c.Attr == attr && !c.Prefix && c.Cmp == CmpNone {
			return c.Value, true
		}
	}
	for _, t := range s.FilterTerms() {
		if t.Attr == attr && t.Op == OpEq {
			return t.Value, true
		}
	}
	return "", false
}

// SortAttr is the attribute the scope's rows come ordered by (the index's
// sort key), "" when the read has no order (a GetItem, an index without a
// sort key, a Via scope).
func (s Scope) SortAttr() string {
	if s.Via != ViaKey || s.IsGet() || s.PKAttr == "" {
		return ""
	}
	schema, ok := Schema(s.Table)
	if !ok {
		return ""
	}
	if s.Index == "" {
		if schema.SK == nil {
			return ""
		}
		return schema.SK.Name
	}
	if ix, ok := schema.Index(s.Index); ok && ix.SK != nil {
		return ix.SK.Name
	}
	return ""
}

// Operation names the read the way the operator can check it: "Query on
// StatusIndex", "GetItem on sessions".
func (s Scope) Operation() string {
	switch {
	case s.Table == "":
		return "DynamoDB"
	case s.Via == ViaProjectSessions:
		return "Query for " + string(s.Table)
	case s.Index != "":
		return "Query on " + s.Index
	case s.IsGet():
		return "GetItem on " + string(s.Table)
	}
	return "Query on " + string(s.Table)
}

// String renders the scope's conditions, e.g. "events · user_id=u-1 ·
// event_type#timestamp^=order.", for logs and test messages. The result is
// raw data (tenant values included): sanitise it before it reaches the
// screen.
func (s Scope) String() string {
	var b strings.Builder
	b.WriteString(string(s.Table))
	term := func(attr, op, value string) {
		b.WriteString(" · ")
		b.WriteString(attr)
		b.WriteString(op)
		b.WriteString(value)
	}
	if s.PKAttr != "" {
		term(s.PKAttr, "=", s.PKValue)
	}
	switch s.SKOp {
	case SKEqual:
		term(s.SKAttr, "=", s.SKValue)
	case SKBeginsWith:
		term(s.SKAttr, "^=", s.SKValue)
	case SKBetween:
		term(s.SKAttr, " in ", "["+s.SKValue+", "+s.SKHigh+"]")
	case SKLess, SKAtMost, SKGreater, SKAtLeast:
		term(s.SKAttr, skCmp[s.SKOp], s.SKValue)
	}
	for _, c := range s.Filter {
		if c.Attr == "" {
			continue
		}
		term(c.Attr, c.opText("^=", " contains "), c.Value)
	}
	for _, t := range s.FilterTerms() {
		b.WriteString(" · ")
		b.WriteString(t.String())
	}
	return b.String()
}

// opText is a filter term's operator as text: "=", "<", ">=", or the
// words given for a prefix and for contains (String writes "^=", the
// plan a title shows "begins with").
func (c Cond) opText(prefix, contains string) string {
	switch {
	case c.Cmp == CmpLess:
		return "<"
	case c.Cmp == CmpAtLeast:
		return ">="
	case c.Prefix:
		return prefix
	case c.Contains:
		return contains
	}
	return "="
}
