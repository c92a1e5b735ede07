package action

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"opsdeck/data"
	"opsdeck/data/secret"
)

// Executor sends plans to DynamoDB, one conditional UpdateItem each, and
// records every attempt in the audit log. It is safe for concurrent use.
type Executor struct {
	Conn   *data.Conn
	Tables data.Tables
	Audit  *AuditLog // nil: no audit log (tests that don't look at it)
	Env    string
	Now    func() time.Time // nil: time.Now
}

// Result is the outcome of one Execute.
type Result struct {
	Plan Plan
	OK   bool
	// GuardFailed: DynamoDB refused the write because a clause of the guard
	// no longer held. FailedClause is that clause's Text, Failure its kind.
	GuardFailed  bool
	FailedClause string
	Failure      Failure
	// Message is the one line for the status bar, e.g. "not released:
	// already released: status is COMPLETED since 12:04:11, released by
	// alice@box via opsdeck".
	Message string
	// Current is the item now: ALL_NEW after success, ALL_OLD after a guard
	// failure (nil when the item is gone).
	Current data.Item
	Err     error // a failure other than the guard (read-only, network, ...)

	// Attempt is the token this attempt wrote with its change (AttemptAttr).
	Attempt string
	// Recovered is set when the write was applied but its response was
	// lost, and says how that was established: the token was found on the
	// item a failed retry returned, or on the item re-read after an error.
	// OK is then true: the write happened.
	Recovered string
	// Unknown: the request may have reached DynamoDB, and the item could
	// not be read back to tell. Neither success nor failure is claimed.
	Unknown bool

	// What was sent (as of At).
	UpdateExpression    string
	ConditionExpression string
	At                  time.Time

	AuditErr error // the audit line could not be written

	sent *request // the request as sent, for the audit line
}

// Outcome is the audit log's result field: "ok", "ok: <how a lost response
// was recognised>", "guard failed: <clause>", "unknown: <what>" or
// "error: <what>".
func (r Result) Outcome() string {
	switch {
	case r.OK && r.Recovered != "":
		return "ok: " + r.Recovered
	case r.OK:
		return "ok"
	case r.GuardFailed:
		return "guard failed: " + r.FailedClause
	case r.Unknown:
		return "unknown: " + r.Message
	default:
		return "error: " + data.Describe(r.Err)
	}
}

// How a lost response was recognised (Result.Recovered).
const (
	recoveredOnRetry  = "response lost, the retry found this attempt's write on the item"
	recoveredOnReread = "response lost, the item re-read after the error carries this attempt's write"
)

// rereadTimeout bounds the read that settles an ambiguous error. It runs
// even when the caller's context has ended: the operator must learn whether
// the write happened.
const rereadTimeout = 10 * time.Second

func (e *Executor) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Execute performs one plan. It never panics and always returns a Result
// whose Message is ready to show. In read-only mode it refuses before
// building any request (data.ErrReadOnly).
func (e *Executor) Execute(ctx context.Context, p Plan) Result {
	now := e.now()
	res := Result{Plan: p, At: now}
	fail := func(err error) Result {
		res.Err = err
		res.Message = "not " + p.Kind.done() + ": " + data.Describe(err)
		res.AuditErr = e.audit(res)
		return res
	}
	if e.Conn == nil {
		return fail(errors.New("no DynamoDB connection"))
	}
	if err := e.Conn.CheckWrite(); err != nil {
		return fail(err)
	}
	spec, ok := specFor(p.Kind)
	if !ok || len(p.Key) == 0 || len(p.Seen) == 0 || p.Table != p.Kind.Table() {
		return fail(fmt.Errorf("empty or unknown plan (%q); build plans with PlanFor", string(p.Kind)))
	}
	// Rebuild at this instant from the item as seen: the dialog may have
	// been open for minutes, and endedAt or an expiry cutoff must be as of
	// the write, not as of the keypress that opened it. Each attempt gets
	// its own token.
	req, err := buildRequest(p.Kind, spec, p.Seen, now, p.opts.withDefaults(), newAttempt())
	if err != nil {
		return fail(err)
	}
	res.UpdateExpression, res.ConditionExpression = req.update, req.condition
	res.Attempt = req.attempt
	res.sent = &req

	table := e.Tables.Name(p.Table)
	var tries tryLog
	out, err := e.Conn.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           aws.String(table),
		Key:                                 p.Key,
		UpdateExpression:                    aws.String(req.update),
		ConditionExpression:                 aws.String(req.condition),
		ExpressionAttributeNames:            req.names,
		ExpressionAttributeValues:           req.values,
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}, tries.watch)
	var ccf *types.ConditionalCheckFailedException
	switch {
	case err == nil:
		res.OK = true
		res.Current = out.Attributes
		res.Message = fmt.Sprintf("%s %s", p.Kind.done(), clip(p.Target))
	case errors.As(err, &ccf) && carriesAttempt(ccf.Item, req.attempt):
		// The item already carries this attempt's write: an earlier try
		// was applied and its response lost; the SDK's retry then found
		// the guard broken by our own change.
		res.recovered(ccf.Item, recoveredOnRetry)
	case errors.As(err, &ccf):
		res.GuardFailed = true
		res.Current = ccf.Item
		res.FailedClause, res.Failure, res.Message = explainFailure(p.Kind, req.clauses, ccf.Item)
	case !tries.unanswered():
		// Every try was answered with a refusal (throttling, validation,
		// access denied): nothing was applied.
		return fail(&data.OpError{Op: "UpdateItem", Table: table, Endpoint: e.Conn.Target(), Err: err})
	default:
		// A try may have reached DynamoDB without its answer reaching us
		// (a reset or timeout after sending, a 5xx): read the item back
		// and look for this attempt's token before saying anything.
		opErr := &data.OpError{Op: "UpdateItem", Table: table, Endpoint: e.Conn.Target(), Err: err}
		item, readErr := e.reread(ctx, table, p.Key)
		switch {
		case readErr == nil && carriesAttempt(item, req.attempt):
			res.recovered(item, recoveredOnReread)
		case readErr == nil:
			res.Err = opErr
			res.Current = item
			res.Message = "not " + p.Kind.done() + ": " + data.Describe(opErr) + " (the item, read back, does not carry this write)"
		default:
			res.Err = opErr
			res.Unknown = true
			res.Message = fmt.Sprintf("%s %s: outcome unknown: the request may have reached DynamoDB (%s) and the item could not be read back (%s); check the row",
				p.Kind.Title(), clip(p.Target), data.Describe(opErr), data.Describe(readErr))
		}
	}
	res.AuditErr = e.audit(res)
	return res
}

// recovered records a write found applied after its response was lost.
func (r *Result) recovered(item data.Item, how string) {
	r.OK = true
	r.Recovered = how
	r.Current = item
	r.Message = fmt.Sprintf("%s %s (%s)", r.Plan.Kind.done(), clip(r.Plan.Target), how)
}

// tryLog watches each try the SDK makes of one request (the retry loop runs
// them all through the deserialize step) and remembers whether any of them
// went unanswered: no HTTP response at all (the SDK then reports status 0),
// or a 5xx, after which DynamoDB
// may or may not have applied the write. Tries answered with a 4xx were
// refused before anything was applied.
type tryLog struct {
	mu       sync.Mutex
	noAnswer bool
}

func (t *tryLog) unanswered() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.noAnswer
}

// watch is a per-call option of UpdateItem.
func (t *tryLog) watch(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("opsdeckTryLog",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleDeserialize(ctx, in)
				if err != nil {
					if resp, ok := out.RawResponse.(*smithyhttp.Response); !ok || resp == nil || resp.Response == nil || resp.StatusCode < 100 || resp.StatusCode >= 500 {
						t.mu.Lock()
						t.noAnswer = true
						t.mu.Unlock()
					}
				}
				return out, md, err
			}), middleware.Before)
	})
}

// reread reads the item strongly consistently, with its own deadline.
func (e *Executor) reread(ctx context.Context, table string, key data.Item) (data.Item, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rereadTimeout)
	defer cancel()
	out, err := e.Conn.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, &data.OpError{Op: "GetItem", Table: table, Endpoint: e.Conn.Target(), Err: err}
	}
	return out.Item, nil
}

// explainFailure re-evaluates the guard against the item DynamoDB returned
// (ALL_OLD) to name the clause that failed and say what the item holds now.
func explainFailure(k Kind, clauses []Clause, current data.Item) (clause string, why Failure, msg string) {
	prefix := "not " + k.done() + ": "
	if len(current) == 0 {
		text := "the item still exists"
		if len(clauses) > 0 {
			text = clauses[0].Text
		}
		return text, FailGone, prefix + "the item no longer exists"
	}
	if c, ok := firstFailing(clauses, current); ok {
		return c.Text, c.FailureOn(current), prefix + c.Explain(current)
	}
	// Every clause holds on the returned item, so it changed twice: once
	// to fail the check and back again before we read it. Rare, but say so.
	return "", FailChangedSinceSeen, prefix + "the item changed while the write was checked; refresh and try again"
}

func (e *Executor) audit(r Result) error {
	if e.Audit == nil {
		return nil
	}
	p := r.Plan
	op := p.Operator
	if op.User == "" {
		op = CurrentOperator("")
	}
	endpoint, profile := "", op.Profile
	if e.Conn != nil {
		endpoint = e.Conn.Target()
		if profile == "" {
			profile = e.Conn.Profile
		}
	}
	// Log what was sent; a write refused before building logs what was
	// planned, so the line still says what the operator asked for.
	names, values := p.Names, p.Values
	update, cond := p.UpdateExpression, p.ConditionExpression
	if r.sent != nil {
		names, values = r.sent.names, r.sent.values
		update, cond = r.sent.update, r.sent.condition
	}
	var table string
	if p.Table != "" {
		table = e.Tables.Name(p.Table)
	}
	return e.Audit.Append(AuditEntry{
		Time:      r.At.UTC(),
		Operator:  op.User,
		Profile:   profile,
		Env:       e.Env,
		Endpoint:  endpoint,
		Table:     table,
		Key:       plainMap(p.Key),
		Action:    p.Kind,
		Target:    p.Target,
		Update:    update,
		Condition: cond,
		Names:     names,
		Values:    plainMap(maskedValues(values)),
		Result:    r.Outcome(),
		Message:   maskedText(r.Message),
	})
}

// maskedValues are the request's values as the audit log keeps them: a
// credential (by its placeholder's name or by what it is) is never written
// to a file that outlives the session.
func maskedValues(v map[string]types.AttributeValue) map[string]types.AttributeValue {
	out, _ := secret.Item(secret.Default, v)
	return out
}

func maskedText(s string) string {
	out, _ := secret.Text(s)
	return out
}
