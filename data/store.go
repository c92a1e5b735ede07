package data

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cursor is where the next page starts: DynamoDB's LastEvaluatedKey, passed
// back as ExclusiveStartKey. nil means "from the start" in a request and
// "no more pages" in a Page.
type Cursor = Item

// DefaultPageSize is used when a PageRequest has no Limit.
const DefaultPageSize int32 = 100

// PageRequest asks for one page of a query.
type PageRequest struct {
	Limit  int32  // items per page; <= 0 means DefaultPageSize
	Cursor Cursor // nil for the first page, else the previous Page.Next
}

// Page is one page of typed records.
type Page[T any] struct {
	Items []T
	// Next is the cursor of the following page, nil when this was the last.
	// A page may be short (DynamoDB stops at 1 MB) and still have a Next.
	Next Cursor
	// Consumed is the read capacity this page cost, summed over every call
	// made for it (the Query and any BatchGetItem completing it).
	Consumed float64
}

// Store reads the five services' tables through one connection. Every list
// is a paginated Query of a Scope (Page; never a Scan) and returns whole
// items: where an index projects only keys or an INCLUDE list, the rest of
// each item is fetched with BatchGetItem, in the query's order. The one
// Scan is ScanTable, explicit. A Store is safe for concurrent use.
type Store struct {
	conn   *Conn
	tables Tables

	mu       sync.Mutex
	consumed float64

	backoff backoff // zero means defaultBackoff; tests shorten it

	// seen, when set, hears of every item a page or a scan returned.
	seen func(TableID, []Item)
}

// OnItems makes the store tell fn of the items every Page and ScanTable
// returns (the console's index of ids seen, for completion). fn runs on
// the reading goroutine, so it must be quick and safe for concurrent use,
// and it must not keep or change the items. Call it before the store is
// shared.
func (s *Store) OnItems(fn func(TableID, []Item)) { s.seen = fn }

func (s *Store) saw(t TableID, items []Item) {
	if s.seen != nil && len(items) > 0 {
		s.seen(t, items)
	}
}

// NewStore returns a Store reading the given physical tables through conn.
func NewStore(conn *Conn, tables Tables) *Store {
	return &Store{conn: conn, tables: tables}
}

// Conn is the connection the store reads through.
func (s *Store) Conn() *Conn { return s.conn }

// Tables is the logical → physical table mapping the store uses.
func (s *Store) Tables() Tables { return s.tables }

// ConsumedTotal is the read capacity consumed by every call this Store has
// made since it was created (for a session-wide counter in the status bar).
func (s *Store) ConsumedTotal() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.consumed
}

func (s *Store) addConsumed(units float64) {
	s.mu.Lock()
	s.consumed += units
	s.mu.Unlock()
}

func capacityUnits(cc *types.ConsumedCapacity) float64 {
	if cc == nil || cc.CapacityUnits == nil {
		return 0
	}
	return *cc.CapacityUnits
}

// wrap gives an error the operation and physical table it happened on, so
// Describe can name them.
func (s *Store) wrap(op string, table TableID, index string, err error) error {
	if err == nil {
		return nil
	}
	return &OpError{Op: op, Table: s.tables.Name(table), Index: index, Endpoint: s.conn.Target(), Err: err}
}

// GetItem reads one item by its full primary key with a strongly consistent
// read (the detail view and the guarded actions want the current state, not
// a replica's). found is false when no such item exists.
func (s *Store) GetItem(ctx context.Context, table TableID, key Item) (item Item, found bool, err error) {
	item, found, _, err = s.getItem(ctx, table, key)
	return item, found, err
}

func (s *Store) getItem(ctx context.Context, table TableID, key Item) (item Item, found bool, consumed float64, err error) {
	out, err := s.conn.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              aws.String(s.tables.Name(table)),
		Key:                    key,
		ConsistentRead:         aws.Bool(true),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		return nil, false, 0, s.wrap("GetItem", table, "", err)
	}
	consumed = capacityUnits(out.ConsumedCapacity)
	s.addConsumed(consumed)
	if out.Item == nil {
		return nil, false, consumed, nil
	}
	return out.Item, true, consumed, nil
}

// Get reads any record by table and key, decoded (consistent read). The
// action layer uses it to re-read the item it is about to change.
func (s *Store) Get(ctx context.Context, table TableID, key Item) (Record, bool, error) {
	it, found, err := s.GetItem(ctx, table, key)
	if err != nil || !found {
		return nil, false, err
	}
	r := Decode(table, it)
	if r == nil {
		return nil, false, fmt.Errorf("data: unknown table %q", table)
	}
	return r, true, nil
}
