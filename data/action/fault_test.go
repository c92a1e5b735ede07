package action

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// throttler answers every request the way DynamoDB does when a partition is
// over its limit, so the SDK's retries run out and Execute must report it.
type throttler struct{}

func (throttler) RoundTrip(req *http.Request) (*http.Response, error) {
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`
	return &http.Response{
		StatusCode: 400,
		Header:     http.Header{"Content-Type": []string{"application/x-amz-json-1.0"}, "X-Amzn-Requestid": []string{"t"}},
		Body:       io.NopCloser(strings.NewReader(body)),
		Request:    req,
	}, nil
}

func TestExecuteReportsInfrastructureFailuresClearly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	now := time.Now()
	p, err := PlanFor(ReleaseSession, runningSession("sess_f"), now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := data.ResolveTables("dev", nil)

	conn, err := data.Connect(ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: throttler{}}})
	if err != nil {
		t.Fatal(err)
	}
	audit := openTestAudit(t)
	exec := &Executor{Conn: conn, Tables: tables, Audit: audit}
	r := exec.Execute(ctx, p)
	if r.OK || r.Refusal != nil || !data.IsThrottled(r.Err) {
		t.Fatalf("throttled: %+v", r)
	}
	if !strings.HasPrefix(r.Message, "not released: throttled by DynamoDB on wallcrawler-sessions") {
		t.Errorf("message %q", r.Message)
	}

	// The table does not exist: a clear line, not a guard failure.
	real, err := data.ConnectLocal(ctx, ddblocal.TestEndpoint(t))
	if err != nil {
		t.Fatal(err)
	}
	exec.Conn = real
	exec.Tables = tables.WithPrefix("never-created-")
	r = exec.Execute(ctx, p)
	if r.OK || r.Refusal != nil || !data.IsNotFound(r.Err) || !strings.Contains(r.Message, "never-created-wallcrawler-sessions does not exist") {
		t.Errorf("missing table: %+v", r)
	}

	entries, _ := ReadAudit(audit.Path(), 0)
	if len(entries) != 2 || !strings.HasPrefix(entries[0].Result, "error: throttled") || !strings.HasPrefix(entries[1].Result, "error: table ") {
		t.Errorf("audit: %+v", entries)
	}
}
