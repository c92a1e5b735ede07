package data

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxBatchGet is BatchGetItem's limit on keys per call.
const maxBatchGet = 100

// backoff is the retry policy for UnprocessedKeys. DynamoDB returns
// unprocessed keys when it throttles part of a batch (or the response would
// pass 16 MB); retrying at once mostly gets throttled again.
type backoff struct {
	base     time.Duration // first delay
	max      time.Duration // cap on one delay
	attempts int           // consecutive calls without progress before giving up
}

var defaultBackoff = backoff{base: 50 * time.Millisecond, max: 2 * time.Second, attempts: 8}

// delay is "equal jitter": half the exponential step plus a random half, so
// concurrent retries spread out but never retry immediately.
func (b backoff) delay(n int) time.Duration {
	d := b.base << min(n, 20)
	if d <= 0 || d > b.max {
		d = b.max
	}
	half := d / 2
	return half + rand.N(half+1)
}

// UnprocessedError says BatchGetItem kept returning keys unprocessed until
// the retry budget ran out. IsThrottled reports true for it.
type UnprocessedError struct {
	Keys     int // keys never read
	Attempts int
}

func (e *UnprocessedError) Error() string {
	return fmt.Sprintf("%d keys still unprocessed after %d attempts (DynamoDB is throttling)", e.Keys, e.Attempts)
}

// BatchGet reads items by primary key with BatchGetItem: at most 100 keys a
// call, duplicate keys asked once, UnprocessedKeys retried with exponential
// backoff and jitter (bounded, and stopping when ctx ends). The result is
// aligned with keys: items[i] is the item for keys[i], nil when it does not
// exist. Reads are eventually consistent. consumed is the capacity used.
func (s *Store) BatchGet(ctx context.Context, table TableID, keys []Item) (items []Item, consumed float64, err error) {
	return s.batchGet(ctx, table, keys, nil)
}

// batchGet is BatchGet reading only attrs of each item (nil: whole items);
// attrs must include the table's key attributes, which match answers to
// keys.
func (s *Store) batchGet(ctx context.Context, table TableID, keys []Item, attrs []string) (items []Item, consumed float64, err error) {
	items = make([]Item, len(keys))
	if len(keys) == 0 {
		return items, 0, nil
	}
	// BatchGetItem rejects a request naming the same key twice, and the
	// callers (contexts shared by many sessions) often have duplicates.
	canon := make([]string, len(keys))
	var unique []Item
	seen := map[string]bool{}
	for i, k := range keys {
		canon[i] = canonicalKey(k)
		if !seen[canon[i]] {
			seen[canon[i]] = true
			unique = append(unique, k)
		}
	}

	found := make(map[string]Item, len(unique))
	for start := 0; start < len(unique); start += maxBatchGet {
		chunk := unique[start:min(start+maxBatchGet, len(unique))]
		used, err := s.batchGetChunk(ctx, table, chunk, attrs, found)
		consumed += used
		if err != nil {
			return nil, consumed, err
		}
	}
	for i := range keys {
		items[i] = found[canon[i]]
	}
	return items, consumed, nil
}

// batchGetChunk reads up to 100 keys into found, retrying UnprocessedKeys.
func (s *Store) batchGetChunk(ctx context.Context, table TableID, keys []Item, attrs []string, found map[string]Item) (consumed float64, err error) {
	name := s.tables.Name(table)
	keyNames := MustSchema(table).KeyNames()
	policy := s.retry()
	pending := keys
	var ask types.KeysAndAttributes
	if len(attrs) > 0 {
		var e Expr
		ask.ProjectionExpression = aws.String(e.Projection(attrs...))
		ask.ExpressionAttributeNames = e.Names()
	}
	idle := 0 // consecutive calls that read nothing
	for calls := 1; len(pending) > 0; calls++ {
		ask.Keys = pending
		out, err := s.conn.DB.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems:           map[string]types.KeysAndAttributes{name: ask},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			return consumed, s.wrap("BatchGetItem", table, "", err)
		}
		for _, cc := range out.ConsumedCapacity {
			consumed += capacityUnits(&cc)
		}
		got := out.Responses[name]
		for _, it := range got {
			found[canonicalKey(projectKey(it, keyNames))] = it
		}
		pending = out.UnprocessedKeys[name].Keys
		if len(pending) == 0 {
			break
		}
		if len(got) > 0 {
			idle = 0
		} else {
			idle++
		}
		if idle >= policy.attempts {
			s.addConsumed(consumed)
			return consumed, s.wrap("BatchGetItem", table, "", &UnprocessedError{Keys: len(pending), Attempts: calls})
		}
		t := time.NewTimer(policy.delay(idle))
		select {
		case <-ctx.Done():
			t.Stop()
			s.addConsumed(consumed)
			return consumed, s.wrap("BatchGetItem", table, "", ctx.Err())
		case <-t.C:
		}
	}
	s.addConsumed(consumed)
	return consumed, nil
}

func (s *Store) retry() backoff {
	if s.backoff.attempts > 0 {
		return s.backoff
	}
	return defaultBackoff
}

func projectKey(it Item, names []string) Item {
	k := make(Item, len(names))
	for _, n := range names {
		if v, ok := it[n]; ok {
			k[n] = v
		}
	}
	return k
}

// canonicalKey is a canonical text form of a key, used to match BatchGetItem
// responses (which come back in any order) to the keys asked for.
func canonicalKey(k Item) string {
	names := make([]string, 0, len(k))
	for n := range k {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte(0)
		switch v := k[n].(type) {
		case *types.AttributeValueMemberS:
			b.WriteString("S")
			b.WriteString(v.Value)
		case *types.AttributeValueMemberN:
			b.WriteString("N")
			b.WriteString(canonicalNumber(v.Value)) // "4", "4.0" and "04" are one key, as in DynamoDB
		case *types.AttributeValueMemberB:
			b.WriteString("B")
			b.WriteString(base64.StdEncoding.EncodeToString(v.Value))
		default:
			b.WriteString(TypeName(v))
		}
		b.WriteByte(0)
	}
	return b.String()
}
