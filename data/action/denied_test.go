package action

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// denyUpdates answers every UpdateItem the way DynamoDB does when the
// role lacks dynamodb:UpdateItem; the rest reaches the real server.
type denyUpdates struct{ calls int }

func (d *denyUpdates) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") {
		return http.DefaultTransport.RoundTrip(req)
	}
	d.calls++
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#AccessDeniedException","message":"User: arn:aws:iam::123:user/x is not authorized to perform: dynamodb:UpdateItem on resource: arn:aws:dynamodb:us-east-1:123:table/t"}`
	return &http.Response{
		StatusCode: 400, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:    io.NopCloser(strings.NewReader(body)),
		Request: req, ContentLength: int64(len(body)),
	}, nil
}

// A write refused for permission is a clean refusal: not reported done,
// not "outcome unknown", the line names the missing permission, and the
// item is as it was.
func TestAWriteRefusedForPermissionIsNotDone(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_deny"))
	before := w.get(data.TableSessions, sessionKey("sess_deny"))
	p := w.plan(ReleaseSession, sessionKey("sess_deny"), Options{})

	d := &denyUpdates{}
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: d}})
	if err != nil {
		t.Fatal(err)
	}
	exec := *w.exec
	exec.Conn = conn
	r := exec.Execute(w.ctx, p)
	if r.OK || r.Unknown || r.Refusal != nil || !data.IsAccessDenied(r.Err) {
		t.Fatalf("result: OK=%v Unknown=%v Refusal=%v Err=%v", r.OK, r.Unknown, r.Refusal, r.Err)
	}
	want := "not released: not allowed: dynamodb:UpdateItem on table/" + w.tables.Name(data.TableSessions) + " (AccessDeniedException: "
	if !strings.HasPrefix(r.Message, want) {
		t.Errorf("message %q\n   want prefix %q", r.Message, want)
	}
	if d.calls != 1 {
		t.Errorf("UpdateItem sent %d times; a refusal is not retried", d.calls)
	}
	if after := w.get(data.TableSessions, sessionKey("sess_deny")); !sameItem(before, after) {
		t.Errorf("the item changed:\n%v\n%v", before, after)
	}
}
