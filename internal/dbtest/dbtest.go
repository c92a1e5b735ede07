// Package dbtest is the one DynamoDB Local setup of the tests: a table
// prefix no other test uses, a connection to the shared test server
// (ddblocal.TestEndpoint), the tables created from data.Schemas() with the
// seed's stream settings and TTL off, and deleted when the test ends.
// Imported by test files only.
//
// The tests of data and demo cannot use it (it imports both: an import
// cycle), and keep their own few lines; every other package's tests do.
package dbtest

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
)

var prefixSeq atomic.Int64

// Prefix is a table prefix no other test of this binary, nor another test
// binary on a shared server, uses: tag, the process id, a counter. Its
// length is fixed for a tag, so screens that show table names keep their
// layout and a test can swap it for a constant of the same width.
func Prefix(tag string) string {
	return fmt.Sprintf("%s%07d%03d-", tag, os.Getpid()%10_000_000, prefixSeq.Add(1)%1000)
}

// Tables are the env's tables ("" is "dev") under Prefix(tag). Nothing is
// created.
func Tables(t testing.TB, env, tag string) data.Tables {
	t.Helper()
	return tablesIn(t, env, Prefix(tag))
}

func tablesIn(t testing.TB, env, prefix string) data.Tables {
	t.Helper()
	tables, err := resolve(env, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return tables
}

func resolve(env, prefix string) (data.Tables, error) {
	if env == "" {
		env = "dev"
	}
	base, err := data.ResolveTables(env, nil)
	return base.WithPrefix(prefix), err
}

// Connect connects with o to o.Endpoint or, when that is empty, to the
// shared test server (started on first use; without Java the test skips,
// see ddblocal.TestEndpoint); o.Region is us-east-1 when empty. A test that puts its own HTTP client in o
// gets AWS_CA_BUNDLE cleared: the SDK refuses a plain *http.Client when it
// is set (it wants to add the bundle), and DynamoDB Local is plain HTTP —
// so such a test cannot be parallel (t.Setenv).
func Connect(t testing.TB, o data.ConnOptions) *data.Conn {
	t.Helper()
	if o.Endpoint == "" {
		o.Endpoint = ddblocal.TestEndpoint(t)
	}
	if o.Region == "" {
		o.Region = "us-east-1"
	}
	if o.HTTPClient != nil {
		t.Setenv("AWS_CA_BUNDLE", "")
	}
	conn, err := data.Connect(context.Background(), o)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return conn
}

// Create creates the tables ids (none: all ten) from data.Schemas() with
// the seed's stream settings (streamsOnAll: a stream on every table, as
// `--demo-streams all`), TTL off — DynamoDB Local really deletes expired
// rows, and tests write expired rows on purpose — and deletes them when
// the test ends.
func Create(t testing.TB, conn *data.Conn, tables data.Tables, streamsOnAll bool, ids ...data.TableID) {
	t.Helper()
	if err := create(context.Background(), conn, tables, streamsOnAll, ids); err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		ids = data.TableIDs()
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, id := range ids {
			_, _ = conn.DB.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tables.Name(id))})
		}
	})
}

func create(ctx context.Context, conn *data.Conn, tables data.Tables, streamsOnAll bool, ids []data.TableID) error {
	if len(ids) == 0 {
		return demo.CreateTables(ctx, conn, tables, demo.CreateOptions{StreamsOnAll: streamsOnAll, SkipTTL: true})
	}
	for _, id := range ids {
		in := demo.CreateTableInput(data.MustSchema(id), tables.Name(id), streamsOnAll)
		if _, err := conn.DB.CreateTable(ctx, in); err != nil {
			return fmt.Errorf("create %s: %w", *in.TableName, err)
		}
	}
	return nil
}

// Options shape a World. The zero value is every table of "dev", with the
// seed's streams, over a plain connection.
type Options struct {
	Env          string           // the tables' env ("" is "dev")
	Tag          string           // the prefix's tag, to tell tables apart on the server
	Tables       []data.TableID   // the tables to create (none: all ten)
	StreamsOnAll bool             // a stream on every table
	Conn         data.ConnOptions // the connection (as Connect takes it)
}

// World is one test's tables on the shared test server.
type World struct {
	Endpoint string
	Conn     *data.Conn
	Tables   data.Tables
	Prefix   string // the tables' prefix
}

// Store is a Store over the world's connection and tables.
func (w *World) Store() *data.Store { return data.NewStore(w.Conn, w.Tables) }

// Put writes item to the table id, failing the test on error.
func (w *World) Put(t testing.TB, id data.TableID, item data.Item) {
	t.Helper()
	in := &dynamodb.PutItemInput{TableName: aws.String(w.Tables.Name(id)), Item: item}
	if _, err := w.Conn.DB.PutItem(context.Background(), in); err != nil {
		t.Fatalf("put into %s: %v", w.Tables.Name(id), err)
	}
}

// New connects, and creates the tables under a fresh prefix; they are
// deleted when the test ends.
func New(t testing.TB, o Options) *World {
	t.Helper()
	conn := Connect(t, o.Conn)
	prefix := Prefix(o.Tag)
	tables := tablesIn(t, o.Env, prefix)
	Create(t, conn, tables, o.StreamsOnAll, o.Tables...)
	return &World{Endpoint: conn.Endpoint, Conn: conn, Tables: tables, Prefix: prefix}
}

// Shared is New for a world a whole test binary shares (built once, under a
// sync.Once, by whichever test comes first): it returns an error instead of
// ending that test, and nothing is deleted — the world lives as long as the
// server. endpoint is ddblocal.TestEndpoint's, asked for before the Once
// (it may end the test).
func Shared(endpoint string, o Options) (*World, error) {
	ctx := context.Background()
	o.Conn.Endpoint = endpoint
	if o.Conn.Region == "" {
		o.Conn.Region = "us-east-1"
	}
	conn, err := data.Connect(ctx, o.Conn)
	if err != nil {
		return nil, err
	}
	prefix := Prefix(o.Tag)
	tables, err := resolve(o.Env, prefix)
	if err != nil {
		return nil, err
	}
	if err := create(ctx, conn, tables, o.StreamsOnAll, o.Tables); err != nil {
		return nil, err
	}
	return &World{Endpoint: endpoint, Conn: conn, Tables: tables, Prefix: prefix}, nil
}
