package data

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Page reads one page of any scope, decoded: a Query on the scope's table
// or index in its order (where the index projects only keys or an INCLUDE
// list, the rest of each item is fetched with BatchGetItem, in the query's
// order; base items deleted between the two calls are left out); a
// consistent GetItem when the scope names one whole primary key (Next is
// then nil); the contexts of a project through its sessions.
func (s *Store) Page(ctx context.Context, sc Scope, req PageRequest) (Page[Record], error) {
	var (
		items    []Item
		next     Cursor
		consumed float64
		err      error
	)
	switch {
	case sc.Via == ViaProjectSessions:
		items, next, consumed, err = s.contextsOfProject(ctx, sc, req)
	case sc.IsGet():
		var it Item
		var found bool
		it, found, consumed, err = s.getItem(ctx, sc.Table, sc.getKey())
		if found {
			items = []Item{it}
		}
	default:
		items, next, consumed, err = s.query(ctx, sc, req, nil)
	}
	p := Page[Record]{Next: next, Consumed: consumed}
	if err != nil {
		return p, err
	}
	s.saw(sc.Table, items)
	p.Items = make([]Record, 0, len(items))
	for _, it := range items {
		if r := Decode(sc.Table, it); r != nil {
			p.Items = append(p.Items, r)
		}
	}
	return p, nil
}

// Count is how many items a scope holds, as Store.Count read it.
type Count struct {
	N        int64
	Consumed float64 // read capacity of every page of the count
	// Partial: the count stopped at its page cap; N is a lower bound.
	Partial bool
	// Span is when the count read, by this machine's clock: a stream
	// record is placed before, during or after it (ReadSpan.Place).
	Span ReadSpan
}

// Count counts a scope's items with Select=COUNT, page after page (a
// filtered count still reads, and pays for, every item the key condition
// selects), BulkPageItems items a page, until the end, maxPages pages (0:
// no cap; N is then a lower bound and Partial is set) or ctx ends. Only key-condition scopes can be
// counted.
func (s *Store) Count(ctx context.Context, sc Scope, maxPages int) (c Count, err error) {
	c.Span = s.startSpan()
	defer func() { c.Span.To = time.Now() }()
	if sc.Via != ViaKey || sc.PKAttr == "" {
		return c, fmt.Errorf("data: scope %s cannot be counted by a query", sc)
	}
	var cursor Cursor
	for pages := 1; ; pages++ {
		in, err := s.queryInput(sc, PageRequest{Limit: BulkPageItems, Cursor: cursor}, countOnly)
		if err != nil {
			return c, err
		}
		out, err := s.conn.DB.Query(ctx, in)
		if err != nil {
			return c, s.wrap("Query", sc.Table, sc.Index, err)
		}
		used := capacityUnits(out.ConsumedCapacity)
		s.addConsumed(used)
		c.N += int64(out.Count)
		c.Consumed += used
		if cursor = out.LastEvaluatedKey; len(cursor) == 0 {
			return c, nil
		}
		if maxPages > 0 && pages >= maxPages {
			c.Partial = true
			return c, nil
		}
	}
}

// startSpan starts a count's ReadSpan now, with the slack its endpoint
// needs.
func (s *Store) startSpan() ReadSpan {
	sp := ReadSpan{From: time.Now()}
	if s.conn != nil && IsLoopbackEndpoint(s.conn.Endpoint) {
		sp.Slack = LocalCountSlack
	}
	return sp
}

// countOnly, passed as queryInput's only, asks for Select=COUNT.
var countOnly = []string{}

// queryInput builds the Query of a scope. only, when set, is the
// ProjectionExpression, and the caller takes the items as the index holds
// them (countOnly: no items, a count); otherwise an index that does not
// project every attribute is asked for the base table's key only (the items
// are completed afterwards).
func (s *Store) queryInput(sc Scope, req PageRequest, only []string) (*dynamodb.QueryInput, error) {
	if sc.PKAttr == "" {
		return nil, fmt.Errorf("data: scope %s has no key condition", sc)
	}
	if sc.Index != "" {
		if _, ok := sc.index(); !ok {
			return nil, fmt.Errorf("data: table %s has no index %s", sc.Table, sc.Index)
		}
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultPageSize
	}
	var e Expr
	cond := e.Name(sc.PKAttr) + " = " + e.Value(sc.pkValue())
	switch sc.SKOp {
	case SKAny:
	case SKEqual:
		cond += " AND " + e.Name(sc.SKAttr) + " = " + e.Value(sc.skValue())
	case SKBeginsWith:
		cond += " AND begins_with(" + e.Name(sc.SKAttr) + ", " + e.Value(sc.skValue()) + ")"
	case SKBetween:
		cond += " AND " + e.Name(sc.SKAttr) + " BETWEEN " + e.Value(sc.skValue()) + " AND " + e.Value(sc.skHigh())
	case SKLess, SKAtMost, SKGreater, SKAtLeast:
		cond += " AND " + e.Name(sc.SKAttr) + " " + skCmp[sc.SKOp] + " " + e.Value(sc.skValue())
	default:
		return nil, fmt.Errorf("data: unsupported sort key operator %d", sc.SKOp)
	}
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.tables.Name(sc.Table)),
		KeyConditionExpression: aws.String(cond),
		ScanIndexForward:       aws.Bool(!sc.NewestFirst),
		Limit:                  aws.Int32(limit),
		ExclusiveStartKey:      req.Cursor,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}
	if sc.Index != "" {
		in.IndexName = aws.String(sc.Index)
	}
	filter := sc.filterExpr(&e)
	if filter != "" {
		in.FilterExpression = aws.String(filter)
	}
	switch {
	case only != nil && len(only) == 0:
		in.Select = types.SelectCount
	case only != nil:
		in.ProjectionExpression = aws.String(e.Projection(only...))
	case sc.Projection().Type == ProjectAll && sc.Only != "":
		in.ProjectionExpression = aws.String(e.Projection(sc.readNames()...))
	case sc.Projection().Type != ProjectAll:
		// The index copy is thrown away after BatchGetItem; don't ship its
		// non-key attributes (INCLUDE lists) over the wire for nothing.
		in.ProjectionExpression = aws.String(e.Projection(MustSchema(sc.Table).KeyNames()...))
	}
	in.ExpressionAttributeNames = e.Names()
	in.ExpressionAttributeValues = e.Values()
	return in, nil
}

// query runs one page of a scope's Query and returns whole items in its
// order (see Page); with only, the items as the index holds them.
func (s *Store) query(ctx context.Context, sc Scope, req PageRequest, only []string) (items []Item, next Cursor, consumed float64, err error) {
	in, err := s.queryInput(sc, req, only)
	if err != nil {
		return nil, nil, 0, err
	}
	out, err := s.conn.DB.Query(ctx, in)
	if err != nil {
		return nil, nil, 0, s.wrap("Query", sc.Table, sc.Index, err)
	}
	consumed = capacityUnits(out.ConsumedCapacity)
	s.addConsumed(consumed)
	next = out.LastEvaluatedKey
	if len(next) == 0 {
		next = nil
	}
	if only != nil || sc.Projection().Type == ProjectAll {
		return out.Items, next, consumed, nil
	}
	keys := make([]Item, len(out.Items))
	for i, it := range out.Items {
		keys[i] = KeyOf(sc.Table, it)
	}
	var attrs []string
	if sc.Only != "" {
		attrs = sc.readNames()
	}
	full, used, err := s.batchGet(ctx, sc.Table, keys, attrs)
	consumed += used
	if err != nil {
		return nil, nil, consumed, err
	}
	return present(full), next, consumed, nil
}

// present drops the nil entries of a BatchGet answer (keys with no item).
func present(items []Item) []Item {
	out := make([]Item, 0, len(items))
	for _, it := range items {
		if it != nil {
			out = append(out, it)
		}
	}
	return out
}

// contextsOfProject pages the contexts a project's sessions use. The
// contexts table has no projectId index, and a Scan is never implicit, so
// this walks the project's sessions (newest first, projecting only
// contextId) and reads the contexts they name with BatchGetItem. It reads
// session pages until it has req.Limit distinct contexts or the sessions
// run out (at most contextScanPages session pages a call); Next is a cursor
// into the sessions. Consequences, documented in docs/SCHEMAS.md: contexts
// no live session references are not listed, and a context used by
// sessions on several pages can appear on more than one page (dedupe by
// ID). Contexts whose own projectId names another project are kept (they
// are what the sessions use) and are visible by their ProjectID.
func (s *Store) contextsOfProject(ctx context.Context, sc Scope, req PageRequest) (items []Item, next Cursor, consumed float64, err error) {
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultPageSize
	}
	sessions := SessionsByProject(sc.Filter[0].Value)
	var ids []string
	seen := map[string]bool{}
	cursor := req.Cursor
	for pages := 1; ; pages++ {
		// Ask for no more sessions than contexts still wanted, so a page
		// never holds more than limit contexts and the sessions cursor never
		// skips one. Most sessions carry no context, hence the loop.
		got, next, used, err := s.query(ctx, sessions, PageRequest{Limit: limit - int32(len(ids)), Cursor: cursor}, []string{"contextId"})
		consumed += used
		if err != nil {
			return nil, nil, consumed, err
		}
		for _, it := range got {
			if v, ok := it["contextId"].(*types.AttributeValueMemberS); ok && v.Value != "" && !seen[v.Value] {
				seen[v.Value] = true
				ids = append(ids, v.Value)
			}
		}
		cursor = next
		if cursor == nil || int32(len(ids)) >= limit || pages >= contextScanPages {
			break
		}
	}
	keys := make([]Item, len(ids))
	for i, id := range ids {
		keys[i] = ContextByID(id).getKey()
	}
	full, used, err := s.BatchGet(ctx, TableContexts, keys)
	consumed += used
	if err != nil {
		return nil, nil, consumed, err
	}
	return present(full), cursor, consumed, nil
}

// contextScanPages bounds how many session pages one contexts page reads,
// so a project with many context-less sessions costs a bounded amount per
// page (the page comes back short, with a Next).
const contextScanPages = 10

// filterExpr is the scope's filter terms as a FilterExpression ("" when
// none), its names and values added to e.
func (sc Scope) filterExpr(e *Expr) string {
	var filter string
	for _, c := range sc.Filter {
		if c.Attr == "" {
			continue
		}
		if filter != "" {
			filter += " AND "
		}
		switch {
		case c.Cmp == CmpLess:
			filter += e.Name(c.Attr) + " < " + e.Value(c.value())
		case c.Cmp == CmpAtLeast:
			filter += e.Name(c.Attr) + " >= " + e.Value(c.value())
		case c.Prefix:
			filter += "begins_with(" + e.Name(c.Attr) + ", " + e.Value(S(c.Value)) + ")"
		case c.Contains:
			filter += "contains(" + e.Name(c.Attr) + ", " + e.Value(S(c.Value)) + ")"
		default:
			filter += e.Name(c.Attr) + " = " + e.Value(S(c.Value))
		}
	}
	return sc.termsExpr(e, filter)
}
