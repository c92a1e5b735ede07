package stream

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// chanSink hands every record's key to a channel, for benchmarks.
type chanSink struct {
	keys   chan string
	gate   chan struct{} // when non-nil, the first Records call waits on it
	parked chan struct{} // closed when that first call has begun waiting
	once   sync.Once
}

func (c *chanSink) Records(rs []Record) {
	if c.gate != nil {
		c.once.Do(func() {
			close(c.parked)
			<-c.gate
		})
	}
	for _, r := range rs {
		if v, ok := r.Keys["sessionId"].(*ddb.AttributeValueMemberS); ok {
			c.keys <- v.Value
		}
	}
}
func (c *chanSink) Health(Health) {}

func benchSetup(b *testing.B, sink Sink) (*data.Conn, data.Tables) {
	conn := testConn(b, "", data.ConnOptions{})
	tables := testTables(b, conn, data.TableSessions)
	hs := newCollectSink()
	startTailer(b, conn, tables, Options{Tables: []data.TableID{data.TableSessions}, Logf: func(string, ...any) {}}, teeSink{hs, sink})
	waitLive(b, hs, []data.TableID{data.TableSessions})
	return conn, tables
}

type teeSink struct{ a, b Sink }

func (t teeSink) Records(r []Record) { t.a.Records(r); t.b.Records(r) }
func (t teeSink) Health(h Health)    { t.a.Health(h); t.b.Health(h) }

// BenchmarkWriteToRecord measures the time from a PutItem being
// acknowledged to its record reaching the sink, with the default 250 ms
// poll, over at least 200 writes. The writes come from a ticker that is not
// in step with the polls (every 130 ms), so they land at every phase of the
// poll cycle, as real traffic does; a write-then-wait loop would always
// write just after a poll and measure the worst case only. Reported:
// p50-ms, p99-ms (a record that arrives before its acknowledgement counts
// as 0).
func BenchmarkWriteToRecord(b *testing.B) {
	sink := &chanSink{keys: make(chan string, 4096)}
	conn, tables := benchSetup(b, sink)
	name := aws.String(tables.Name(data.TableSessions))
	n := max(b.N, 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	lat := streamtest.NewLatency(n)
	b.ResetTimer()
	writeErr := lat.WritePaced(ctx, n, 130*time.Millisecond, func(i int) (string, error) {
		key := fmt.Sprintf("bench-%d", i)
		_, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: data.Item{
			"sessionId": &ddb.AttributeValueMemberS{Value: key},
			"status":    &ddb.AttributeValueMemberS{Value: "RUNNING"},
		}})
		return key, err
	})
	deadline := time.NewTimer(time.Duration(n)*130*time.Millisecond + 60*time.Second)
	defer deadline.Stop()
	for lat.Count() < n {
		select {
		case k := <-sink.keys:
			lat.Arrived(k, time.Now())
		case err := <-writeErr:
			b.Fatal(err)
		case <-deadline.C:
			b.Fatalf("only some records delivered before the deadline")
		}
	}
	b.StopTimer()
	lat.Report(b)
}

// BenchmarkRecordThroughput measures how fast the reader drains a backlog:
// the sink holds its first batch while thousands of records pile up in the
// shard, then lets go; records delivered per second are counted from then
// until the last arrives. One shard, Limit 1000, at most 4 calls/s: the
// ceiling is 4,000 records/s per shard.
func BenchmarkRecordThroughput(b *testing.B) {
	total := max(b.N, 6000)
	gate := make(chan struct{})
	sink := &chanSink{keys: make(chan string, total+10), gate: gate, parked: make(chan struct{})}
	conn, tables := benchSetup(b, sink)
	name := tables.Name(data.TableSessions)
	ctx := context.Background()

	put := func(from, to int) {
		for i := from; i < to; i += 25 {
			var reqs []ddb.WriteRequest
			for j := i; j < to && j < i+25; j++ {
				reqs = append(reqs, ddb.WriteRequest{PutRequest: &ddb.PutRequest{Item: data.Item{
					"sessionId": &ddb.AttributeValueMemberS{Value: fmt.Sprintf("tp-%06d", j)},
					"status":    &ddb.AttributeValueMemberS{Value: "RUNNING"},
				}}})
			}
			items := map[string][]ddb.WriteRequest{name: reqs}
			for len(items[name]) > 0 {
				out, err := conn.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: items})
				if err != nil {
					b.Fatal(err)
				}
				items = out.UnprocessedItems
			}
		}
	}
	put(0, 1) // the first record parks the reader inside the sink
	select {
	case <-sink.parked: // the reader now holds record 0 inside the sink
	case <-time.After(30 * time.Second):
		b.Fatal("first record never reached the sink")
	}
	put(1, total)
	b.ResetTimer()
	start := time.Now()
	close(gate)
	deadline := time.NewTimer(5 * time.Minute)
	defer deadline.Stop()
	for got := 0; got < total; got++ {
		select {
		case <-sink.keys:
		case <-deadline.C:
			b.Fatalf("only %d of %d records delivered", got, total)
		}
	}
	el := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(total-1)/el.Seconds(), "records/s")
}
