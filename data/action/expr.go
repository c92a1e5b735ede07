package action

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Failure says why a guard clause does not hold, in terms the UI can act on
// (colour, wording) without parsing messages.
type Failure string

const (
	// FailGone: the item no longer exists.
	FailGone Failure = "gone"
	// FailAlreadyDone: the item already is where the action would take it
	// (someone else released / retried / marked it first).
	FailAlreadyDone Failure = "already-done"
	// FailWrongState: the item moved to a state the action does not apply to.
	FailWrongState Failure = "wrong-state"
	// FailChangedSinceSeen: an attribute the action depends on differs from
	// what the operator saw.
	FailChangedSinceSeen Failure = "changed-since-seen"
	// FailDifferentOwner: a sandbox is now allocated to another track.
	FailDifferentOwner Failure = "different-owner"
	// FailExpired: a sandbox's allocation has run past its lab duration.
	FailExpired Failure = "allocation-expired"
	// FailRetriesExhausted: an event has used up its retries.
	FailRetriesExhausted Failure = "retries-exhausted"
	// FailNotStale: a run was updated too recently to be called stuck.
	FailNotStale Failure = "not-stale"
	// FailNotExpired: a sandbox's allocation is still within its window.
	FailNotExpired Failure = "not-expired"
)

// Clause is one conjunct of a guard. Text is the plain-words form the
// confirmation dialog shows; Expr is the exact DynamoDB fragment (using the
// plan's ExpressionAttributeNames and Values). Seen marks clauses that pin a
// value the operator saw, as opposed to business rules.
type Clause struct {
	Text string
	Expr string
	Seen bool
	Why  Failure
	// Attr and Value, for a value pinned as seen: the attribute and what
	// it held ("absent" when it had none), so the dialog can list the
	// pins together instead of as sentences that echo the business rule.
	Attr, Value string

	holds    func(item data.Item) bool
	explain  func(item data.Item) string  // what the item holds now, for a failure message
	classify func(item data.Item) Failure // refines Why from the item now (optional)
}

// FailureOn is why the clause fails on item: Why, refined by what the item
// holds (a session found COMPLETED was "already done", one found ERROR was not).
func (c Clause) FailureOn(item data.Item) Failure {
	if len(item) == 0 {
		return FailGone
	}
	if c.classify != nil {
		return c.classify(item)
	}
	return c.Why
}

// alreadyDoneWhenStatus is the classify of a status guard whose action moves
// the item to status done: finding it there means someone else already did
// it (FailAlreadyDone); any other status is FailWrongState.
func alreadyDoneWhenStatus(done string) func(data.Item) Failure {
	return func(it data.Item) Failure {
		if s, _ := str(it, "status"); s == done {
			return FailAlreadyDone
		}
		return FailWrongState
	}
}

// Holds evaluates the clause against an item, with DynamoDB's semantics.
func (c Clause) Holds(item data.Item) bool {
	if c.holds == nil {
		return true
	}
	return c.holds(item)
}

// Explain says, in words, what the item holds now as far as this clause is
// concerned ("status is COMPLETED since 12:04:11").
func (c Clause) Explain(item data.Item) string {
	if c.explain == nil {
		return c.Text + " no longer holds"
	}
	return c.explain(item)
}

// exprBuilder hands out placeholders so every attribute name goes through
// ExpressionAttributeNames (reserved words like "status", and names with "#"
// such as "status#timestamp", need it) and every value through Values.
type exprBuilder struct {
	names  map[string]string // "#status" → "status"
	byAttr map[string]string // "status" → "#status"
	values map[string]types.AttributeValue
}

func newExprBuilder() *exprBuilder {
	return &exprBuilder{names: map[string]string{}, byAttr: map[string]string{}, values: map[string]types.AttributeValue{}}
}

// name returns the placeholder for an attribute name: "#" plus the name's
// letters and digits, so the expression stays readable in docs and the audit
// log ("status#timestamp" → "#status_timestamp").
func (b *exprBuilder) name(attr string) string {
	if p, ok := b.byAttr[attr]; ok {
		return p
	}
	base := "#" + token(attr)
	p := base
	for i := 2; ; i++ {
		if _, taken := b.names[p]; !taken {
			break
		}
		p = fmt.Sprintf("%s%d", base, i)
	}
	b.names[p] = attr
	b.byAttr[attr] = p
	return p
}

// value registers a value under ":label" and returns the placeholder.
// Labels are chosen by the action code and are unique within a plan.
func (b *exprBuilder) value(label string, v types.AttributeValue) string {
	p := ":" + token(label)
	if _, dup := b.values[p]; dup {
		panic("action: duplicate value placeholder " + p) // a programming error in this package
	}
	b.values[p] = v
	return p
}

func token(s string) string {
	var t strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			t.WriteRune(r)
		default:
			t.WriteByte('_')
		}
	}
	if t.Len() == 0 {
		return "a"
	}
	return t.String()
}

// ---- clause constructors: each builds the expression and its Go twin ----

func (b *exprBuilder) exists(attr, text string, why Failure) Clause {
	return Clause{
		Text:    text,
		Expr:    fmt.Sprintf("attribute_exists(%s)", b.name(attr)),
		Why:     why,
		holds:   func(it data.Item) bool { return it[attr] != nil },
		explain: func(data.Item) string { return "the item no longer exists" },
	}
}

func (b *exprBuilder) eq(attr, label string, v types.AttributeValue, text string, why Failure) Clause {
	return Clause{
		Text:  text,
		Expr:  fmt.Sprintf("%s = %s", b.name(attr), b.value(label, v)),
		Why:   why,
		holds: func(it data.Item) bool { return avEqual(it[attr], v) },
	}
}

func (b *exprBuilder) in(attr, label string, vs []string, text string, why Failure) Clause {
	ph := make([]string, len(vs))
	for i, v := range vs {
		ph[i] = b.value(fmt.Sprintf("%s%d", label, i), sv(v))
	}
	return Clause{
		Text: text,
		Expr: fmt.Sprintf("%s IN (%s)", b.name(attr), strings.Join(ph, ", ")),
		Why:  why,
		holds: func(it data.Item) bool {
			for _, v := range vs {
				if avEqual(it[attr], sv(v)) {
					return true
				}
			}
			return false
		},
	}
}

// cmp builds "attr <op> :v" for op one of <, <=, >, >=.
func (b *exprBuilder) cmp(attr, op, label string, v types.AttributeValue, text string, why Failure) Clause {
	return Clause{
		Text: text,
		Expr: fmt.Sprintf("%s %s %s", b.name(attr), op, b.value(label, v)),
		Why:  why,
		holds: func(it data.Item) bool {
			c, ok := avCompare(it[attr], v)
			if !ok {
				return false
			}
			switch op {
			case "<":
				return c < 0
			case "<=":
				return c <= 0
			case ">":
				return c > 0
			case ">=":
				return c >= 0
			}
			panic("action: unknown comparison " + op) // a programming error in this package
		},
	}
}

// pin is the optimistic-concurrency clause: the attribute still holds
// exactly the AttributeValue the operator saw (same type, same value), or is
// still absent when it was absent.
func (b *exprBuilder) pin(seen data.Item, attr string) Clause {
	old, present := seen[attr]
	if !present || old == nil {
		return Clause{
			Attr: attr, Value: "absent",
			Text:  attr + " is still absent, as seen",
			Expr:  fmt.Sprintf("attribute_not_exists(%s)", b.name(attr)),
			Seen:  true,
			Why:   FailChangedSinceSeen,
			holds: func(it data.Item) bool { return it[attr] == nil },
			explain: func(it data.Item) string {
				return fmt.Sprintf("changed since seen: %s was absent, is now %s", attr, show(it[attr]))
			},
		}
	}
	c := b.eq(attr, "seen_"+attr, old, fmt.Sprintf("%s is still %s, as seen", attr, show(old)), FailChangedSinceSeen)
	c.Seen, c.Attr, c.Value = true, attr, show(old)
	c.explain = func(it data.Item) string {
		was, now := show(old), show(it[attr])
		if was == now { // same text, different type (N 5 vs S "5"): say which
			was, now = data.TypeName(old)+" "+was, data.TypeName(it[attr])+" "+now
		}
		return fmt.Sprintf("changed since seen: %s was %s, is now %s", attr, was, now)
	}
	return c
}

// setOp is one "name = value-expression" of the UpdateExpression.
type setOp struct {
	attr string
	expr string // right-hand side, using placeholders
}

// request is everything one UpdateItem needs, built from a plan at a given
// instant (time-dependent values, such as an expiry cutoff, are filled then).
type request struct {
	clauses   []Clause
	changes   []Change
	update    string
	condition string
	names     map[string]string
	values    map[string]types.AttributeValue
	attempt   string // the token written to AttemptAttr
}

// finish renders the expressions. Names are registered while rendering, so
// the maps are taken only afterwards.
func (b *exprBuilder) finish(clauses []Clause, sets []setOp, changes []Change) request {
	cond := make([]string, len(clauses))
	for i, c := range clauses {
		cond[i] = c.Expr
	}
	upd := make([]string, len(sets))
	for i, s := range sets {
		upd[i] = b.name(s.attr) + " = " + s.expr
	}
	return request{
		clauses:   clauses,
		changes:   changes,
		update:    "SET " + strings.Join(upd, ", "),
		condition: strings.Join(cond, " AND "),
		names:     b.names,
		values:    b.values,
	}
}
