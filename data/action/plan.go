package action

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Options tune the actions. The zero value is usable: defaults apply.
type Options struct {
	RetryMax int           // events: retries allowed before giving up (default 3)
	StaleRun time.Duration // runs: how long in UPLOADED or PROCESSING counts as stuck (default 30m)
	// StuckRetry: how old a retrying event must be to count as stuck
	// (default 1h). The event records no time of its status change, so
	// its age is that of its own timestamp.
	StuckRetry time.Duration
	Operator   Operator // who acts (default CurrentOperator(""))
	// FailureReason is written to a run marked failed; empty gives a
	// sentence naming the operator and how long the run was stuck.
	FailureReason string
}

const (
	DefaultRetryMax   = 3
	DefaultStaleRun   = 30 * time.Minute
	DefaultStuckRetry = time.Hour
)

func (o Options) withDefaults() Options {
	if o.RetryMax <= 0 {
		o.RetryMax = DefaultRetryMax
	}
	if o.StaleRun <= 0 {
		o.StaleRun = DefaultStaleRun
	}
	if o.StuckRetry <= 0 {
		o.StuckRetry = DefaultStuckRetry
	}
	if o.Operator.User == "" {
		o.Operator = CurrentOperator(o.Operator.Profile)
	}
	return o
}

// Change is one attribute the action writes, for the confirmation dialog.
type Change struct {
	Attr, Before, After string
}

// Kept: the value stays as it was (a requeue keeps status failed; the
// write may still send it), so it is not a change to show as one.
func (c Change) Kept() bool { return strings.HasPrefix(c.After, c.Before+" (kept") }

// Plan is one action on one item, ready to confirm and execute. It is built
// from the item exactly as the operator saw it; Execute rebuilds the request
// from the same Seen item at the moment of confirmation, so time-dependent
// values (endedAt, an expiry cutoff) are as of then.
type Plan struct {
	Kind   Kind
	Table  data.TableID
	Key    data.Item
	Target string    // human id: session id, event id, sandbox id, run id
	Seen   data.Item // the whole item as the operator saw it (treated as read-only)

	Changes []Change
	Guard   []Clause
	// Then says what the action does after the write (Spec.Then), for the
	// dialog: "" when it does nothing more.
	Then string

	// The request as of PlannedAt, for the dialog, docs and tests. Execute
	// sends the same expressions with values recomputed at its own instant.
	UpdateExpression    string
	ConditionExpression string
	Names               map[string]string
	Values              map[string]types.AttributeValue

	Operator  Operator
	PlannedAt time.Time

	spec *Spec
	opts Options
}

// Spec is the declaration of the plan's action. A Plan not built by PlanFor
// has a placeholder naming its Kind.
func (p Plan) Spec() Spec {
	if p.spec != nil {
		return *p.spec
	}
	return Spec{Kind: p.Kind, Title: string(p.Kind), Verb: string(p.Kind), Done: "done"}
}

// NotApplicableError says why an action cannot apply to an item.
type NotApplicableError struct {
	Kind   Kind
	Reason string
}

func (e *NotApplicableError) Error() string { return e.Reason }

func notApplicable(k Kind, format string, args ...any) error {
	return &NotApplicableError{Kind: k, Reason: fmt.Sprintf(format, args...)}
}

// PlanFor builds the plan of an action on an item as the operator saw it at
// now. The error (a *NotApplicableError) says in plain words why the action
// does not apply, e.g. "only RUNNING sessions can be released; this one is
// COMPLETED".
func PlanFor(kind Kind, seen data.Item, now time.Time, opts Options) (Plan, error) {
	spec := specOf(kind)
	if spec == nil {
		return Plan{}, notApplicable(kind, "unknown action %q", string(kind))
	}
	return plan(spec, seen, now, opts)
}

// PlanFirst plans the first of kinds that applies to the item (the actions
// that share a key); when none does, it returns the first one's error,
// which says why.
func PlanFirst(kinds []Kind, seen data.Item, now time.Time, opts Options) (Plan, error) {
	var first error
	for _, k := range kinds {
		p, err := PlanFor(k, seen, now, opts)
		if err == nil {
			return p, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = notApplicable("", "no action to plan")
	}
	return Plan{}, first
}

func plan(spec *Spec, seen data.Item, now time.Time, opts Options) (Plan, error) {
	kind := spec.Kind
	if len(seen) == 0 {
		return Plan{}, notApplicable(kind, "no item selected")
	}
	opts = opts.withDefaults()
	key, err := keyOf(spec.Table, seen)
	if err != nil {
		return Plan{}, notApplicable(kind, "%v", err)
	}
	if err := spec.check(seen, now, opts); err != nil {
		return Plan{}, notApplicable(kind, "%v", err)
	}
	req, err := buildRequest(spec, seen, now, opts, newAttempt())
	if err != nil {
		return Plan{}, err
	}
	// Belt and braces: the guard must hold on the item as seen, or the
	// write could never succeed. This catches what check's wording misses
	// (a number stored as a string, say) with the clause's own explanation.
	for _, c := range req.clauses {
		if !c.Holds(seen) {
			return Plan{}, notApplicable(kind, "%s: %s", c.Text, c.Explain(seen))
		}
	}
	var then string
	if spec.Then != nil {
		then = spec.Then.Title
		if spec.Then.Describe != nil {
			then += ": " + spec.Then.Describe(seen, opts)
		}
	}
	return Plan{
		Kind:                kind,
		Table:               spec.Table,
		Key:                 key,
		Target:              spec.target(seen),
		Seen:                seen,
		Changes:             req.changes,
		Guard:               req.clauses,
		Then:                then,
		UpdateExpression:    req.update,
		ConditionExpression: req.condition,
		Names:               req.names,
		Values:              req.values,
		Operator:            opts.Operator,
		PlannedAt:           now,
		spec:                spec,
		opts:                opts,
	}, nil
}

// buildRequest builds the request of one attempt: the action's own guard
// and sets, plus the attempt's token (AttemptAttr), which is what lets
// Execute recognise its own write when a response is lost.
func buildRequest(spec *Spec, seen data.Item, now time.Time, opts Options, attempt string) (request, error) {
	b := newExprBuilder()
	clauses, sets, changes, err := spec.build(b, seen, now, opts)
	if err != nil {
		return request{}, notApplicable(spec.Kind, "%v", err)
	}
	sets = append(sets, setOp{AttemptAttr, b.value("attempt", sv(attempt))})
	changes = append(changes, Change{AttemptAttr, show(seen[AttemptAttr]), "new id for this attempt"})
	req := b.finish(clauses, sets, changes)
	req.attempt = attempt
	return req, nil
}

// Available lists the actions that apply to an item of a table as seen at
// now. Delegations, subscriptions and consumers never have any
// (NoActionReason).
func Available(table data.TableID, seen data.Item, now time.Time, opts Options) []Kind {
	var out []Kind
	for i := range specs {
		if specs[i].Table != table {
			continue
		}
		if _, err := plan(&specs[i], seen, now, opts); err == nil {
			out = append(out, specs[i].Kind)
		}
	}
	return out
}

// keyOf copies the primary key from the item, refusing an item that lacks
// part of it: an UpdateItem with a partial key cannot address anything.
func keyOf(table data.TableID, seen data.Item) (data.Item, error) {
	s, ok := data.Schema(table)
	if !ok {
		return nil, fmt.Errorf("unknown table %q", table)
	}
	key := data.KeyOf(table, seen)
	for _, ka := range s.KeyNames() {
		if key[ka] == nil {
			return nil, fmt.Errorf("the item has no %s (part of the table's key), so it cannot be addressed", ka)
		}
	}
	for _, ka := range []*data.KeyAttr{&s.PK, s.SK} {
		if ka == nil {
			continue
		}
		if got := data.TypeName(key[ka.Name]); got != string(ka.Type) {
			return nil, fmt.Errorf("the item's %s is %s, but the table's key type is %s", ka.Name, got, ka.Type)
		}
	}
	return key, nil
}

// firstFailing returns the first clause that does not hold on item.
func firstFailing(clauses []Clause, item data.Item) (Clause, bool) {
	for _, c := range clauses {
		if !c.Holds(item) {
			return c, true
		}
	}
	return Clause{}, false
}

// requireScalar refuses to pin an attribute whose seen value is a list, map
// or set: a malformed item is shown, not written to.
func requireScalar(seen data.Item, attrs ...string) error {
	for _, a := range attrs {
		if v, ok := seen[a]; ok && v != nil && !pinnable(v) {
			return fmt.Errorf("%s holds a %s where a single value belongs; fix the item by hand", a, data.TypeName(v))
		}
	}
	return nil
}
