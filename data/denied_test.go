package data

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aws/smithy-go"
)

// denyTransport stands in front of the real server like an IAM policy that
// lacks one permission: a request for op on table is answered with
// DynamoDB's own AccessDeniedException (HTTP 400, the real body shape);
// every other request is forwarded.
type denyTransport struct {
	op, table string
	mu        sync.Mutex
	denied    int
}

func (d *denyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	var in struct{ TableName, IndexName string }
	_ = json.Unmarshal(body, &in)
	if op != d.op || in.TableName != d.table {
		return http.DefaultTransport.RoundTrip(req)
	}
	d.mu.Lock()
	d.denied++
	d.mu.Unlock()
	resource := "arn:aws:dynamodb:us-east-1:123:table/" + in.TableName
	if in.IndexName != "" {
		resource += "/index/" + in.IndexName
	}
	msg := fmt.Sprintf("User: arn:aws:iam::123:user/x is not authorized to perform: dynamodb:%s on resource: %s because no identity-based policy allows the dynamodb:%s action", op, resource, op)
	out := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#AccessDeniedException","message":%q}`, msg)
	return &http.Response{
		StatusCode: 400, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:    io.NopCloser(strings.NewReader(out)),
		Request: req, ContentLength: int64(len(out)),
	}, nil
}

// A Query refused for want of dynamodb:Query on one index says which
// action on which resource, first, in IAM's form; the server's own text
// follows for :messages. The other tables answer as before.
func TestAccessDeniedNamesActionAndResource(t *testing.T) {
	d := &denyTransport{op: "Query"}
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: d}})
	d.table = db.tables.Name(TableSandboxes)
	ctx := context.Background()
	db.put(TableSandboxes, sandboxItem("s1", "available", "", 0))
	db.put(TableSessions, runningSessions(2)...)

	_, err := db.store.Page(ctx, SandboxesByStatus("available"), PageRequest{})
	if !IsAccessDenied(err) {
		t.Fatalf("err = %v, want access denied", err)
	}
	want := "not allowed: dynamodb:Query on table/" + d.table + "/index/StatusIndex"
	line := Describe(err)
	if !strings.HasPrefix(line, want+" (AccessDeniedException: User: arn:aws:iam::123:user/x is not authorized") ||
		!strings.Contains(line, "because no identity-based policy allows") {
		t.Errorf("Describe = %q\n   want it to start %q and keep the server's text", line, want)
	}
	if d.denied != 1 {
		t.Errorf("denied %d times: an AccessDenied must not be retried", d.denied)
	}

	// The sessions table is not denied: its pane keeps working.
	p, err := db.store.Page(ctx, SessionsByStatus("RUNNING"), PageRequest{})
	if err != nil || len(p.Items) != 2 {
		t.Fatalf("sessions: %d items, %v", len(p.Items), err)
	}
}

// Without an OpError (the stream reader's calls) the action and resource
// come from the server's text; a stream label's own colons survive.
func TestAccessDeniedFromServerTextAlone(t *testing.T) {
	arn := "arn:aws:dynamodb:us-east-1:123:table/SandboxPool/stream/2026-11-27T13:20:20.123"
	err := &smithy.GenericAPIError{Code: "AccessDeniedException",
		Message: "User: arn:aws:iam::123:user/x is not authorized to perform: dynamodb:GetRecords on resource: " + arn}
	want := "not allowed: dynamodb:GetRecords on table/SandboxPool/stream/2026-11-27T13:20:20.123 (AccessDeniedException: "
	if got := Describe(err); !strings.HasPrefix(got, want) {
		t.Errorf("Describe = %q, want prefix %q", got, want)
	}
	// An action with no resource named (ECS's StopTask) is still named.
	err = &smithy.GenericAPIError{Code: "AccessDeniedException",
		Message: "User: arn:aws:sts::1:assumed-role/oncall/alice is not authorized to perform: ecs:StopTask"}
	if got := Describe(err); !strings.HasPrefix(got, "not allowed: ecs:StopTask (AccessDeniedException: User: ") {
		t.Errorf("Describe = %q", got)
	}
	// A text that names nothing still says what kind of refusal it is.
	err = &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "denied"}
	if got := Describe(err); got != "not allowed (AccessDeniedException: denied)" {
		t.Errorf("Describe = %q", got)
	}
	// Credentials refused outright are not a missing permission.
	err = &smithy.GenericAPIError{Code: "UnrecognizedClientException", Message: "The security token included in the request is invalid."}
	if got := Describe(err); !strings.HasPrefix(got, "access denied (UnrecognizedClientException)") {
		t.Errorf("Describe = %q", got)
	}
}
