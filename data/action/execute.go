package action

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
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
	// Flights, when set, keeps each write from its sending to its last
	// audit line, so that a console quitting can wait for it or abandon
	// it on record (Flights.Abandon).
	Flights *Flights
}

// Result is the outcome of one Execute.
type Result struct {
	Plan Plan
	OK   bool
	// Refusal is set when DynamoDB refused the write because a clause of
	// the guard no longer held: which one, and what the item holds now.
	Refusal *Refusal
	// Message is the one line for the status bar, e.g. "not released:
	// already released: status is COMPLETED since 12:04:11, released by
	// alice@box via opsdeck".
	Message string
	// Current is the item now: ALL_NEW after success, ALL_OLD after a guard
	// failure (nil when the item is gone), the item read back after an
	// unanswered request.
	Current data.Item
	Err     error // a failure other than the guard (read-only, network, ...)

	// Attempt is the token this attempt wrote with its change (AttemptAttr).
	Attempt string
	// Recovered is set when the write was applied but its response was
	// lost, and says how that was established: the token was found on the
	// item a failed retry returned, or on the item re-read after an error.
	// OK is then true: the write happened.
	Recovered string
	// Unknown: the request may have reached DynamoDB and whether it was
	// applied cannot be said for good. Either the item could not be read
	// back, or it was read back (at ReadBackAt) without this write while a
	// try that went unanswered could still land. Neither success nor
	// failure is claimed.
	Unknown    bool
	ReadBackAt time.Time

	// Then is the outcome of the action's step after the write (Spec.Then);
	// nil when the action has none or the write did not happen.
	Then *StepResult

	// What was sent (as of At).
	UpdateExpression    string
	ConditionExpression string
	At                  time.Time

	AuditErr error // an audit line could not be written

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
	case r.Refusal != nil:
		return "guard failed: " + r.Refusal.Clause
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
	// recoveredUnreadable: an answer came (a 2xx, or an error DynamoDB
	// did not name) but could not be read: cut short, garbled by a proxy.
	recoveredUnreadable = "answer unreadable (HTTP %d), the item re-read after the error carries this attempt's write"
)

// rereadTimeout bounds the read that settles an ambiguous error. It runs
// even when the caller's context has ended: the operator must learn whether
// the write happened. stepTimeout bounds a step after the write, for the
// same reason: the write it follows has happened.
const (
	rereadTimeout = 10 * time.Second
	stepTimeout   = 30 * time.Second
)

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
	spec := p.Spec()
	fail := func(err error) Result {
		res.Err = err
		res.Message = spec.NotDone(data.Describe(err))
		res.AuditErr = e.audit(res)
		return res
	}
	if e.Conn == nil {
		return fail(errors.New("no DynamoDB connection"))
	}
	if err := e.Conn.CheckWrite(); err != nil {
		return fail(err)
	}
	if p.spec == nil || len(p.Key) == 0 || len(p.Seen) == 0 || p.Table != p.spec.Table {
		return fail(fmt.Errorf("empty or unknown plan (%q); build plans with PlanFor", string(p.Kind)))
	}
	// Rebuild at this instant from the item as seen: the dialog may have
	// been open for minutes, and endedAt or an expiry cutoff must be as of
	// the write, not as of the keypress that opened it. Each attempt gets
	// its own token.
	req, err := buildRequest(p.spec, p.Seen, now, p.opts.withDefaults(), newAttempt())
	if err != nil {
		return fail(err)
	}
	res.UpdateExpression, res.ConditionExpression = req.update, req.condition
	res.Attempt = req.attempt
	res.sent = &req
	wrote, done, err := e.Flights.start(e, res)
	if err != nil {
		return fail(err)
	}
	defer done()

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
		res.Message = fmt.Sprintf("%s %s", spec.Done, clip(p.Target))
	case errors.As(err, &ccf) && carriesAttempt(ccf.Item, req.attempt):
		// The item already carries this attempt's write: an earlier try
		// was applied and its response lost; the SDK's retry then found
		// the guard broken by our own change.
		res.recovered(ccf.Item, recoveredOnRetry)
	case errors.As(err, &ccf):
		res.Refusal = refusal(spec, req.clauses, ccf.Item)
		res.Current = ccf.Item
		res.Message = res.Refusal.Error()
	case !tries.unanswered():
		// Every try was answered with a clean refusal (throttling,
		// validation, access denied: a 4xx whose error DynamoDB named) or
		// never left (no connection): nothing was applied.
		return fail(&data.OpError{Op: "UpdateItem", Table: table, Endpoint: e.Conn.Target(), Err: err})
	default:
		// A try may have reached DynamoDB without a readable answer
		// reaching us (a reset or timeout after sending, a 5xx, a 2xx
		// cut short or garbled on the way): read the item back and look
		// for this attempt's token before saying anything.
		opErr := &data.OpError{Op: "UpdateItem", Table: table, Endpoint: e.Conn.Target(), Err: err}
		item, readErr := e.reread(ctx, table, p.Key)
		res.Err = opErr
		res.Unknown = true
		switch {
		case readErr == nil && carriesAttempt(item, req.attempt):
			res.Err, res.Unknown = nil, false
			how := recoveredOnReread
			if code := tries.unreadableStatus(); code != 0 {
				how = fmt.Sprintf(recoveredUnreadable, code)
			}
			res.recovered(item, how)
		case readErr == nil:
			// Not applied as of the read; but the unanswered try may
			// still be on its way, and its guard holds on this item as
			// well as it did on the one the operator saw.
			res.Current = item
			res.ReadBackAt = e.now()
			res.Message = fmt.Sprintf("not %s as read back at %s — the unanswered request could still land; check the row (%s)",
				spec.Done, showTime(res.ReadBackAt, now), data.Describe(opErr))
		default:
			res.Message = fmt.Sprintf("%s %s: outcome unknown: the request may have reached DynamoDB (%s) and the item could not be read back (%s); check the row",
				spec.Title, clip(p.Target), data.Describe(opErr), data.Describe(readErr))
		}
	}
	res.AuditErr = e.audit(res)
	wrote()
	if res.OK && p.spec.Then != nil {
		res.Then = e.then(ctx, p, res.Current)
		if err := e.auditStep(res); res.AuditErr == nil {
			res.AuditErr = err
		}
	}
	return res
}

// recovered records a write found applied after its response was lost.
func (r *Result) recovered(item data.Item, how string) {
	r.OK = true
	r.Recovered = how
	r.Current = item
	r.Message = fmt.Sprintf("%s %s (%s)", r.Plan.Spec().Done, clip(r.Plan.Target), how)
}

// then runs the action's step after its write, with its own deadline.
func (e *Executor) then(ctx context.Context, p Plan, written data.Item) *StepResult {
	step := p.spec.Then
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stepTimeout)
	defer cancel()
	r := step.Run(ctx, e.Conn, p, written)
	r.Step = step.Name
	return &r
}

// tryLog watches each try the SDK makes of one request (the retry loop runs
// them all through the deserialize step) and remembers whether any of them
// may have been applied without a readable answer saying so: no HTTP
// response at all (the SDK then reports status 0), a 5xx, after which
// DynamoDB may or may not have applied the write, or an answer that could
// not be read — a 2xx cut short or garbled on the way (the write was
// applied), or an error DynamoDB did not name (a proxy's page). Only a
// clean refusal — a 4xx carrying DynamoDB's error code (throttling,
// validation, access denied, a failed condition) — says nothing was
// applied; so does a try that could not connect (a dial error), which
// never left.
type tryLog struct {
	mu         sync.Mutex
	noAnswer   bool
	unreadable int // the status of the last try answered unreadably (0: none)
}

func (t *tryLog) unanswered() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.noAnswer
}

func (t *tryLog) unreadableStatus() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.unreadable
}

// watch is a per-call option of UpdateItem.
func (t *tryLog) watch(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
		return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("opsdeckTryLog",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleDeserialize(ctx, in)
				if err != nil && !neverSent(err) {
					t.record(out.RawResponse, err)
				}
				return out, md, err
			}), middleware.Before)
	})
}

// record files one failed try.
func (t *tryLog) record(raw any, err error) {
	resp, ok := raw.(*smithyhttp.Response)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !ok || resp == nil || resp.Response == nil || resp.StatusCode < 100 || resp.StatusCode >= 500:
		t.noAnswer = true
	case resp.StatusCode >= 400 && cleanRefusal(err):
		// Refused before anything was applied.
	default:
		t.noAnswer = true
		t.unreadable = resp.StatusCode
	}
}

// cleanRefusal reports whether err is an error DynamoDB named, read whole
// from its answer: only then does a 4xx say the write was not applied.
func cleanRefusal(err error) bool {
	var de *smithy.DeserializationError
	if errors.As(err, &de) {
		return false
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	code := ae.ErrorCode()
	return code != "" && code != "UnknownError"
}

// neverSent reports whether a try failed before a connection was made, so
// the request cannot have reached DynamoDB.
func neverSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
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

// audit appends the write's line: what was sent, and its outcome.
func (e *Executor) audit(r Result) error {
	if e.Audit == nil {
		return nil
	}
	p := r.Plan
	// Log what was sent; a write refused before building logs what was
	// planned, so the line still says what the operator asked for.
	names, values := p.Names, p.Values
	update, cond := p.UpdateExpression, p.ConditionExpression
	if r.sent != nil {
		names, values = r.sent.names, r.sent.values
		update, cond = r.sent.update, r.sent.condition
	}
	line := e.auditEntry(r)
	line.Update, line.Condition = update, cond
	line.Names, line.Values = names, plainMap(maskedValues(values))
	line.Result, line.Message = r.Outcome(), maskedText(r.Message)
	return e.Audit.Append(line)
}

// auditStep appends the line of the step after the write (r.Then): its own
// result and what it sent, under the same action, target and key.
func (e *Executor) auditStep(r Result) error {
	if e.Audit == nil || r.Then == nil {
		return nil
	}
	t := r.Then
	line := e.auditEntry(r)
	line.Time = e.now().UTC()
	line.Step = t.Step
	line.Result = "ok"
	if !t.OK {
		line.Result = "error: " + data.Describe(t.Err)
	}
	line.Message = maskedText(t.Message)
	if len(t.Sent) > 0 {
		line.Values = map[string]any{}
		for k, v := range t.Sent {
			line.Values[k] = maskedText(v)
		}
	}
	return e.Audit.Append(line)
}

// auditEntry is what every line of one Execute shares: when, who, where,
// and which item.
func (e *Executor) auditEntry(r Result) AuditEntry {
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
	var table string
	if p.Table != "" {
		table = e.Tables.Name(p.Table)
	}
	return AuditEntry{
		Time:     r.At.UTC(),
		Operator: op.User,
		Profile:  profile,
		Env:      e.Env,
		Endpoint: endpoint,
		Table:    table,
		Key:      plainMap(p.Key),
		Action:   p.Kind,
		Target:   p.Target,
	}
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
