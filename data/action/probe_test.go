package action

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// bodyTap keeps the raw answer bodies of one operation, so a test can
// compare an item's bytes as DynamoDB sent them.
type bodyTap struct {
	op     string
	mu     sync.Mutex
	bodies [][]byte
	sent   []string // every operation sent, in order
}

func (b *bodyTap) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndex(target, ".")+1:]
	b.mu.Lock()
	b.sent = append(b.sent, op)
	b.mu.Unlock()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || op != b.op {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.bodies = append(b.bodies, body)
	b.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

func (b *bodyTap) last() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bodies[len(b.bodies)-1]
}

// streamRecords reads every record the table's stream holds, from the
// start of each shard.
func streamRecords(t *testing.T, ctx context.Context, conn *data.Conn, table string) []st.Record {
	t.Helper()
	dt, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(dt.Table.LatestStreamArn)
	if arn == "" {
		t.Fatalf("%s has no stream", table)
	}
	ds, err := conn.Streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	var out []st.Record
	for _, sh := range ds.StreamDescription.Shards {
		it, err := conn.Streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: aws.String(arn), ShardId: sh.ShardId, ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		iter := it.ShardIterator
		// An open shard always hands back a next iterator; a few empty
		// reads in a row mean its end.
		for empty := 0; iter != nil && empty < 3; {
			gr, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				t.Fatal(err)
			}
			if len(gr.Records) == 0 {
				empty++
			}
			out = append(out, gr.Records...)
			iter = gr.NextShardIterator
		}
	}
	return out
}

// The probe of a write that is allowed answers "allowed" and changes
// nothing: the item's bytes as DynamoDB sends them are the same before and
// after, and the table's stream holds no record of it — while a real
// change made afterwards does show in the same stream, so the reading
// would have seen one.
func TestProbeOfAnAllowedWriteWritesNothing(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_probe"))
	tap := &bodyTap{op: "GetItem"}
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: tap}})
	if err != nil {
		t.Fatal(err)
	}
	table := w.tables.Name(data.TableSessions)
	getRaw := func() []byte {
		if _, err := conn.DB.GetItem(w.ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: sessionKey("sess_probe"), ConsistentRead: aws.Bool(true)}); err != nil {
			t.Fatal(err)
		}
		return tap.last()
	}
	before := getRaw()
	recsBefore := len(streamRecords(t, w.ctx, conn, table))

	p := w.plan(ReleaseSession, sessionKey("sess_probe"), Options{})
	perm := ProbeWrite(w.ctx, conn, w.tables, p, w.now)
	if !perm.Known || !perm.Allowed || perm.Denied != "" {
		t.Fatalf("probe: %+v", perm)
	}
	if after := getRaw(); !bytes.Equal(before, after) {
		t.Errorf("the probe changed the item:\n%s\n%s", before, after)
	}
	if n := len(streamRecords(t, w.ctx, conn, table)); n != recsBefore {
		t.Errorf("the probe left %d stream record(s)", n-recsBefore)
	}
	updates := 0
	for _, op := range tap.sent {
		if op == "UpdateItem" {
			updates++
		}
	}
	if updates != 1 {
		t.Errorf("the probe sent %d UpdateItem, want 1", updates)
	}

	// The stream read above does see a change: the probe's silence counts.
	w.update(data.TableSessions, sessionKey("sess_probe"), "SET #n = :v", map[string]string{"#n": "note"}, data.Item{":v": S("x")})
	if n := len(streamRecords(t, w.ctx, conn, table)); n != recsBefore+1 {
		t.Errorf("after a real change the stream holds %d new record(s), want 1", n-recsBefore)
	}
	// And the guarded write itself still goes through afterwards.
	p = w.plan(ReleaseSession, sessionKey("sess_probe"), Options{})
	exec := *w.exec
	exec.Conn = conn
	if r := exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("the write after the probe: %s", r.Message)
	}
}

// A write the policy refuses: the probe says so in the words of the
// refusal (action and resource), and the item is untouched.
func TestProbeOfARefusedWriteSaysWhich(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_probe_deny"))
	before := w.get(data.TableSessions, sessionKey("sess_probe_deny"))
	p := w.plan(ReleaseSession, sessionKey("sess_probe_deny"), Options{})
	d := &denyUpdates{}
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: d}})
	if err != nil {
		t.Fatal(err)
	}
	perm := ProbeWrite(w.ctx, conn, w.tables, p, w.now)
	if !perm.Known || perm.Allowed {
		t.Fatalf("probe: %+v", perm)
	}
	want := "not allowed: dynamodb:UpdateItem on table/" + w.tables.Name(data.TableSessions)
	if !strings.HasPrefix(perm.Denied, want) {
		t.Errorf("denied %q, want prefix %q", perm.Denied, want)
	}
	if d.calls != 1 {
		t.Errorf("UpdateItem sent %d times", d.calls)
	}
	if after := w.get(data.TableSessions, sessionKey("sess_probe_deny")); !sameItem(before, after) {
		t.Errorf("the item changed")
	}
}

// A probe that cannot tell (no server; read-only) claims nothing, and a
// read-only connection sends nothing at all.
func TestProbeThatCannotTellClaimsNothing(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_probe_ro"))
	p := w.plan(ReleaseSession, sessionKey("sess_probe_ro"), Options{})

	ctx, cancel := context.WithTimeout(w.ctx, 20*time.Second)
	defer cancel()
	down, err := data.ConnectLocal(ctx, "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	if perm := ProbeWrite(ctx, down, w.tables, p, w.now); perm.Known || perm.Err == nil {
		t.Errorf("unreachable: %+v", perm)
	}

	tap := &bodyTap{}
	ro, err := data.Connect(ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", ReadOnly: true, HTTPClient: &http.Client{Transport: tap}})
	if err != nil {
		t.Fatal(err)
	}
	if perm := ProbeWrite(ctx, ro, w.tables, p, w.now); perm.Known || perm.Err != data.ErrReadOnly {
		t.Errorf("read-only: %+v", perm)
	}
	if len(tap.sent) != 0 {
		t.Errorf("read-only probe sent %v", tap.sent)
	}
}
