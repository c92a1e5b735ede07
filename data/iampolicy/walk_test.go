package iampolicy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/data/stream"
	"opsdeck/internal/dbtest"
)

// The walk: every kind of call the data layer makes is made, for real,
// against DynamoDB Local (and a stand-in for ECS), through a transport that
// records which API operation touched which resource. Each recorded call
// must be allowed by the policy of the level that needs it, and the static
// list of calls in the data layer's source must be covered by the walk, so
// a new call (a ListTables, a PutItem) fails here until the policy grants it.

const (
	walkRegion  = "us-east-1"
	walkAccount = "123456789012"
	walkTask    = "arn:aws:ecs:us-east-1:123456789012:task/wallcrawler-browsers/0f1e2d3c4b5a69788796a5b4c3d2e1f0"
)

// call is one API call as IAM sees it: the action and the resource ARN.
type call struct{ Action, Resource string }

// recorder is an http.RoundTripper in front of the real servers.
type recorder struct {
	base      http.RoundTripper
	mu        sync.Mutex
	calls     []call
	iterators map[string]string // shard iterator -> its stream's ARN (GetRecords names only the iterator)
	records   atomic.Int64      // GetRecords calls seen
	read2     chan struct{}     // closed at the second GetRecords
}

var tableRE = regexp.MustCompile(`:table/(.+)$`)

// arnOf rebuilds a DynamoDB ARN in the walk's region and account: DynamoDB
// Local's stream ARNs carry its own ("ddblocal", "000000000000").
func arnOf(resource string) string {
	m := tableRE.FindStringSubmatch(resource)
	if m == nil {
		return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", walkRegion, walkAccount, resource)
	}
	return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", walkRegion, walkAccount, m[1])
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body map[string]any
	if req.Body != nil {
		raw, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(raw))
		_ = json.Unmarshal(raw, &body)
	}
	target := req.Header.Get("X-Amz-Target")
	svc, op, _ := strings.Cut(target, ".")
	str := func(k string) string { s, _ := body[k].(string); return s }
	var resources []string
	prefix := "dynamodb:"
	switch {
	case op == "ListTables":
		resources = []string{"*"} // IAM has no narrower resource for it
	case strings.HasPrefix(svc, "AmazonEC2ContainerService"):
		prefix = "ecs:"
		resources = []string{str("task")}
	case str("IndexName") != "":
		resources = []string{arnOf(str("TableName") + "/index/" + str("IndexName"))}
	case str("TableName") != "":
		resources = []string{arnOf(str("TableName"))}
	case str("StreamArn") != "":
		resources = []string{arnOf(str("StreamArn"))}
	case str("ShardIterator") != "":
		r.mu.Lock()
		resources = []string{r.iterators[str("ShardIterator")]}
		r.mu.Unlock()
	case body["RequestItems"] != nil:
		items, _ := body["RequestItems"].(map[string]any)
		for name := range items {
			resources = append(resources, arnOf(name))
		}
	default:
		resources = []string{"(unknown resource)"}
	}
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if op == "GetShardIterator" || op == "GetRecords" {
		raw, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		if rerr == nil {
			var out map[string]any
			_ = json.Unmarshal(raw, &out)
			r.mu.Lock()
			for _, k := range []string{"ShardIterator", "NextShardIterator"} {
				if it, ok := out[k].(string); ok {
					r.iterators[it] = resources[0]
				}
			}
			r.mu.Unlock()
		}
		if op == "GetRecords" && r.records.Add(1) == 2 {
			close(r.read2)
		}
	}
	r.mu.Lock()
	for _, res := range resources {
		r.calls = append(r.calls, call{prefix + op, res})
	}
	r.mu.Unlock()
	return resp, nil
}

func (r *recorder) seen() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]call(nil), r.calls...)
}

// sourceCalls lists the SDK operations the data layer's source can call:
// every <service>.<Op>Input it builds, outside tests and test helpers.
func sourceCalls(t *testing.T) map[string]bool {
	t.Helper()
	re := regexp.MustCompile(`\b(dynamodb|dynamodbstreams|ecs)\.([A-Z][A-Za-z]+)Input\{`)
	ops := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "streamtest" {
			return filepath.SkipDir // the tests' own writer
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			svc := "dynamodb:"
			if m[1] == "ecs" {
				svc = "ecs:"
			}
			ops[svc+m[2]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

type nopSink struct{}

func (nopSink) Records([]stream.Record) {}
func (nopSink) Health(stream.Health)    {}

func TestPolicyAllowsEveryCallTheDataLayerMakes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := dbtest.New(t, dbtest.Options{Env: "walk", Tag: "iam", Conn: data.ConnOptions{Region: walkRegion}})
	ep, setup, tables := w.Endpoint, w.Conn, w.Tables
	S := func(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
	session := data.Item{
		"sessionId": S("sess_iam"), "status": S("RUNNING"), "internalStatus": S("READY"),
		"projectId": S("project_iam"), "createdAt": S("2026-11-21T11:00:00Z"), "updatedAt": S("2026-11-21T11:00:05Z"),
		"expiresAt": &types.AttributeValueMemberN{Value: "1900000000"}, "ecsTaskArn": S(walkTask),
	}
	if _, err := setup.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tables.Name(data.TableSessions)), Item: session}); err != nil {
		t.Fatal(err)
	}
	ecsSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		_, _ = io.WriteString(w, `{"task":{"taskArn":"`+walkTask+`","desiredStatus":"STOPPED"}}`)
	}))
	defer ecsSrv.Close()

	rec := &recorder{base: http.DefaultTransport, iterators: map[string]string{}, read2: make(chan struct{})}
	conn, err := data.Connect(ctx, data.ConnOptions{Endpoint: ep, Region: walkRegion, ECSEndpoint: ecsSrv.URL, HTTPClient: &http.Client{Transport: rec}})
	if err != nil {
		t.Fatal(err)
	}
	store := data.NewStore(conn, tables)
	key := data.Item{"sessionId": S("sess_iam")}

	// Reads: a page on an index and on the base table, a count, a get, a batch get.
	if _, err := store.Page(ctx, data.SessionsByProject("project_iam"), data.PageRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Page(ctx, data.SessionByID("sess_iam"), data.PageRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Count(ctx, data.SessionsByStatus("RUNNING"), 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.GetItem(ctx, data.TableSessions, key); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.BatchGet(ctx, data.TableSessions, []data.Item{key}); err != nil {
		t.Fatal(err)
	}
	// The explicit scan (DescribeTable for the estimate, then Scan).
	if _, err := store.EstimateScan(ctx, data.TableProjects); err != nil {
		t.Fatal(err)
	}
	if _, err := store.ScanTable(ctx, data.TableProjects, data.ScanOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	// The catalog (:tables, :table NAME), and a planned read of a described
	// table with comparison terms.
	if _, err := store.ListTables(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := store.DescribeTable(ctx, tables.Name(data.TableSessions))
	if err != nil || info.TTLErr != nil {
		t.Fatal(err, info.TTLErr)
	}
	terms, _, err := data.ParseTerms([]string{"status=RUNNING", "expiresAt>=now"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	planned, err := data.PlanQuery(info.Schema, terms)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Page(ctx, planned, data.PageRequest{}); err != nil {
		t.Fatal(err)
	}
	// The stream tail, until it has read the stream at least twice.
	tctx, stopTail := context.WithCancel(ctx)
	tailer := stream.New(conn, tables, stream.Options{Tables: []data.TableID{data.TableSessions}, PollInterval: 10 * time.Millisecond, IdlePollMax: 20 * time.Millisecond})
	done := make(chan struct{})
	go func() { _ = tailer.Run(tctx, nopSink{}); close(done) }()
	select {
	case <-rec.read2:
	case <-ctx.Done():
	}
	stopTail()
	<-done
	if rec.records.Load() < 2 {
		t.Fatal("the tailer never called GetRecords")
	}
	// A guarded transition with its step: the release (UpdateItem, StopTask).
	exec := &action.Executor{Conn: conn, Tables: tables, Env: "walk"}
	p, err := action.PlanFor(action.ReleaseSession, session, time.Now(), action.Options{Operator: action.Operator{User: "iam@walk"}})
	if err != nil {
		t.Fatal(err)
	}
	// The permission probe before a confirmation: the plan's own UpdateItem
	// on the same table (operator policy). A read-only connection never
	// probes, so the read-only policy needs nothing for it.
	if perm := action.ProbeWrite(ctx, conn, tables, p, time.Now()); !perm.Known || !perm.Allowed {
		t.Fatalf("probe: %+v", perm)
	}
	roConn := *conn
	roConn.ReadOnly = true
	before := len(rec.seen())
	if perm := action.ProbeWrite(ctx, &roConn, tables, p, time.Now()); perm.Known || len(rec.seen()) != before {
		t.Fatalf("a read-only probe answered %+v after %d calls", perm, len(rec.seen())-before)
	}
	if r := exec.Execute(ctx, p); !r.OK || r.Then == nil || !r.Then.OK {
		t.Fatalf("release: OK=%v Then=%+v %q", r.OK, r.Then, r.Message)
	}

	build := func(l Level, scan bool) Document {
		d, err := Build(Options{Level: l, Tables: tables, Region: walkRegion, Account: walkAccount, Scan: scan})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	readOnly, readScan, operator := build(ReadOnly, false), build(ReadOnly, true), build(Operator, false)
	writes := map[string]bool{"dynamodb:UpdateItem": true, "ecs:StopTask": true}
	made := map[string]bool{}
	for _, c := range rec.seen() {
		made[c.Action] = true
		switch {
		case writes[c.Action]:
			if !operator.Allows(c.Action, c.Resource) {
				t.Errorf("operator policy lacks %s on %s", c.Action, c.Resource)
			}
			if readOnly.Allows(c.Action, c.Resource) || readScan.Allows(c.Action, c.Resource) {
				t.Errorf("read-only policy allows the write %s on %s", c.Action, c.Resource)
			}
		case c.Action == "dynamodb:Scan":
			if !readScan.Allows(c.Action, c.Resource) {
				t.Errorf("read-only --scan policy lacks %s on %s", c.Action, c.Resource)
			}
			if readOnly.Allows(c.Action, c.Resource) || operator.Allows(c.Action, c.Resource) {
				t.Errorf("a policy without --scan allows %s on %s", c.Action, c.Resource)
			}
		default:
			if !readOnly.Allows(c.Action, c.Resource) || !operator.Allows(c.Action, c.Resource) {
				t.Errorf("policies lack the read %s on %s", c.Action, c.Resource)
			}
		}
	}
	var missing []string
	for op := range sourceCalls(t) {
		if !made[op] {
			missing = append(missing, op)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the data layer's source calls %v, which the walk never made: add them to the walk (and to the policy)", missing)
	}
	if len(made) < 10 {
		t.Errorf("the walk made only %d kinds of call: %v", len(made), made)
	}
}
