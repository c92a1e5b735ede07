//go:build linux

package console

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
)

// TestMain runs the tests and benchmarks; DynamoDB Local starts only when a
// benchmark asks for it (ddblocal.TestEndpoint), and without Java the
// benchmarks skip, saying why.
func TestMain(m *testing.M) {
	code := ddblocal.RunTests(dropWorldAfter{m})
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

type dropWorldAfter struct{ m *testing.M }

func (r dropWorldAfter) Run() int {
	code := r.m.Run()
	dropWorld()
	return code
}

// The world every benchmark runs against: the demo tables, seeded as
// `opsdeck --demo --demo-streams all` seeds them (streams on every table, TTL off so nothing
// changes by itself), plus bigSessions sessions of one project, bigProject,
// in the same sessions table.
const (
	bigProject  = "bench-100k"
	bigSessions = 100_000
)

var world struct {
	once     sync.Once
	endpoint string
	conn     *data.Conn
	tables   data.Tables
	report   demo.SeedReport
	config   string // a config file naming the tables, for opsdeck --config
	keep     bool   // a named world: reused, never dropped
	err      error
}

// keepPrefixEnv names the table prefix of a world to keep between runs.
const keepPrefixEnv = "OPSDECK_BENCH_PREFIX"

// setupWorld creates and seeds the world once per test process. With no
// Java (and no OPSDECK_TEST_ENDPOINT) the benchmark is skipped.
func setupWorld(b *testing.B) {
	b.Helper()
	endpoint := ddblocal.TestEndpoint(b) // may skip the benchmark: before the Once
	world.once.Do(func() { world.err = seedWorld(b, endpoint) })
	if world.err != nil {
		b.Fatalf("seeding: %v", world.err)
	}
}

func seedWorld(b *testing.B, endpoint string) error {
	ctx := context.Background()
	world.endpoint = endpoint
	conn, err := data.ConnectLocal(ctx, world.endpoint)
	if err != nil {
		return err
	}
	world.conn = conn
	base, err := data.ResolveTables("bench", nil)
	if err != nil {
		return err
	}
	// A prefix of our own: on a shared server (OPSDECK_TEST_ENDPOINT) the
	// tables of other runs are never touched. OPSDECK_BENCH_PREFIX names one
	// instead, to keep a seeded world between runs on a server of one's own
	// while working on the console: it is reused when present and kept.
	prefix := fmt.Sprintf("b%d-", time.Now().UnixNano()%1e9)
	if p := os.Getenv(keepPrefixEnv); p != "" {
		prefix, world.keep = p, true
	}
	world.tables = base.WithPrefix(prefix)
	if err := writeConfig(); err != nil {
		return err
	}
	if world.keep {
		_, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(world.tables.Name(data.TableSandboxes))})
		if err == nil {
			b.Logf("reusing the world under prefix %s", prefix)
			world.report, err = demo.Prepare(ctx, conn, world.tables, demo.SeedOptions{})
			return err
		}
	}

	// The big project goes in first, into a sessions table without a stream
	// (DynamoDB Local writes several times slower with one); the stream is
	// switched on before the demo world is written, so the console finds
	// every table as the demo has them.
	start := time.Now()
	sessions := world.tables.Name(data.TableSessions)
	in := demo.CreateTableInput(data.MustSchema(data.TableSessions), sessions, true)
	spec := in.StreamSpecification
	in.StreamSpecification = nil
	if _, err := conn.DB.CreateTable(ctx, in); err != nil {
		return fmt.Errorf("creating %s: %w", sessions, err)
	}
	if err := writeBigProject(ctx, conn, sessions); err != nil {
		return err
	}
	if _, err := conn.DB.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(sessions), StreamSpecification: spec}); err != nil {
		return fmt.Errorf("enabling the stream of %s: %w", sessions, err)
	}
	b.Logf("seeded %d sessions of %s in %v", bigSessions, bigProject, time.Since(start).Round(time.Second))
	start = time.Now()
	if err := demo.CreateTables(ctx, conn, world.tables, demo.CreateOptions{StreamsOnAll: true, SkipTTL: true}); err != nil {
		return err
	}
	if world.report, err = demo.Seed(ctx, conn, world.tables, demo.SeedOptions{}); err != nil {
		return err
	}
	b.Logf("seeded the demo world in %v", time.Since(start).Round(time.Second))
	return nil
}

// writeConfig writes a config file that names the world's tables.
func writeConfig() error {
	var cfg strings.Builder
	cfg.WriteString("tables:\n")
	for _, id := range data.TableIDs() {
		fmt.Fprintf(&cfg, "  %s: %s\n", id, world.tables.Name(id))
	}
	dir, err := os.MkdirTemp("", "opsdeck-bench-world-")
	if err != nil {
		return err
	}
	world.config = filepath.Join(dir, "config.yaml")
	return os.WriteFile(world.config, []byte(cfg.String()), 0o600)
}

// writeBigProject writes bigSessions sessions built as the demo builds them
// (demo.SampleSessions: event histories, secrets, the lifecycle mix), all in
// bigProject, with ids of their own.
func writeBigProject(ctx context.Context, conn *data.Conn, table string) error {
	const workers = 8
	items := make(chan data.Item, 256)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			batch := make([]types.WriteRequest, 0, 25)
			flush := func() error {
				if len(batch) == 0 {
					return nil
				}
				err := writeBatch(ctx, conn.DB, table, batch)
				batch = batch[:0]
				return err
			}
			for it := range items {
				batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
				if len(batch) == 25 {
					if err := flush(); err != nil {
						errs <- err
						for range items { // drain so the producer ends
						}
						return
					}
				}
			}
			if err := flush(); err != nil {
				errs <- err
			}
		}()
	}
	i := 0
	for it := range demo.SampleSessions(bigSessions, time.Now()) {
		it["sessionId"] = &types.AttributeValueMemberS{Value: fmt.Sprintf("sess_b%013d", i)}
		it["projectId"] = &types.AttributeValueMemberS{Value: bigProject}
		items <- it
		i++
	}
	close(items)
	wg.Wait()
	close(errs)
	return <-errs
}

// writeBatch writes up to 25 items, resending what comes back unprocessed.
func writeBatch(ctx context.Context, db *dynamodb.Client, table string, reqs []types.WriteRequest) error {
	pending := map[string][]types.WriteRequest{table: append([]types.WriteRequest(nil), reqs...)}
	for attempt := 0; ; attempt++ {
		out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			return err
		}
		if len(out.UnprocessedItems[table]) == 0 {
			return nil
		}
		if attempt == 20 {
			return errors.New("items still unprocessed after 20 attempts")
		}
		pending = out.UnprocessedItems
		time.Sleep(time.Duration(rand.IntN(50)+10) * time.Millisecond)
	}
}

// dropWorld deletes the world's tables while the server is still up.
func dropWorld() {
	if world.config != "" {
		os.RemoveAll(filepath.Dir(world.config))
	}
	if world.conn == nil || world.keep {
		return
	}
	for _, id := range data.TableIDs() {
		_, _ = world.conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(world.tables.Name(id))})
	}
}
