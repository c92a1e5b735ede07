package data

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// S is a string AttributeValue.
func S(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// N is a whole-number AttributeValue.
func N(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// Expr builds the placeholder maps of one DynamoDB expression. Every
// attribute name goes through ExpressionAttributeNames, without exception:
// that is simpler than knowing the 573 reserved words, and it is the only way
// to name attributes such as `timestamp#event_id` at all.
//
//	var e data.Expr
//	cond := e.Name("status") + " = " + e.Value(data.S("allocated"))
//	in.ExpressionAttributeNames, in.ExpressionAttributeValues = e.Names(), e.Values()
type Expr struct {
	names  map[string]string // placeholder → name
	byName map[string]string // name → placeholder, so a name is aliased once
	values map[string]types.AttributeValue
}

// Name returns the placeholder (#n0, #n1, ...) for an attribute name.
func (e *Expr) Name(name string) string {
	if p, ok := e.byName[name]; ok {
		return p
	}
	if e.names == nil {
		e.names, e.byName = map[string]string{}, map[string]string{}
	}
	p := "#n" + strconv.Itoa(len(e.names))
	e.names[p] = name
	e.byName[name] = p
	return p
}

// Value returns a fresh placeholder (:v0, :v1, ...) bound to v.
func (e *Expr) Value(v types.AttributeValue) string {
	if e.values == nil {
		e.values = map[string]types.AttributeValue{}
	}
	p := ":v" + strconv.Itoa(len(e.values))
	e.values[p] = v
	return p
}

// Projection returns a ProjectionExpression naming the given attributes.
func (e *Expr) Projection(names ...string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = e.Name(n)
	}
	return strings.Join(parts, ", ")
}

// Names is the ExpressionAttributeNames map (nil when empty, as the API
// rejects an empty map).
func (e *Expr) Names() map[string]string {
	if len(e.names) == 0 {
		return nil
	}
	return e.names
}

// Values is the ExpressionAttributeValues map (nil when empty).
func (e *Expr) Values() map[string]types.AttributeValue {
	if len(e.values) == 0 {
		return nil
	}
	return e.values
}
