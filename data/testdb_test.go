package data

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/demo/ddblocal"
)

// The tests in this package that need a database run against the real
// DynamoDB Local that ddblocal.TestEndpoint starts on first use (or
// $OPSDECK_TEST_ENDPOINT); RunTests stops it. Each test gets its own table
// prefix, so tests never see each other's data.

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(dropBenchTablesAfter{m})) }

// dropBenchTablesAfter runs the tests and benchmarks, then drops the 100k-row
// benchmark table while the server is still up (on a shared server it would
// otherwise stay in memory).
type dropBenchTablesAfter struct{ m *testing.M }

func (r dropBenchTablesAfter) Run() int {
	code := r.m.Run()
	dropBenchTables()
	return code
}

var tablePrefixSeq atomic.Int64

// testDB is one test's tables on the shared server.
type testDB struct {
	t      testing.TB
	conn   *Conn
	tables Tables
	store  *Store
}

// newTestDB creates all ten tables under a fresh prefix and deletes them
// when the test ends. opts, when given, configure the connection (tests put
// a fault-injecting HTTP client there).
func newTestDB(t testing.TB, opts ...ConnOptions) *testDB {
	t.Helper()
	ep := ddblocal.TestEndpoint(t)
	o := ConnOptions{Endpoint: ep, Region: "us-east-1"}
	if len(opts) > 0 {
		o.HTTPClient = opts[0].HTTPClient
	}
	ctx := context.Background()
	conn, err := Connect(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	base, err := ResolveTables("test", nil)
	if err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf("t%d-%d-", time.Now().UnixNano()%1e9, tablePrefixSeq.Add(1))
	db := &testDB{t: t, conn: conn, tables: base.WithPrefix(prefix)}
	db.store = NewStore(conn, db.tables)
	for _, s := range Schemas() {
		if _, err := conn.DB.CreateTable(ctx, createInput(s, db.tables.Name(s.ID))); err != nil {
			t.Fatalf("creating %s: %v", db.tables.Name(s.ID), err)
		}
	}
	t.Cleanup(func() {
		for _, s := range Schemas() {
			_, _ = conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(db.tables.Name(s.ID))})
		}
	})
	return db
}

// createInput is this package's own CreateTable request for a schema (the
// production one lives in package demo; the tests don't depend on it).
func createInput(s TableSchema, name string) *dynamodb.CreateTableInput {
	defs := map[string]AttrType{}
	keySchema := func(pk KeyAttr, sk *KeyAttr) []types.KeySchemaElement {
		defs[pk.Name] = pk.Type
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
		if sk != nil {
			defs[sk.Name] = sk.Type
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
		}
		return ks
	}
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   keySchema(s.PK, s.SK),
	}
	for _, ix := range s.Indexes {
		p := &types.Projection{ProjectionType: types.ProjectionType(ix.Projection.Type)}
		if ix.Projection.Type == ProjectInclude {
			p.NonKeyAttributes = ix.Projection.NonKey
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.Name), KeySchema: keySchema(ix.PK, ix.SK), Projection: p,
		})
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(n), AttributeType: types.ScalarAttributeType(defs[n]),
		})
	}
	if s.Stream != StreamNone {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewType(s.Stream)}
	}
	return in
}

// put writes items with BatchWriteItem (25 a call), retrying unprocessed
// items, and fails the test on any error.
func (db *testDB) put(table TableID, items ...Item) {
	db.t.Helper()
	if err := batchWrite(context.Background(), db.conn, db.tables.Name(table), items); err != nil {
		db.t.Fatalf("writing %d items to %s: %v", len(items), table, err)
	}
}

func batchWrite(ctx context.Context, conn *Conn, name string, items []Item) error {
	for start := 0; start < len(items); start += 25 {
		var reqs []types.WriteRequest
		for _, it := range items[start:min(start+25, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		}
		for attempt := 0; len(reqs) > 0; attempt++ {
			if attempt > 20 {
				return fmt.Errorf("items still unprocessed after %d attempts", attempt)
			}
			out, err := conn.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
				RequestItems: map[string][]types.WriteRequest{name: reqs},
			})
			if err != nil {
				return err
			}
			reqs = out.UnprocessedItems[name]
		}
	}
	return nil
}

// --- item builders -----------------------------------------------------------

func str(v string) types.AttributeValue { return S(v) }

func num(v int64) types.AttributeValue { return N(v) }

func boolv(v bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: v} }

func mapv(m Item) types.AttributeValue { return &types.AttributeValueMemberM{Value: m} }

func listv(vs ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: vs}
}

var baseTime = time.Date(2026, 2, 22, 19, 12, 11, 0, time.UTC)

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func sessionItem(id, project, status string, created time.Time, expires int64) Item {
	it := Item{
		"sessionId":      str(id),
		"status":         str(status),
		"internalStatus": str("READY"),
		"projectId":      str(project),
		"createdAt":      str(iso(created)),
		"updatedAt":      str(iso(created)),
		"keepAlive":      boolv(false),
		"signingKey":     str("jwt-secret-" + id),
		"connectUrl":     str("wss://connect.example/" + id + "?signingKey=jwt-secret-" + id),
		"userMetadata":   mapv(Item{"team": str("qa")}),
		"eventHistory":   listv(mapv(Item{"type": str("CREATED")})),
		"proxyBytes":     num(1024),
	}
	if expires != 0 {
		it["expiresAt"] = num(expires)
	}
	return it
}

func eventItem(user, id, typ, status string, ts time.Time) Item {
	t := ts.UTC().Format("2006-01-02T15:04:05.000000Z")
	return Item{
		"user_id":              str(user),
		"timestamp#event_id":   str(t + "#" + id),
		"event_id":             str(id),
		"event_type":           str(typ),
		"payload":              mapv(Item{"email": str(id + "@example.com")}),
		"status":               str(status),
		"timestamp":            str(t),
		"ttl":                  num(ts.Add(30 * 24 * time.Hour).Unix()),
		"retry_count":          num(0),
		"metadata":             mapv(Item{"source_ip": str("192.168.1.1")}),
		"event_type#timestamp": str(typ + "#" + t),
		"status#timestamp":     str(status + "#" + t),
	}
}

func sandboxItem(id, status, track string, allocated int64) Item {
	it := Item{
		"PK": str("SBX#" + id), "SK": str("META"),
		"sandbox_id": str(id), "name": str("sbx-" + id), "external_id": str("ext-" + id),
		"status": str(status), "lab_duration_hours": num(4), "deletion_retry_count": num(0),
		"allocated_at": num(allocated), "created_at": num(1759567084), "updated_at": num(1759567084),
	}
	if track != "" {
		it["allocated_to_track"] = str(track)
		it["idempotency_key"] = str(track)
	}
	return it
}

// --- fault injection ---------------------------------------------------------

// faultTransport sits in front of the real server. For each request whose
// X-Amz-Target ends with a watched operation it may replace or rewrite the
// response; everything else passes through untouched.
type faultTransport struct {
	mu    sync.Mutex
	calls map[string]int // operation → requests seen
	// rewrite, when set, is given the operation, the call number (1-based)
	// and the real response body; it returns the body to deliver.
	rewrite func(op string, call int, body []byte) []byte
	// fail, when set, may answer instead of the server: a non-empty code
	// becomes a 400 error response with that __type.
	fail func(op string, call int) (code string)
	// record, when set, sees every request body before it is sent.
	record func(op string, body []byte)
}

func (f *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[op]++
	call := f.calls[op]
	f.mu.Unlock()

	if f.record != nil && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		f.record(op, body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	if f.fail != nil {
		if code := f.fail(op, call); code != "" {
			body := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":"injected %s"}`, code, code)
			return &http.Response{
				StatusCode: 400, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header:  http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
				Body:    io.NopCloser(strings.NewReader(body)),
				Request: req, ContentLength: int64(len(body)),
			}, nil
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || f.rewrite == nil || resp.StatusCode != 200 {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	body = f.rewrite(op, call, body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("X-Amz-Crc32")
	resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
	return resp, nil
}

func (f *faultTransport) count(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
}

// deferItems rewrites a BatchGetItem response so that all but keep of the
// returned items come back as UnprocessedKeys instead (keyNames say which
// attributes form the key), as DynamoDB does when it throttles part of a batch.
func deferItems(body []byte, keep int, keyNames []string) []byte {
	var resp map[string]json.RawMessage
	if json.Unmarshal(body, &resp) != nil {
		return body
	}
	var responses map[string][]map[string]json.RawMessage
	if json.Unmarshal(resp["Responses"], &responses) != nil {
		return body
	}
	unprocessed := map[string]map[string]any{}
	for table, items := range responses {
		if len(items) <= keep {
			continue
		}
		var keys []map[string]json.RawMessage
		for _, it := range items[keep:] {
			k := map[string]json.RawMessage{}
			for _, n := range keyNames {
				k[n] = it[n]
			}
			keys = append(keys, k)
		}
		responses[table] = items[:keep]
		unprocessed[table] = map[string]any{"Keys": keys}
	}
	resp["Responses"], _ = json.Marshal(responses)
	resp["UnprocessedKeys"], _ = json.Marshal(unprocessed)
	out, _ := json.Marshal(resp)
	return out
}
