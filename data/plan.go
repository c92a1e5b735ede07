package data

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The planner: terms (terms.go) become a Scope. The base table or the
// index (GSI or LSI) whose partition key is given with = becomes the
// Query's key condition, with a sort-key condition where one fits; every
// other term becomes the FilterExpression. Without a usable partition key
// the plan is refused (*NeedKeyError): opsdeck never scans implicitly.

// skCmp is the key condition's operator of an ordering SKOp.
var skCmp = map[SKOp]string{SKLess: "<", SKAtMost: "<=", SKGreater: ">", SKAtLeast: ">="}

// skOrderHolds is Matches' test of an ordering sort-key condition.
func skOrderHolds(op SKOp, v, want types.AttributeValue) bool {
	c, ok := compareValues(v, want)
	if !ok {
		return false
	}
	switch op {
	case SKLess:
		return c < 0
	case SKAtMost:
		return c <= 0
	case SKGreater:
		return c > 0
	case SKAtLeast:
		return c >= 0
	}
	return false
}

// KeyOption is one way a set of terms could become a Query: give Attr
// with = to read Index ("" is the base table).
type KeyOption struct {
	Attr  string
	Index string
	Local bool // an LSI
}

// NeedKeyError is PlanQuery's refusal when no term gives a partition key
// with =: a Query needs one, and opsdeck never scans without being asked.
type NeedKeyError struct {
	Table   TableID
	Options []KeyOption // the partition keys that would make it a Query
	Forced  string      // the index index= named, if any
}

func (e *NeedKeyError) Error() string {
	var b strings.Builder
	b.WriteString("no key condition on ")
	b.WriteString(TableLabel(e.Table))
	if e.Forced != "" {
		b.WriteString(" (index " + e.Forced + ")")
	}
	b.WriteString(": give one of: ")
	for i, o := range e.Options {
		if i > 0 {
			b.WriteString(", ")
		}
		where := "table"
		if o.Index != "" {
			where = o.Index
		}
		b.WriteString(o.Attr + "= (" + where + ")")
	}
	b.WriteString(" — or :scan " + TableLabel(e.Table) + " TERMS… (reads and bills the whole table)")
	return b.String()
}

// TableLabel is a table id as the operator names it: an unmodeled table
// by its physical name, a modeled one by its id.
func TableLabel(id TableID) string {
	if IsUnmodeled(id) {
		return strings.TrimPrefix(string(id), unmodeledPrefix)
	}
	return string(id)
}

// candidate is the base table or one index, as a possible Query.
type candidate struct {
	index string
	local bool
	pk    KeyAttr
	sk    *KeyAttr
}

func candidates(schema TableSchema) []candidate {
	out := []candidate{{pk: schema.PK, sk: schema.SK}}
	for _, ix := range schema.Indexes {
		out = append(out, candidate{index: ix.Name, local: ix.Local, pk: ix.PK, sk: ix.SK})
	}
	return out
}

// PlanQuery turns terms into a Query scope on schema's table. The base
// table or the index whose partition key has an = term is read; among
// several, the one whose sort key also has a usable condition (=, <, <=,
// >, >=, begins_with on a string key, between) wins, then the base table,
// then the schema's order. index=NAME forces one. Every other term goes
// into the FilterExpression; a term the read cannot filter on (a second
// condition on its sort key, a != on it) makes that read unusable. No
// usable read gives a *NeedKeyError. An unmodeled schema is registered
// (RegisterSchema): the scope's reads find its keys by its id.
func PlanQuery(schema TableSchema, terms []Term) (Scope, error) {
	registerIfUnmodeled(schema)
	var forced string
	var conds []Term
	for _, t := range terms {
		if t.Op == OpIndex {
			if forced != "" && forced != t.Value {
				return Scope{}, fmt.Errorf("index=%s and index=%s: give one index", forced, t.Value)
			}
			forced = t.Value
			continue
		}
		rt, err := resolveTerm(schema, t)
		if err != nil {
			return Scope{}, err
		}
		conds = append(conds, rt)
	}
	cands := candidates(schema)
	if forced != "" {
		ix, ok := schema.Index(forced)
		if !ok {
			return Scope{}, fmt.Errorf("%s has no index %s (%s)", TableLabel(schema.ID), forced, indexNames(schema))
		}
		cands = []candidate{{index: ix.Name, local: ix.Local, pk: ix.PK, sk: ix.SK}}
	}
	best, bestScore := Scope{}, -1
	var conflict error
	for i, c := range cands {
		sc, score, err := planOn(schema, c, conds)
		if err != nil {
			if conflict == nil {
				conflict = err
			}
			continue
		}
		if score > bestScore || (score == bestScore && i == 0) {
			best, bestScore = sc, score
		}
	}
	switch {
	case bestScore >= 0:
		return best, nil
	case conflict != nil:
		return Scope{}, conflict
	}
	need := &NeedKeyError{Table: schema.ID, Forced: forced}
	for _, c := range cands {
		need.Options = append(need.Options, KeyOption{Attr: c.pk.Name, Index: c.index, Local: c.local})
	}
	return Scope{}, need
}

// planOn plans the terms as a Query on one candidate. score is -1 when
// no term gives its partition key; 2 is added for a sort-key condition, 1
// for the base table (every attribute, no second read).
func planOn(schema TableSchema, c candidate, conds []Term) (Scope, int, error) {
	pkAt := -1
	for i, t := range conds {
		if t.Attr == c.pk.Name && t.Op == OpEq && t.Type == c.pk.Type {
			pkAt = i
			break
		}
	}
	if pkAt < 0 {
		return Scope{}, -1, nil
	}
	sc := Scope{Table: schema.ID, Index: c.index, PKAttr: c.pk.Name, PKValue: conds[pkAt].Value}
	score := 0
	if c.index == "" {
		score++
	}
	skAt := -1
	if c.sk != nil {
		for i, t := range conds {
			if i != pkAt && t.Attr == c.sk.Name && skUsable(t, *c.sk) {
				skAt = i
				break
			}
		}
	}
	if skAt >= 0 {
		t := conds[skAt]
		sc.SKAttr, sc.SKValue, sc.SKHigh = t.Attr, t.Value, t.High
		sc.SKOp = map[Op]SKOp{OpEq: SKEqual, OpBegins: SKBeginsWith, OpBetween: SKBetween,
			OpLt: SKLess, OpLe: SKAtMost, OpGt: SKGreater, OpGe: SKAtLeast}[t.Op]
		score += 2
	}
	var rest []Term
	for i, t := range conds {
		if i == pkAt || i == skAt {
			continue
		}
		if t.Attr == c.pk.Name || (c.sk != nil && t.Attr == c.sk.Name) {
			where := "the table"
			if c.index != "" {
				where = "index " + c.index
			}
			return Scope{}, -1, fmt.Errorf("%s: %s is a key of %s, which takes one condition on it in a Query (a range: %s=a..b)", t, t.Attr, where, t.Attr)
		}
		rest = append(rest, t)
	}
	if c.index != "" {
		// DynamoDB refuses a filter on an attribute the index does not
		// hold (it would need the base item).
		for _, t := range rest {
			if !projects(schema, c, t.Attr) {
				return Scope{}, -1, fmt.Errorf("%s: index %s does not hold %s, so it cannot filter on it (give %s= to read the table, or :scan %s TERMS…)",
					t, c.index, t.Attr, schema.PK.Name, TableLabel(schema.ID))
			}
		}
	}
	sc.Terms = encodeTerms(rest)
	return sc, score, nil
}

// projects reports whether index candidate c holds attr in its items: its
// own keys, the table's keys, and what its projection copies.
func projects(schema TableSchema, c candidate, attr string) bool {
	ix, _ := schema.Index(c.index)
	switch {
	case ix.Projection.Type == ProjectAll || ix.Projection.Type == "":
		return true
	case attr == c.pk.Name || (c.sk != nil && attr == c.sk.Name) || slices.Contains(schema.KeyNames(), attr):
		return true
	}
	return ix.Projection.Type == ProjectInclude && slices.Contains(ix.Projection.NonKey, attr)
}

// registerIfUnmodeled registers an unmodeled table's schema unless the
// registry already holds this very description.
func registerIfUnmodeled(schema TableSchema) {
	if !IsUnmodeled(schema.ID) {
		return
	}
	if have, ok := describedSchema(schema.ID); ok && sameSchema(have, schema) {
		return
	}
	RegisterSchema(schema)
}

// sameSchema compares what a read takes from a schema: name, keys and
// indexes.
func sameSchema(a, b TableSchema) bool {
	if a.NameTemplate != b.NameTemplate || a.PK != b.PK || (a.SK == nil) != (b.SK == nil) || (a.SK != nil && *a.SK != *b.SK) ||
		len(a.Indexes) != len(b.Indexes) {
		return false
	}
	for i := range a.Indexes {
		x, y := a.Indexes[i], b.Indexes[i]
		if x.Name != y.Name || x.PK != y.PK || x.Local != y.Local || x.Projection.Type != y.Projection.Type ||
			!slices.Equal(x.Projection.NonKey, y.Projection.NonKey) || (x.SK == nil) != (y.SK == nil) || (x.SK != nil && *x.SK != *y.SK) {
			return false
		}
	}
	return true
}

// skUsable reports whether a term can be a Query's sort-key condition.
func skUsable(t Term, sk KeyAttr) bool {
	switch t.Op {
	case OpEq, OpLt, OpLe, OpGt, OpGe, OpBetween:
		return t.Type == sk.Type
	case OpBegins:
		return sk.Type == TypeS || sk.Type == TypeB
	}
	return false
}

func indexNames(schema TableSchema) string {
	if len(schema.Indexes) == 0 {
		return "it has none"
	}
	names := make([]string, len(schema.Indexes))
	for i, ix := range schema.Indexes {
		names[i] = ix.Name
	}
	return "indexes: " + strings.Join(names, ", ")
}

// PlanScan turns terms into the filter of an explicit Scan of schema's
// table (ScanOptions.Where): every term is a filter term, index= is
// refused (a Scan of an index is not offered).
func PlanScan(schema TableSchema, terms []Term) (Scope, error) {
	registerIfUnmodeled(schema)
	sc := Scope{Table: schema.ID}
	var conds []Term
	for _, t := range terms {
		if t.Op == OpIndex {
			return Scope{}, fmt.Errorf("index=%s: a scan reads the table", t.Value)
		}
		rt, err := resolveTerm(schema, t)
		if err != nil {
			return Scope{}, err
		}
		conds = append(conds, rt)
	}
	sc.Terms = encodeTerms(conds)
	return sc, nil
}

// Plan is the read in one line for a title: "Query by-status · status =
// open · filter total > 100", "Scan orders · filter ttl < 1700000000",
// "GetItem orders · PK = a · SK = b". Values are raw tenant data:
// sanitise before display. A string that reads as a number is quoted, as
// it is compared as a string.
func (s Scope) Plan() string {
	var b strings.Builder
	switch {
	case s.PKAttr == "":
		b.WriteString("Scan " + TableLabel(s.Table))
	case s.IsGet():
		b.WriteString("GetItem " + TableLabel(s.Table))
	case s.Index != "":
		b.WriteString("Query " + s.Index)
	default:
		b.WriteString("Query " + TableLabel(s.Table))
	}
	if s.PKAttr != "" {
		b.WriteString(" · " + s.PKAttr + " = " + shown(s.keyType(s.PKAttr), s.PKValue))
	}
	skt := s.keyType(s.SKAttr)
	switch s.SKOp {
	case SKEqual:
		b.WriteString(" · " + s.SKAttr + " = " + shown(skt, s.SKValue))
	case SKBeginsWith:
		b.WriteString(" · " + s.SKAttr + " begins with " + shown(skt, s.SKValue))
	case SKBetween:
		b.WriteString(" · " + s.SKAttr + " between " + shown(skt, s.SKValue) + " and " + shown(skt, s.SKHigh))
	case SKLess, SKAtMost, SKGreater, SKAtLeast:
		b.WriteString(" · " + s.SKAttr + " " + skCmp[s.SKOp] + " " + shown(skt, s.SKValue))
	}
	var filters []string
	for _, c := range s.Filter {
		if c.Attr == "" {
			continue
		}
		ty := TypeS
		if c.Num {
			ty = TypeN
		}
		filters = append(filters, c.Attr+" "+c.opText("begins with", "contains")+" "+shown(ty, c.Value))
	}
	for _, t := range s.FilterTerms() {
		switch t.Op {
		case OpBetween:
			filters = append(filters, t.Attr+" between "+shown(t.Type, t.Value)+" and "+shown(t.Type, t.High))
		case OpBegins:
			filters = append(filters, t.Attr+" begins with "+shown(t.Type, t.Value))
		default:
			filters = append(filters, t.Attr+" "+t.Op.symbol()+" "+shown(t.Type, t.Value))
		}
	}
	if len(filters) > 0 {
		b.WriteString(" · filter " + strings.Join(filters, " and "))
	}
	return b.String()
}

// shown is a value as the plan shows it: quoted when it is a string that
// could be read as a number, or empty.
func shown(t AttrType, v string) string {
	if t != TypeN && (v == "" || looksNumeric(v)) {
		return `"` + v + `"`
	}
	return v
}
