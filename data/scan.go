package data

import (
	"context"
	"math"
	"sync"

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
	Scanned  int64   // items read so far (equals Items: ScanTable never filters)
	Consumed float64 // capacity consumed so far
	// Total is DescribeTable's item count (approximate; 0 if unknown) and
	// Fraction is Scanned/Total, kept below 1 until the scan ends (the
	// count can be stale) and exactly 1 when it has.
	Total        int64
	Fraction     float64
	SegmentsDone int
	Segments     int
}

// ScanTable reads a whole table with `segments` parallel segments (1 to
// 1,000,000; values below 1 mean 1) and reports progress after every page.
// progress is called from one goroutine at a time and must return quickly;
// it may be nil. On error or cancellation the items read so far are returned
// together with the error, so nothing already paid for is lost.
func (s *Store) ScanTable(ctx context.Context, table TableID, segments int, progress func(ScanProgress)) ([]Item, error) {
	segments = max(1, min(segments, 1_000_000))
	name := s.tables.Name(table)

	// The item count only drives Fraction. Policies often grant Scan
	// without DescribeTable, so a refused DescribeTable leaves Total at 0
	// instead of failing the scan; a missing table or a cancelled context
	// would fail the scan anyway, so they end it here.
	var total int64
	if est, err := s.EstimateScan(ctx, table); err == nil {
		total = est.ItemCount
	} else if IsNotFound(err) || IsCancelled(err) {
		return nil, err
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
				out, err := s.conn.DB.Scan(ctx, &dynamodb.ScanInput{
					TableName:              aws.String(name),
					Segment:                aws.Int32(int32(seg)),
					TotalSegments:          aws.Int32(int32(segments)),
					ExclusiveStartKey:      start,
					ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
				})
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = s.wrap("Scan", table, "", err)
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
	return all, firstErr
}
