package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one DynamoDB item as the SDK represents it.
type Item = map[string]types.AttributeValue

// batchLimit is BatchWriteItem's maximum number of requests per call.
const batchLimit = 25

// retryPolicy says how unprocessed items are resent.
type retryPolicy struct {
	base, max time.Duration // backoff: base, doubling up to max
	attempts  int           // calls before giving up with an error
}

// batchRetry: twelve attempts with this backoff is about a quarter of a
// minute of the server refusing work before Seed reports it. A variable so
// tests can shorten it.
var batchRetry = retryPolicy{base: 50 * time.Millisecond, max: 5 * time.Second, attempts: 12}

// putAll writes items to table with BatchWriteItem, 25 at a time. Items the
// server returns as UnprocessedItems (throttling, or DynamoDB Local being
// busy) are resent with exponential backoff and jitter; they are never
// silently dropped: if they cannot be written the error says how many.
func putAll(ctx context.Context, db *dynamodb.Client, table string, items []Item) error {
	for start := 0; start < len(items); start += batchLimit {
		end := min(start+batchLimit, len(items))
		reqs := make([]types.WriteRequest, 0, end-start)
		for _, it := range items[start:end] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		if err := writeBatch(ctx, db, map[string][]types.WriteRequest{table: reqs}); err != nil {
			return fmt.Errorf("writing %d items to %s: %w", end-start, table, err)
		}
	}
	return nil
}

// writeBatch sends one BatchWriteItem request and resends whatever comes back
// unprocessed until nothing is left.
func writeBatch(ctx context.Context, db *dynamodb.Client, pending map[string][]types.WriteRequest) error {
	backoff := batchRetry.base
	for attempt := 1; ; attempt++ {
		out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			return err
		}
		pending = out.UnprocessedItems
		left := 0
		for _, reqs := range pending {
			left += len(reqs)
		}
		if left == 0 {
			return nil
		}
		if attempt >= batchRetry.attempts {
			return fmt.Errorf("%d items still unprocessed after %d attempts", left, attempt)
		}
		// Full jitter: sleep a random time up to the current backoff, so
		// several writers backing off together do not retry in lockstep.
		wait := time.Duration(rand.Int64N(int64(backoff))) + time.Millisecond
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%d items unprocessed: %w", left, ctx.Err())
		case <-t.C:
		}
		backoff = min(backoff*2, batchRetry.max)
	}
}
