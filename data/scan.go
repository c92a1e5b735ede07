package data

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A Scan reads (and bills) every item of a table. opsdeck never scans
// implicitly: ScanTable is the one way, named as such, and the UI shows
// EstimateScan's figures before the user confirms it.

// ScanEstimate is what a full scan of a table would read and cost, from
// DescribeTable. On AWS ItemCount and SizeBytes are refreshed about every six
// hours, so they are approximate.
type ScanEstimate struct {
	Table     string // physical name
	ItemCount int64
	SizeBytes int64
	// RCUs is the read capacity of one eventually consistent full scan:
	// half a unit per 4 KB read.
	RCUs float64
}

// EstimateScan describes what ScanTable(table) would cost.
func (s *Store) EstimateScan(ctx context.Context, table TableID) (ScanEstimate, error) {
	name := s.tables.Name(table)
	out, err := s.conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return ScanEstimate{Table: name}, s.wrap("DescribeTable", table, "", err)
	}
	est := ScanEstimate{Table: name}
	if t := out.Table; t != nil {
		est.ItemCount = aws.ToInt64(t.ItemCount)
		est.SizeBytes = aws.ToInt64(t.TableSizeBytes)
	}
	est.RCUs = math.Ceil(float64(est.SizeBytes)/4096) / 2
	return est, nil
}

// ScanProgress is reported after every page a scan segment reads.
type ScanProgress struct {
	Items    int64   // items returned so far
	Scanned  int64   // items read so far (more than Items when a filter drops some)
	Consumed float64 // capacity consumed so far
	// Total is DescribeTable's item count (approximate; 0 if unknown) and
	// Fraction is Scanned/Total, kept below 1 until the scan ends (the
	// count can be stale) and exactly 1 when it has.
	Total        int64
	Fraction     float64
	SegmentsDone int
	Segments     int
}

// ScanOptions shape one ScanTable.
type ScanOptions struct {
	// Segments is the number of parallel segments (1 to 1,000,000; values
	// below 1 mean 1).
	Segments int
	// CallTimeout bounds every call the scan makes (its DescribeTable and
	// each Scan page, with the SDK's retries): a server that accepts the
	// request and never answers ends the scan with a *TimeoutError instead
	// of holding it for ever. 0 means DefaultCallTimeout.
	CallTimeout time.Duration
	// Filter, when its Attr is set, is one FilterExpression term applied
	// to every page (a Scan with contains(projectIds, p) finds the API keys
	// that reach a project through their list). DynamoDB still reads — and
	// bills — every item; only the matches come back.
	Filter Cond
	// Where, when it holds terms (PlanScan), adds them to the filter, and
	// its projection (Scope.Project) becomes the ProjectionExpression.
	Where Scope
}

// DefaultCallTimeout is how long one call of a long read waits for
// DynamoDB when the caller does not say.
const DefaultCallTimeout = 30 * time.Second

// ScanTable reads a whole table in segments and reports progress after
// every page. progress is called from one goroutine at a time and must
// return quickly; it may be nil. On error, timeout or cancellation the
// items read so far are returned together with the error, so nothing
// already paid for is lost. Cancelling ctx ends it with ctx's error; a call
// past its own deadline, with a *TimeoutError (IsTimeout, not IsCancelled).
func (s *Store) ScanTable(ctx context.Context, table TableID, o ScanOptions, progress func(ScanProgress)) ([]Item, error) {
	segments := max(1, min(o.Segments, 1_000_000))
	timeout := o.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	name := s.tables.Name(table)

	// The item count only drives Fraction. Policies often grant Scan
	// without DescribeTable, so a refused DescribeTable leaves Total at 0
	// instead of failing the scan; a missing table, a cancelled context or
	// a server that does not answer would fail the scan anyway, so they
	// end it here.
	var total int64
	est, err := withDeadline(ctx, timeout, "DescribeTable", func(ctx context.Context) (ScanEstimate, error) {
		return s.EstimateScan(ctx, table)
	})
	switch {
	case err == nil:
		total = est.ItemCount
	case IsNotFound(err) || IsCancelled(err) || IsTimeout(err):
		return nil, s.wrapTimeout("DescribeTable", table, err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var (
		mu       sync.Mutex
		state    = ScanProgress{Total: total, Segments: segments}
		results  = make([][]Item, segments)
		firstErr error
		wg       sync.WaitGroup
	)
	report := func(items, scanned int64, consumed float64, segDone bool) {
		mu.Lock()
		defer mu.Unlock()
		state.Items += items
		state.Scanned += scanned
		state.Consumed += consumed
		if segDone {
			state.SegmentsDone++
		}
		switch {
		case state.SegmentsDone == segments:
			state.Fraction = 1
		case state.Total > 0:
			state.Fraction = min(float64(state.Scanned)/float64(state.Total), 0.99)
		}
		if progress != nil {
			progress(state)
		}
	}

	for seg := 0; seg < segments; seg++ {
		wg.Add(1)
		go func(seg int) {
			defer wg.Done()
			var start Item
			for {
				out, err := withDeadline(ctx, timeout, "Scan", func(ctx context.Context) (*dynamodb.ScanOutput, error) {
					in := &dynamodb.ScanInput{
						TableName:              aws.String(name),
						Segment:                aws.Int32(int32(seg)),
						TotalSegments:          aws.Int32(int32(segments)),
						ExclusiveStartKey:      start,
						Limit:                  aws.Int32(BulkPageItems),
						ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
					}
					o.applyTo(in)
					return s.conn.DB.Scan(ctx, in)
				})
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = s.wrapTimeout("Scan", table, err)
						cancel()
					}
					mu.Unlock()
					return
				}
				used := capacityUnits(out.ConsumedCapacity)
				s.addConsumed(used)
				results[seg] = append(results[seg], out.Items...)
				start = out.LastEvaluatedKey
				done := len(start) == 0
				report(int64(len(out.Items)), int64(out.ScannedCount), used, done)
				if done {
					return
				}
			}
		}(seg)
	}
	wg.Wait()

	var all []Item
	for _, r := range results {
		all = append(all, r...)
	}
	s.saw(table, all)
	return all, firstErr
}

// applyTo sets the scan's FilterExpression from Filter and Where's terms
// (none when neither holds one), built as a query's filter is, and
// Where's projection.
func (o ScanOptions) applyTo(in *dynamodb.ScanInput) {
	var e Expr
	sc := Scope{Table: o.Where.Table, Filter: [2]Cond{o.Filter}, Terms: o.Where.Terms, Only: o.Where.Only}
	if f := sc.filterExpr(&e); f != "" {
		in.FilterExpression = aws.String(f)
	}
	if sc.Only != "" {
		in.ProjectionExpression = aws.String(e.Projection(sc.readNames()...))
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = e.Names(), e.Values()
}

// withDeadline runs one call with its own deadline. When that deadline, and
// not ctx, ended the call, the error is a *TimeoutError: the operator did
// not cancel anything, the server did not answer.
func withDeadline[T any](ctx context.Context, d time.Duration, op string, call func(context.Context) (T, error)) (T, error) {
	cctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	out, err := call(cctx)
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return out, &TimeoutError{Op: op, After: d}
	}
	return out, err
}

// wrapTimeout is wrap, except that a *TimeoutError (already naming its
// call) keeps the table and endpoint without a second operation name.
func (s *Store) wrapTimeout(op string, table TableID, err error) error {
	var te *TimeoutError
	if errors.As(err, &te) {
		return &OpError{Op: te.Op, Table: s.tables.Name(table), Endpoint: s.conn.Target(), Err: te}
	}
	var oe *OpError
	if errors.As(err, &oe) {
		return err
	}
	return s.wrap(op, table, "", err)
}
