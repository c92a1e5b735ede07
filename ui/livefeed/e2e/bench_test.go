package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/data/stream/streamtest"
)

// BenchmarkWriteToPane measures, for at least 200 writes, the time from
// PutItem returning to the record being applied in the Stream pane model
// and a frame drawn — reader (default 250 ms poll), feed (≤ 30 batches/s)
// and pane together. Reported: p50-ms, p99-ms.
// Targets: p50 ≤ 200 ms, p99 ≤ 500 ms.
//
// The writes come from their own goroutine on a 130 ms ticker, out of step
// with the poll, so they land at every phase of the poll cycle as real
// traffic does. Writing right after the previous record arrived would
// always land just after a poll and measure the worst phase only. A record
// applied before its PutItem returned counts as 0.
func BenchmarkWriteToPane(b *testing.B) {
	r := newRig(b, data.TableSessions)
	r.waitLive(b, data.TableSessions)
	n := max(b.N, 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	lat := streamtest.NewLatency(n)
	b.ResetTimer()
	lat.WritePaced(ctx, n, 130*time.Millisecond, func(i int) (string, error) {
		id := fmt.Sprintf("lat-%05d", i)
		r.put(b, data.TableSessions, data.Item{"sessionId": s(id), "status": s("RUNNING")})
		return id, nil
	})
	deadline := time.NewTimer(time.Duration(n)*130*time.Millisecond + 60*time.Second)
	defer deadline.Stop()
	for lat.Count() < n {
		select {
		case m := <-r.batches:
			from := len(r.seen)
			r.apply(b, m)
			now := time.Now()
			for _, rec := range r.seen[from:] {
				if v, ok := rec.Keys["sessionId"].(*types.AttributeValueMemberS); ok {
					lat.Arrived(v.Value, now)
				}
			}
		case <-deadline.C:
			b.Fatalf("only %d of %d records applied before the deadline", lat.Count(), n)
		}
	}
	b.StopTimer()
	lat.Report(b)
}

// BenchmarkPaneThroughput measures records applied per second in the pane
// model while the reader drains a backlog: the reader is held (its first
// delivery blocks) while at least 3,000 writes pile up in the shard, then
// released; the rate is counted from the release to the last record applied.
// Target: ≥ 2,000 records/s with the UI model attached. One shard
// is read at ≤ 4 calls/s × 1,000 records, so the reader's own ceiling is
// 4,000/s.
func BenchmarkPaneThroughput(b *testing.B) {
	gate := &gateSink{release: make(chan struct{}), parked: make(chan struct{})}
	r := newRigSink(b, func(f Sink) Sink { gate.next = f; return gate }, data.TableSessions)
	// Runs before the rig's cleanup (LIFO), so a failed run never leaves the
	// reader parked and the Tailer unable to stop.
	b.Cleanup(gate.open)
	r.waitLive(b, data.TableSessions)
	total := max(b.N, 3000)
	name := r.tables.Name(data.TableSessions)
	ctx := context.Background()
	b.ResetTimer()
	// Writers in parallel: DynamoDB Local, not the tail, is the slow part.
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w * 25; i < total; i += 100 {
				var reqs []types.WriteRequest
				for j := i; j < total && j < i+25; j++ {
					reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: data.Item{
						"sessionId": s(fmt.Sprintf("tp-%06d", j)), "status": s("RUNNING"), "projectId": s("proj-1"),
					}}})
				}
				items := map[string][]types.WriteRequest{name: reqs}
				for len(items[name]) > 0 {
					out, err := r.conn.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: items})
					if err != nil {
						errs <- err
						return
					}
					items = out.UnprocessedItems
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	// The first write's record has reached the reader, which is now parked.
	select {
	case <-gate.parked:
	case <-time.After(30 * time.Second):
		b.Fatal("the reader never delivered the first record")
	}
	released := time.Now()
	gate.open()
	r.until(b, 120*time.Second, fmt.Sprintf("%d records", total), func() bool { return len(r.seen) >= total })
	span := time.Since(released)
	b.StopTimer()
	b.ReportMetric(float64(len(r.seen))/span.Seconds(), "records/s")
	b.ReportMetric(float64(r.pane.Dropped()), "dropped")
}

// gateSink holds the reader's first delivery until release is closed, so a
// backlog builds up in the shard.
type gateSink struct {
	next     Sink
	release  chan struct{}
	parked   chan struct{}
	once     sync.Once
	openOnce sync.Once
}

func (g *gateSink) open() { g.openOnce.Do(func() { close(g.release) }) }

func (g *gateSink) Records(rs []stream.Record) {
	g.once.Do(func() {
		close(g.parked)
		<-g.release
	})
	g.next.Records(rs)
}

func (g *gateSink) Health(h stream.Health) { g.next.Health(h) }
