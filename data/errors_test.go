package data

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
)

// faultyDB is a test database whose requests pass through f.
func faultyDB(t *testing.T, f *faultTransport) *testDB {
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: f}})
	db.store.backoff = backoff{base: time.Millisecond, max: 4 * time.Millisecond, attempts: 3}
	return db
}

func runningSessions(n int) []Item {
	var items []Item
	for i := 0; i < n; i++ {
		items = append(items, sessionItem(fmt.Sprintf("sess_%02d", i), "p", "RUNNING", baseTime, int64(1_800_000_000+i)))
	}
	return items
}

func TestBatchGetRetriesUnprocessedKeysAndKeepsOrder(t *testing.T) {
	keyNames := MustSchema(TableSessions).KeyNames()
	f := &faultTransport{rewrite: func(op string, call int, body []byte) []byte {
		if op == "BatchGetItem" && call <= 3 {
			return deferItems(body, 2, keyNames) // two items a call, the rest "throttled"
		}
		return body
	}}
	db := faultyDB(t, f)
	db.put(TableSessions, runningSessions(9)...)

	p, err := typed[Session](db.store.Page(context.Background(), SessionsByStatus("RUNNING"), PageRequest{Limit: 9}))
	if err != nil {
		t.Fatal(Describe(err))
	}
	if len(p.Items) != 9 {
		t.Fatalf("got %d sessions, want 9", len(p.Items))
	}
	for i, s := range p.Items {
		if s.SessionID != fmt.Sprintf("sess_%02d", i) || s.SigningKey == "" {
			t.Fatalf("item %d = %s (order lost or not completed)", i, s.SessionID)
		}
	}
	if n := f.count("BatchGetItem"); n != 4 {
		t.Errorf("BatchGetItem called %d times, want 4 (3 partial + 1 rest)", n)
	}
}

func TestBatchGetGivesUpAfterBoundedAttempts(t *testing.T) {
	keyNames := MustSchema(TableSessions).KeyNames()
	f := &faultTransport{rewrite: func(op string, call int, body []byte) []byte {
		if op == "BatchGetItem" {
			return deferItems(body, 0, keyNames)
		}
		return body
	}}
	db := faultyDB(t, f)
	db.put(TableSessions, runningSessions(3)...)

	_, err := typed[Session](db.store.Page(context.Background(), SessionsByStatus("RUNNING"), PageRequest{}))
	var ue *UnprocessedError
	if !errors.As(err, &ue) || ue.Keys != 3 || !IsThrottled(err) {
		t.Fatalf("err = %v", err)
	}
	if n := f.count("BatchGetItem"); n != 3 {
		t.Errorf("BatchGetItem called %d times, want the 3 attempts allowed", n)
	}
	if d := Describe(err); !strings.HasPrefix(d, "throttled on ") || !strings.Contains(d, "3 keys still unread") {
		t.Errorf("Describe = %q", d)
	}
}

func TestBatchGetBackoffStopsWhenContextEnds(t *testing.T) {
	keyNames := MustSchema(TableSessions).KeyNames()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &faultTransport{rewrite: func(op string, call int, body []byte) []byte {
		if op == "BatchGetItem" {
			cancel() // the user gives up while we would be backing off
			return deferItems(body, 0, keyNames)
		}
		return body
	}}
	db := faultyDB(t, f)
	db.store.backoff = backoff{base: time.Hour, max: time.Hour, attempts: 5} // only ctx can end the wait
	db.put(TableSessions, runningSessions(2)...)

	_, err := typed[Session](db.store.Page(ctx, SessionsByStatus("RUNNING"), PageRequest{}))
	if !IsCancelled(err) || Describe(err) != "cancelled" {
		t.Fatalf("err = %v, Describe = %q", err, Describe(err))
	}
}

func TestDescribeAPIErrors(t *testing.T) {
	codes := map[string]string{}
	f := &faultTransport{fail: func(op string, call int) string { return codes[op] }}
	db := faultyDB(t, f)
	ctx := context.Background()
	table := db.tables.Name(TableSessions)

	codes["Query"] = "AccessDeniedException"
	_, err := typed[Session](db.store.Page(ctx, SessionsByProject("p"), PageRequest{}))
	if !IsAccessDenied(err) || IsThrottled(err) {
		t.Fatalf("access denied not recognised: %v", err)
	}
	if d := Describe(err); !strings.HasPrefix(d, "not allowed: dynamodb:Query on table/"+table+"/index/") {
		t.Errorf("Describe = %q", d)
	}

	codes["Query"] = "ProvisionedThroughputExceededException" // the SDK retries, then gives up
	_, err = typed[Session](db.store.Page(ctx, SessionsByProject("p"), PageRequest{}))
	if !IsThrottled(err) {
		t.Fatalf("throttling not recognised: %v", err)
	}
	if d := Describe(err); !strings.HasPrefix(d, "throttled by DynamoDB on "+table) {
		t.Errorf("Describe = %q", d)
	}
	if f.count("Query") < 3 {
		t.Errorf("throttled Query was not retried by the SDK (%d calls)", f.count("Query"))
	}
}

func TestDescribeRealServerErrors(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()

	// A table that does not exist: named in the message.
	missing := NewStore(db.conn, db.tables.WithPrefix("nosuch-"))
	_, err := typed[Session](missing.Page(ctx, SessionsByProject("p"), PageRequest{}))
	if !IsNotFound(err) {
		t.Fatalf("missing table: %v", err)
	}
	want := "table nosuch-" + db.tables.Name(TableSessions) + " (index projectId-createdAt-index) does not exist at " + db.conn.Endpoint
	if d := Describe(err); d != want {
		t.Errorf("Describe = %q\n     want %q", d, want)
	}

	// An incomplete key is a validation error.
	_, _, err = db.store.GetItem(ctx, TableSandboxes, Item{"PK": str("SBX#x")})
	if !IsValidation(err) || !strings.HasPrefix(Describe(err), "request rejected as invalid on "+db.tables.Name(TableSandboxes)+": ") {
		t.Errorf("validation: %v / %q", err, Describe(err))
	}

	// A failed condition.
	db.put(TableProjects, Item{"projectId": str("p1")})
	_, err = db.conn.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                aws.String(db.tables.Name(TableProjects)),
		Item:                     Item{"projectId": str("p1")},
		ConditionExpression:      aws.String("attribute_not_exists(#k)"),
		ExpressionAttributeNames: map[string]string{"#k": "projectId"},
	})
	if !IsConditionFailed(err) || !strings.HasPrefix(Describe(err), "not changed: the item is no longer in the expected state") {
		t.Errorf("condition: %v / %q", err, Describe(err))
	}

	// A context cancelled before the call.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = typed[Session](db.store.Page(cctx, SessionsByProject("p"), PageRequest{}))
	if !IsCancelled(err) || Describe(err) != "cancelled" {
		t.Errorf("cancelled: %v / %q", err, Describe(err))
	}
	if Describe(nil) != "" {
		t.Errorf("Describe(nil) must be empty")
	}
}

func TestDescribeUnreachableEndpoint(t *testing.T) {
	// A port that was free a moment ago: nothing listens there.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close()
	conn, err := ConnectLocal(context.Background(), endpoint)
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := ResolveTables("dev", nil)
	_, err = NewStore(conn, tables).Page(context.Background(), SessionByID("x"), PageRequest{})
	if !IsUnreachable(err) {
		t.Fatalf("not recognised as unreachable: %v", err)
	}
	if d := Describe(err); d != "cannot reach "+endpoint+": connection refused" {
		t.Errorf("Describe = %q", d)
	}
}

func TestScanTableKeepsWhatItReadWhenAPageFails(t *testing.T) {
	f := &faultTransport{}
	db := faultyDB(t, f)
	// ~3 MB of sessions: a Scan page stops at 1 MB, so this takes several.
	var items []Item
	for i := 0; i < 100; i++ {
		it := sessionItem(fmt.Sprintf("sess_%03d", i), "p", "RUNNING", baseTime, 1_800_000_000)
		it["userMetadata"] = mapv(Item{"pad": str(strings.Repeat("x", 30_000))})
		items = append(items, it)
	}
	db.put(TableSessions, items...)
	f.fail = func(op string, call int) string {
		if op == "Scan" && call == 2 {
			return "AccessDeniedException" // not retried by the SDK
		}
		return ""
	}
	var last ScanProgress
	got, err := db.store.ScanTable(context.Background(), TableSessions, ScanOptions{Segments: 1}, func(p ScanProgress) { last = p })
	if !IsAccessDenied(err) {
		t.Fatalf("err = %v", err)
	}
	if len(got) == 0 || len(got) >= 100 || int64(len(got)) != last.Items {
		t.Fatalf("kept %d items (progress said %d); want the first page's", len(got), last.Items)
	}
	if last.Fraction >= 1 || last.Total != 100 {
		t.Errorf("progress after failure: %+v", last)
	}

	_, err = NewStore(db.conn, db.tables.WithPrefix("gone-")).ScanTable(context.Background(), TableSessions, ScanOptions{Segments: 2}, nil)
	if !IsNotFound(err) || !strings.Contains(Describe(err), "gone-") {
		t.Errorf("scan of a missing table: %v / %q", err, Describe(err))
	}
}

func TestDescribeWithoutServer(t *testing.T) {
	api := func(code, msg string) error {
		return &OpError{Op: "Query", Table: "wallcrawler-sessions", Endpoint: "eu-west-1",
			Err: &smithy.GenericAPIError{Code: code, Message: msg}}
	}
	cases := []struct {
		err  error
		want string
	}{
		{api("ResourceNotFoundException", "Requested resource not found"), "table wallcrawler-sessions does not exist in eu-west-1"},
		{api("UnrecognizedClientException", "The security token\nis invalid"), "access denied (UnrecognizedClientException) on wallcrawler-sessions: The security token is invalid"},
		{api("ThrottlingException", "slow down"), "throttled by DynamoDB on wallcrawler-sessions (ThrottlingException); try again in a moment"},
		{api("TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]"), "not changed: the item is no longer in the expected state on wallcrawler-sessions"},
		{api("SomethingNew", "odd"), "SomethingNew on wallcrawler-sessions: odd"},
		{fmt.Errorf("saving: %w", ErrReadOnly), ErrReadOnly.Error()},
		{errors.New("operation error DynamoDB: Query, failed to retrieve credentials: no profile"), "no AWS credentials found: pass --profile or set AWS_PROFILE"},
		{errors.New("line one\n  line two"), "line one line two"},
	}
	for _, c := range cases {
		if got := Describe(c.err); got != c.want {
			t.Errorf("Describe(%v)\n got %q\nwant %q", c.err, got, c.want)
		}
	}
	if !IsConditionFailed(cases[3].err) || IsConditionFailed(cases[0].err) {
		t.Errorf("IsConditionFailed misclassifies transactions")
	}
}

// A base item deleted between the index Query and the BatchGetItem that
// completes it (TTL, a release) is left out of the page, without error.
func TestKeysOnlyPageSkipsItemsDeletedMeanwhile(t *testing.T) {
	f := &faultTransport{}
	db := faultyDB(t, f)
	db.put(TableSessions, runningSessions(5)...)
	f.rewrite = func(op string, call int, body []byte) []byte {
		if op == "Query" && call == 1 {
			_, err := db.conn.DB.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{
				TableName: aws.String(db.tables.Name(TableSessions)),
				Key:       Item{"sessionId": str("sess_02")},
			})
			if err != nil {
				t.Errorf("delete: %v", err)
			}
		}
		return body
	}
	p, err := typed[Session](db.store.Page(context.Background(), SessionsByStatus("RUNNING"), PageRequest{Limit: 10}))
	if err != nil {
		t.Fatal(Describe(err))
	}
	if got := strings.Join(ids(p.Items), ","); got != "sess_00,sess_01,sess_03,sess_04" {
		t.Fatalf("page = %s", got)
	}
}
