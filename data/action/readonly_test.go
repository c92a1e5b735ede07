package action

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// recorder passes requests through to the real server and remembers the
// DynamoDB operation of each (the X-Amz-Target header).
type recorder struct {
	mu   sync.Mutex
	ops  []string
	next http.RoundTripper
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.ops = append(r.ops, req.Header.Get("X-Amz-Target"))
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ops...)
}

func TestReadOnlyExecuteSendsNoRequest(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rec := &recorder{next: http.DefaultTransport}
	connect := func(readOnly bool) *data.Conn {
		c, err := data.Connect(ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1",
			HTTPClient: &http.Client{Transport: rec}, ReadOnly: readOnly})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	now := time.Now()
	plans := []Plan{}
	for _, k := range []struct {
		kind Kind
		item data.Item
	}{
		{ReleaseSession, runningSession("sess_ro")},
		{RequeueEvent, failedEvent("ev-ro", 3)},
		{DeactivateAPIKey, apiKey("k-ro", "ACTIVE")},
		{MarkSandboxDeletion, allocatedSandbox("sb-ro", now)},
		{ExpireSandbox, expiredSandbox("sb-ro2", now)},
		{MarkRunFailed, stuckRun("r-ro", now.Add(-time.Hour))},
	} {
		p, err := PlanFor(k.kind, k.item, now, Options{})
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	tables, _ := data.ResolveTables("dev", nil)
	exec := &Executor{Conn: connect(true), Tables: tables.WithPrefix("readonly-never-created-"), Audit: openTestAudit(t)}

	for _, p := range plans {
		if r := exec.Execute(ctx, p); r.Err != data.ErrReadOnly || r.OK || r.Refusal != nil {
			t.Errorf("%s in read-only mode: %+v", p.Kind, r)
		}
	}
	if ops := rec.seen(); len(ops) != 0 {
		t.Fatalf("read-only mode sent %d requests: %v", len(ops), ops)
	}

	// Control: the same recorder on a writable connection does see the
	// UpdateItem, so the silence above is the read-only check at work.
	exec.Conn = connect(false)
	exec.Execute(ctx, plans[0])
	if ops := rec.seen(); len(ops) == 0 || ops[0] != "DynamoDB_20120810.UpdateItem" {
		t.Fatalf("writable connection sent %v, want one UpdateItem", ops)
	}
}
