package stream

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// Every call is made with the SDK's own retries switched off (one attempt)
// and its own deadline. The SDK would otherwise retry throttling, 5xx and
// connection errors silently for a while, and the status bar could not say
// "reconnecting" when the server goes away; the reader's backoff with jitter
// does the retrying instead, and reports it.

func noStreamsRetry(o *dynamodbstreams.Options) { o.RetryMaxAttempts = 1 }
func noDBRetry(o *dynamodb.Options)             { o.RetryMaxAttempts = 1 }

func (t *Tailer) callCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, t.opts.CallTimeout)
}

func (t *Tailer) describeTable(ctx context.Context, name string) (*dynamodb.DescribeTableOutput, error) {
	cctx, cancel := t.callCtx(ctx)
	defer cancel()
	return t.conn.DB.DescribeTable(cctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, noDBRetry)
}

// streamShards is one full DescribeStream, following ExclusiveStartShardId
// through every page. filter, when set, restricts it to one shard's children.
func (t *Tailer) streamShards(ctx context.Context, arn string, filter *st.ShardFilter) ([]st.Shard, st.StreamStatus, error) {
	var (
		shards []st.Shard
		status st.StreamStatus
		start  *string
	)
	for page := 0; page < 10000; page++ {
		cctx, cancel := t.callCtx(ctx)
		out, err := t.conn.Streams.DescribeStream(cctx, &dynamodbstreams.DescribeStreamInput{
			StreamArn:             aws.String(arn),
			ExclusiveStartShardId: start,
			ShardFilter:           filter,
		}, noStreamsRetry)
		cancel()
		if err != nil {
			return nil, "", err
		}
		if out.StreamDescription == nil {
			break
		}
		status = out.StreamDescription.StreamStatus
		shards = append(shards, out.StreamDescription.Shards...)
		next := out.StreamDescription.LastEvaluatedShardId
		if next == nil || *next == "" || (start != nil && *next == *start) {
			break
		}
		start = next
	}
	return shards, status, nil
}

func (t *Tailer) shardIterator(ctx context.Context, arn, shard string, pos position) (*string, error) {
	in := &dynamodbstreams.GetShardIteratorInput{
		StreamArn:         aws.String(arn),
		ShardId:           aws.String(shard),
		ShardIteratorType: pos.typ,
	}
	if pos.typ == st.ShardIteratorTypeAfterSequenceNumber || pos.typ == st.ShardIteratorTypeAtSequenceNumber {
		in.SequenceNumber = aws.String(pos.seq)
	}
	cctx, cancel := t.callCtx(ctx)
	defer cancel()
	out, err := t.conn.Streams.GetShardIterator(cctx, in, noStreamsRetry)
	if err != nil {
		return nil, err
	}
	return out.ShardIterator, nil
}

// getRecords asks for at most limit records, and refuses (errTooLarge) an
// answer longer than maxBytes before the SDK decodes it. It also returns
// how many bytes of answer were read.
func (t *Tailer) getRecords(ctx context.Context, iter *string, limit int32, maxBytes int64) (*dynamodbstreams.GetRecordsOutput, int64, error) {
	cctx, cancel := t.callCtx(ctx)
	defer cancel()
	c := &bodyCap{max: maxBytes}
	out, err := t.conn.Streams.GetRecords(cctx, &dynamodbstreams.GetRecordsInput{
		ShardIterator: iter,
		Limit:         aws.Int32(limit),
	}, noStreamsRetry, addBodyCap(c))
	if err == nil && c.tripped {
		err = &errTooLarge{limit: maxBytes}
	}
	if err != nil && isTooLarge(err, c) {
		return nil, c.read, &errTooLarge{limit: maxBytes}
	}
	return out, c.read, err
}

// position is where a shard reader (re)starts.
type position struct {
	typ st.ShardIteratorType
	seq string
}

func (p position) String() string {
	if p.seq != "" {
		return string(p.typ) + " " + p.seq
	}
	return string(p.typ)
}
