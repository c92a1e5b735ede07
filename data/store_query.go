package data

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// keyQuery describes one Query: the table or index, the partition key value,
// an optional sort key condition and the direction.
type keyQuery struct {
	table TableID
	index string // "" for the base table

	pkValue types.AttributeValue

	skOp    string // "", "=" or "begins_with"
	skValue types.AttributeValue

	newestFirst bool // ScanIndexForward=false

	// filterAttr/filterPrefix, when set, add FilterExpression
	// begins_with(filterAttr, filterPrefix): applied by DynamoDB after the
	// key condition, so pages can come back short (capacity is still spent
	// on the filtered-out items).
	filterAttr, filterPrefix string

	// only, when set, is the ProjectionExpression and the items are returned
	// as the index holds them (no completion). Used where the caller needs a
	// few attributes, not records (contexts by project).
	only []string
}

// keys resolves the partition and sort key names and the projection of the
// queried table or index from the schema, so queries cannot drift from it.
func (q keyQuery) keys() (pk string, sk string, proj Projection, err error) {
	schema := MustSchema(q.table)
	if q.index == "" {
		pk = schema.PK.Name
		if schema.SK != nil {
			sk = schema.SK.Name
		}
		return pk, sk, Projection{Type: ProjectAll}, nil
	}
	ix, ok := schema.Index(q.index)
	if !ok {
		return "", "", Projection{}, fmt.Errorf("data: table %s has no index %s", q.table, q.index)
	}
	if ix.SK != nil {
		sk = ix.SK.Name
	}
	return ix.PK.Name, sk, ix.Projection, nil
}

// queryItems runs one page of q and returns whole items in the query's
// order. On an index that does not project every attribute it asks the
// index only for the base table's key and completes the items with
// BatchGetItem; base items deleted between the two calls are left out.
func (s *Store) queryItems(ctx context.Context, q keyQuery, req PageRequest) (items []Item, next Cursor, consumed float64, err error) {
	pkName, skName, proj, err := q.keys()
	if err != nil {
		return nil, nil, 0, err
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultPageSize
	}

	var e Expr
	cond := e.Name(pkName) + " = " + e.Value(q.pkValue)
	switch q.skOp {
	case "":
	case "=":
		cond += " AND " + e.Name(skName) + " = " + e.Value(q.skValue)
	case "begins_with":
		cond += " AND begins_with(" + e.Name(skName) + ", " + e.Value(q.skValue) + ")"
	default:
		return nil, nil, 0, fmt.Errorf("data: unsupported sort key operator %q", q.skOp)
	}

	complete := q.only == nil && proj.Type != ProjectAll
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.tables.Name(q.table)),
		KeyConditionExpression: aws.String(cond),
		ScanIndexForward:       aws.Bool(!q.newestFirst),
		Limit:                  aws.Int32(limit),
		ExclusiveStartKey:      req.Cursor,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	if q.index != "" {
		in.IndexName = aws.String(q.index)
	}
	if q.filterAttr != "" && q.filterPrefix != "" {
		in.FilterExpression = aws.String("begins_with(" + e.Name(q.filterAttr) + ", " + e.Value(S(q.filterPrefix)) + ")")
	}
	switch {
	case q.only != nil:
		in.ProjectionExpression = aws.String(e.Projection(q.only...))
	case complete:
		// The index copy is thrown away after BatchGetItem; don't ship its
		// non-key attributes (INCLUDE lists) over the wire for nothing.
		in.ProjectionExpression = aws.String(e.Projection(MustSchema(q.table).KeyNames()...))
	}
	in.ExpressionAttributeNames = e.Names()
	in.ExpressionAttributeValues = e.Values()

	out, err := s.conn.DB.Query(ctx, in)
	if err != nil {
		return nil, nil, 0, s.wrap("Query", q.table, q.index, err)
	}
	consumed = capacityUnits(out.ConsumedCapacity)
	s.addConsumed(consumed)
	next = out.LastEvaluatedKey
	if len(next) == 0 {
		next = nil
	}
	if !complete {
		return out.Items, next, consumed, nil
	}

	keys := make([]Item, len(out.Items))
	for i, it := range out.Items {
		keys[i] = KeyOf(q.table, it)
	}
	full, used, err := s.BatchGet(ctx, q.table, keys)
	consumed += used
	if err != nil {
		return nil, nil, consumed, err
	}
	items = make([]Item, 0, len(full))
	for _, it := range full {
		if it != nil {
			items = append(items, it)
		}
	}
	return items, next, consumed, nil
}

// queryPage runs one page of q and decodes it.
func queryPage[T any](ctx context.Context, s *Store, q keyQuery, req PageRequest, decode func(Item) T) (Page[T], error) {
	items, next, consumed, err := s.queryItems(ctx, q, req)
	if err != nil {
		return Page[T]{Consumed: consumed}, err
	}
	p := Page[T]{Items: make([]T, len(items)), Next: next, Consumed: consumed}
	for i, it := range items {
		p.Items[i] = decode(it)
	}
	return p, nil
}

// batchPage fetches records by key (BatchGetItem), keeping the order of
// keys and leaving out those that do not exist.
func batchPage[T any](ctx context.Context, s *Store, table TableID, keys []Item, decode func(Item) T) (Page[T], error) {
	items, consumed, err := s.BatchGet(ctx, table, keys)
	if err != nil {
		return Page[T]{Consumed: consumed}, err
	}
	p := Page[T]{Consumed: consumed}
	for _, it := range items {
		if it != nil {
			p.Items = append(p.Items, decode(it))
		}
	}
	return p, nil
}
