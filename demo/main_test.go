package demo

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
	"opsdeck/demo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }

var prefixSeq atomic.Int64

// testEnv connects to the test server and returns tables under a prefix no
// other test uses. The tables are deleted when the test ends.
func testEnv(t *testing.T) (context.Context, *data.Conn, data.Tables) {
	t.Helper()
	// Generous: the shared test server can be slow under other packages' load.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	conn, err := data.ConnectLocal(ctx, ddblocal.TestEndpoint(t))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	base, err := data.ResolveTables("dev", nil)
	if err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf("t%d-%d-", time.Now().UnixNano()%1_000_000_000, prefixSeq.Add(1))
	tables := base.WithPrefix(prefix)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := DeleteTables(ctx, conn, tables, CreateOptions{}); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	return ctx, conn, tables
}

// scanAll reads every item of one table (test-only: the console never scans
// implicitly).
func scanAll(t *testing.T, ctx context.Context, conn *data.Conn, table string) []Item {
	t.Helper()
	var out []Item
	p := dynamodb.NewScanPaginator(conn.DB, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("scan %s: %v", table, err)
		}
		out = append(out, page.Items...)
	}
	return out
}
