package data

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/demo/ddblocal"
)

// Benchmarks run only with -bench; `go test` alone never seeds the 100k rows.
//
//	go test ./data/ -run '^$' -bench PageSessions -benchtime 1x -timeout 30m
//
// Seeding takes about a minute on a private DynamoDB Local (8 concurrent
// BatchWriteItem streams of 25 items); much longer on a busy shared server.

const benchSessions = 100_000

var bench struct {
	once   sync.Once
	conn   *Conn
	tables Tables
	store  *Store
	err    error
}

// benchStore seeds one project with 100k sessions, once per test process,
// with concurrent BatchWriteItem calls. The tables are dropped by TestMain's
// runner when the process ends (see dropBenchTables).
func benchStore(b *testing.B) *Store {
	b.Helper()
	ep := ddblocal.TestEndpoint(b) // before the Once: it may end the benchmark
	bench.once.Do(func() {
		ctx := context.Background()
		conn, err := ConnectLocal(ctx, ep)
		if err != nil {
			bench.err = err
			return
		}
		base, _ := ResolveTables("bench", nil)
		tables := base.WithPrefix(fmt.Sprintf("bench%d-", time.Now().UnixNano()%1e9))
		bench.conn, bench.tables = conn, tables
		// No stream on the benchmark table: it measures reads, and DynamoDB
		// Local writes about four times slower with a stream enabled, which
		// would make seeding dominate `make bench`.
		in := createInput(MustSchema(TableSessions), tables.Name(TableSessions))
		in.StreamSpecification = nil
		if _, err := conn.DB.CreateTable(ctx, in); err != nil {
			bench.err = err
			return
		}
		start := time.Now()
		const workers = 8
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		per := benchSessions / workers
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				items := make([]Item, 0, per)
				for i := w * per; i < (w+1)*per; i++ {
					it := sessionItem(fmt.Sprintf("sess_%06d", i), "bench-project", "RUNNING",
						baseTime.Add(time.Duration(i)*time.Second), int64(1_800_000_000+i))
					it["contextId"] = str(fmt.Sprintf("ctx_%03d", i%500))
					it["publicIP"] = str("203.0.113.7")
					it["ecsTaskArn"] = str("arn:aws:ecs:us-east-1:123456789012:task/wallcrawler/" + fmt.Sprintf("%032d", i))
					items = append(items, it)
				}
				if err := batchWrite(ctx, conn, tables.Name(TableSessions), items); err != nil {
					errs <- err
				}
			}(w)
		}
		wg.Wait()
		close(errs)
		bench.err = <-errs
		bench.store = NewStore(conn, tables)
		b.Logf("seeded %d sessions in %v", benchSessions, time.Since(start).Round(time.Millisecond))
	})
	if bench.err != nil {
		b.Fatalf("seeding: %s", Describe(bench.err))
	}
	return bench.store
}

// dropBenchTables deletes the benchmark's tables, if any were created.
func dropBenchTables() {
	if bench.conn == nil {
		return
	}
	_, _ = bench.conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{
		TableName: aws.String(bench.tables.Name(TableSessions)),
	})
}

// pageThrough reads every page of fetch and returns the rows read.
func pageThrough(b *testing.B, limit int32, fetch func(PageRequest) (Page[Session], error)) int {
	rows := 0
	req := PageRequest{Limit: limit}
	for {
		p, err := fetch(req)
		if err != nil {
			b.Fatal(Describe(err))
		}
		rows += len(p.Items)
		if p.Next == nil {
			return rows
		}
		req.Cursor = p.Next
	}
}

// BenchmarkPageSessionsByProject pages through all 100k sessions of one
// project (ALL-projected index: one Query per page) and reports rows/s,
// decoding included.
func BenchmarkPageSessionsByProject(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	for _, limit := range []int32{100, 1000} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			rows := 0
			for b.Loop() {
				rows += pageThrough(b, limit, func(r PageRequest) (Page[Session], error) {
					return store.SessionsByProject(ctx, "bench-project", r)
				})
			}
			if rows%benchSessions != 0 {
				b.Fatalf("read %d rows, not a multiple of %d", rows, benchSessions)
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkPageSessionsByStatus pages through the same 100k sessions by
// status: a KEYS_ONLY index, so every page is a Query plus BatchGetItem.
func BenchmarkPageSessionsByStatus(b *testing.B) {
	store := benchStore(b)
	ctx := context.Background()
	rows := 0
	for b.Loop() {
		rows += pageThrough(b, 100, func(r PageRequest) (Page[Session], error) {
			return store.SessionsByStatus(ctx, "RUNNING", r)
		})
	}
	if rows%benchSessions != 0 {
		b.Fatalf("read %d rows, not a multiple of %d", rows, benchSessions)
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkDecodeSession measures decoding alone (no I/O).
func BenchmarkDecodeSession(b *testing.B) {
	it := sessionItem("sess_1", "p", "STOPPED", baseTime, 1_800_000_000)
	it["updatedAt"] = num(baseTime.Unix())
	for b.Loop() {
		_ = DecodeSession(it)
	}
}
