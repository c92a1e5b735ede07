package stream

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// Which stream a table has: DescribeTable names it (or none: "polling"; the
// table gone: "off"), and the reader notices when that changes under it — a
// table deleted, a stream disabled, or a stream replaced by a new one,
// which is reported as a gap flagged Replaced (replacedBy).

// currentStream reads DescribeTable. ok=false means stop (terminal health
// already reported, or ctx ended); retry=true means a transient failure.
func (r *tableReader) currentStream(ctx context.Context) (arn string, ok, retry bool) {
	out, err := r.t.describeTable(ctx, r.name)
	if err != nil {
		switch classify(ctx, err) {
		case faultCanceled:
			return "", false, false
		case faultNotFound:
			r.health.stopped(StateOff, fmt.Sprintf("table %s does not exist", r.name))
			return "", false, false
		case faultDenied:
			r.denied("DescribeTable", err)
			return "", false, false
		}
		r.health.failed("", opDetail("DescribeTable", err))
		r.logf("describe table: %v", err)
		return "", true, true
	}
	tbl := out.Table
	if tbl == nil || tbl.TableStatus == ddbtypes.TableStatusDeleting {
		r.health.stopped(StateOff, fmt.Sprintf("table %s is being deleted", r.name))
		return "", false, false
	}
	spec := tbl.StreamSpecification
	if spec == nil || !aws.ToBool(spec.StreamEnabled) || aws.ToString(tbl.LatestStreamArn) == "" {
		if r.arn == "" {
			r.health.stopped(StatePolling, fmt.Sprintf("%s has no stream: re-querying instead", r.name))
		} else {
			r.health.stopped(StateOff, fmt.Sprintf("the stream of %s was disabled", r.name))
		}
		return "", false, false
	}
	return aws.ToString(tbl.LatestStreamArn), true, false
}

func streamEnded(s st.StreamStatus) bool {
	return s == st.StreamStatusDisabled || s == st.StreamStatusDisabling
}

// streamGone runs when our stream ended or vanished: it tells a deleted
// table or disabled stream ("off") from a replaced stream (disabled and
// enabled again: read the new one from its start). false: stop.
func (r *tableReader) streamGone(ctx context.Context) bool {
	arn, ok, retry := r.currentStream(ctx)
	if !ok {
		return false
	}
	if retry || arn == r.arn {
		// Transient trouble, or the table still names this stream: look
		// again at the next table check.
		if !retry {
			r.arnSeen = time.Now()
		}
		return true
	}
	r.logf("stream replaced: %s → %s; reading the new one from TRIM_HORIZON", r.arn, arn)
	for id, info := range r.shards {
		if info.status == shardReading {
			// Still running on the old stream: it will end by itself; keep
			// it so its end event finds it.
			continue
		}
		delete(r.shards, id)
	}
	r.waiting = map[string]*childWait{}
	r.replacedBy(arn)
	shards, _, err := r.t.streamShards(ctx, arn, nil)
	if err != nil {
		r.health.failed("", opDetail("DescribeStream", err))
		return true
	}
	r.merge(ctx, shards, "")
	return true
}

// checkTable notices a deleted table (DynamoDB Local keeps serving its
// stream) and a replaced stream. Errors are only logged: the shard readers
// report server trouble themselves.
func (r *tableReader) checkTable(ctx context.Context) bool {
	out, err := r.t.describeTable(ctx, r.name)
	if err != nil {
		switch classify(ctx, err) {
		case faultCanceled:
			return false
		case faultNotFound:
			r.health.stopped(StateOff, fmt.Sprintf("table %s was deleted", r.name))
			return false
		}
		r.logf("table check: %v", err)
		return true
	}
	if out.Table != nil && out.Table.TableStatus == ddbtypes.TableStatusDeleting {
		r.health.stopped(StateOff, fmt.Sprintf("table %s was deleted", r.name))
		return false
	}
	if out.Table != nil && aws.ToString(out.Table.LatestStreamArn) != r.arn {
		return r.streamGone(ctx)
	}
	r.arnSeen = time.Now()
	return true
}

// replacedBy switches to a new stream of the table (re-created, or its
// stream disabled and enabled again) and says so: what a pane shows of the
// table was read before, and the changes made between the old stream's end
// and the new one's start are in neither. The report is a gap over that
// span with Replaced set, so panes read the table again (never showing the
// old rows as live) and the operator is told.
func (r *tableReader) replacedBy(arn string) {
	from := r.arnSeen
	r.arn, r.arnSeen = arn, time.Now()
	since := "it was last seen"
	if !from.IsZero() {
		since = from.Format(time.TimeOnly)
	}
	r.health.replaced(fmt.Sprintf("the stream of %s was replaced (table re-created or stream re-enabled): changes since %s may be missing",
		r.name, since), from, r.arnSeen)
}
