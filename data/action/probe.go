package action

import (
	"context"
	"errors"
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// The permission probe: before the operator confirms, find out whether
// DynamoDB would let the write through, without writing. It sends the
// plan's own UpdateItem — same table, same key, same UpdateExpression, so
// the same IAM action, resource and (for fine-grained policies) the same
// attributes and leading key — with a condition that can never hold:
//
//	attribute_not_exists(#opsdeckProbeKey) AND attribute_exists(#opsdeckProbeKey)
//
// DynamoDB authorizes a request before it evaluates its condition, so the
// answer says which: AccessDeniedException (the write would be refused) or
// ConditionalCheckFailedException (it would be allowed). A failed condition
// changes nothing and writes no stream record (docs/ACTIONS.md; the test
// holds both against DynamoDB Local). It costs one write unit, like any
// refused conditional write. No ReturnValuesOnConditionCheckFailure: the
// probe needs nothing of the item.

// ProbeCondition is the probe's condition (docs/ACTIONS.md quotes it).
const ProbeCondition = "attribute_not_exists(#opsdeckProbeKey) AND attribute_exists(#opsdeckProbeKey)"

const probeKeyName = "#opsdeckProbeKey"

// Permission is what a probe found.
type Permission struct {
	// Known: DynamoDB answered in a way that says; Allowed is then the
	// answer. Not known: the probe could not tell (Err says why), and
	// nothing is claimed either way.
	Known   bool
	Allowed bool
	// Denied is the line naming the refused action and resource
	// ("not allowed: dynamodb:UpdateItem on table/X (AccessDeniedException: …)").
	Denied string
	Err    error
}

// placeholderRE finds the name (#x) and value (:x) placeholders of an
// expression, so the probe sends only those its update uses: DynamoDB
// rejects a request with a name or value no expression uses.
var placeholderRE = regexp.MustCompile(`[#:][A-Za-z0-9_]+`)

// ProbeWrite asks DynamoDB whether the plan's write would be authorized,
// as described above. It never writes: a connection in read-only mode
// sends nothing (Err is data.ErrReadOnly).
func ProbeWrite(ctx context.Context, conn *data.Conn, tables data.Tables, p Plan, now time.Time) Permission {
	if conn == nil || conn.DB == nil {
		return Permission{Err: errors.New("no DynamoDB connection")}
	}
	if err := conn.CheckWrite(); err != nil {
		return Permission{Err: err}
	}
	if p.spec == nil || len(p.Key) == 0 || len(p.Seen) == 0 {
		return Permission{Err: errors.New("empty plan")}
	}
	s, ok := data.Schema(p.Table)
	if !ok {
		return Permission{Err: errors.New("unknown table " + string(p.Table))}
	}
	req, err := buildRequest(p.spec, p.Seen, now, p.opts.withDefaults(), newAttempt())
	if err != nil {
		return Permission{Err: err}
	}
	names := map[string]string{probeKeyName: s.PK.Name}
	values := map[string]types.AttributeValue{}
	for _, ph := range placeholderRE.FindAllString(req.update, -1) {
		if n, ok := req.names[ph]; ok {
			names[ph] = n
		}
		if v, ok := req.values[ph]; ok {
			values[ph] = v
		}
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                aws.String(tables.Name(p.Table)),
		Key:                      p.Key,
		UpdateExpression:         aws.String(req.update),
		ConditionExpression:      aws.String(ProbeCondition),
		ExpressionAttributeNames: names,
	}
	if len(values) > 0 {
		in.ExpressionAttributeValues = values
	}
	_, err = conn.DB.UpdateItem(ctx, in)
	var ccf *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &ccf), data.IsConditionFailed(err):
		return Permission{Known: true, Allowed: true}
	case err == nil:
		// The condition cannot hold; an answer without error means
		// something between here and DynamoDB is not DynamoDB. The write
		// was authorized, at least.
		return Permission{Known: true, Allowed: true}
	}
	opErr := &data.OpError{Op: "UpdateItem", Table: tables.Name(p.Table), Endpoint: conn.Target(), Err: err}
	if data.IsNotAuthorized(err) {
		return Permission{Known: true, Denied: data.Describe(opErr), Err: opErr}
	}
	return Permission{Err: opErr}
}
