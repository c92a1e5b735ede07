package stream

import (
	"context"
	"strings"
)

// A denied stream falls back to polling. When the policy refuses the
// stream reads of a table (DescribeTable, DescribeStream,
// GetShardIterator or GetRecords answered with AccessDeniedException) the
// table cannot be tailed, but its rows can still be queried: its health
// becomes "polling" (NotAllowed set, Detail naming the refused action and
// resource) and the console re-queries what it shows of it, as for a table
// without a stream. The other tables keep streaming. The reads are tried
// again on the reader's re-check backoff (RecheckMin … RecheckMax): a
// fixed policy brings the table back to live without a restart.

// deniedError is a read refused for permission, as a shard reader ends
// with it: which call.
type deniedError struct {
	op  string // "GetRecords", "GetShardIterator"
	err error
}

func (e *deniedError) Error() string { return e.op + ": " + e.err.Error() }
func (e *deniedError) Unwrap() error { return e.err }

// isDenied: the call was refused for want of a permission.
func isDenied(ctx context.Context, err error) bool { return classify(ctx, err) == faultDenied }

// denied stops the table's reader for polling, saying which read was
// refused: "stream not allowed: dynamodbstreams:GetRecords on
// table/T/stream/2026-…; polling".
func (r *tableReader) denied(op string, err error) { r.deniedOn(op, r.arn, err) }

// deniedOn is denied for a stream not (yet) the reader's own: a stream
// seen for the first time is not adopted while it cannot be read, so that
// once it can, it is read from LATEST like any first look.
func (r *tableReader) deniedOn(op, arn string, err error) {
	action := "dynamodbstreams:" + op
	resource := "table/" + r.name
	if op == "DescribeTable" {
		action = "dynamodb:" + op
	} else if res := arnResource(arn); res != "" {
		resource = res
	}
	r.logf("%s not allowed: %s", op, describeErr(err))
	r.health.stop(Health{State: StatePolling, NotAllowed: true,
		Detail: "stream not allowed: " + action + " on " + resource + "; polling"})
}

// arnResource is the resource part of an ARN (after its fifth colon; the
// stream label keeps its own colons). "" for no ARN.
func arnResource(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return ""
	}
	return parts[5]
}
