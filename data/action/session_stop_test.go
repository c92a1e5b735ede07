package action

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// ecsRecorder stands in for ECS, which has no emulator: it records every
// request and answers StopTask as ECS does, or refuses it as a role without
// ecs:StopTask is refused. It is the one stand-in the tests use, and only
// for ECS.
type ecsRecorder struct {
	srv    *httptest.Server
	deny   bool
	mu     sync.Mutex
	stops  []stopRequest
	others []string // any request that is not a well-formed StopTask
}

type stopRequest struct {
	Target, ContentType, Auth string
	Body                      map[string]any
}

func newECSRecorder(t *testing.T, deny bool) *ecsRecorder {
	r := &ecsRecorder{deny: deny}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		raw, _ := io.ReadAll(req.Body)
		var body map[string]any
		target := req.Header.Get("X-Amz-Target")
		r.mu.Lock()
		if req.Method != http.MethodPost || json.Unmarshal(raw, &body) != nil {
			r.others = append(r.others, req.Method+" "+req.URL.Path+" "+target)
		} else {
			r.stops = append(r.stops, stopRequest{Target: target, ContentType: req.Header.Get("Content-Type"), Auth: req.Header.Get("Authorization"), Body: body})
		}
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		if r.deny {
			w.Header().Set("X-Amzn-Errortype", "AccessDeniedException")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"__type":"AccessDeniedException","message":"User: arn:aws:sts::1:assumed-role/oncall/alice is not authorized to perform: ecs:StopTask"}`)
			return
		}
		task, _ := body["task"].(string)
		_ = json.NewEncoder(w).Encode(map[string]any{"task": map[string]any{"taskArn": task, "lastStatus": "RUNNING", "desiredStatus": "STOPPED"}})
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *ecsRecorder) requests() ([]stopRequest, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]stopRequest(nil), r.stops...), append([]string(nil), r.others...)
}

// ecsWorld is a world whose connection sends ECS calls to rec.
func ecsWorld(t *testing.T, rec *ecsRecorder) *world {
	w := newWorld(t, data.TableSessions)
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", ECSEndpoint: rec.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	w.conn = conn
	w.exec.Conn = conn
	return w
}

const testTaskArn = "arn:aws:ecs:us-east-1:123456789012:task/wallcrawler-browsers/0f1e2d3c4b5a69788796a5b4c3d2e1f0"

func sessionWithTask(id string) data.Item {
	s := runningSession(id)
	s["ecsTaskArn"] = S(testTaskArn)
	return s
}

func TestReleaseStopsTheTaskWithTheExactStopTaskRequest(t *testing.T) {
	rec := newECSRecorder(t, false)
	w := ecsWorld(t, rec)
	audit := openTestAudit(t)
	w.exec.Audit = audit
	w.put(data.TableSessions, sessionWithTask("sess_stop"))
	p := w.plan(ReleaseSession, sessionKey("sess_stop"), Options{Operator: Operator{User: "alice@box"}})
	wantReason := "Session sess_stop released by alice@box via opsdeck"
	if want := `Stop the session's ECS task: StopTask cluster wallcrawler-browsers, task 0f1e2d3c4b5a69788796a5b4c3d2e1f0, reason "` + wantReason + `"`; p.Then != want {
		t.Errorf("the dialog's second step:\n got %q\nwant %q", p.Then, want)
	}
	if stops, _ := rec.requests(); len(stops) != 0 {
		t.Fatalf("planning sent %d StopTask", len(stops))
	}

	r := w.exec.Execute(w.ctx, p)
	if !r.OK || r.Then == nil || !r.Then.OK {
		t.Fatalf("OK=%v Then=%+v message %q", r.OK, r.Then, r.Message)
	}
	stops, others := rec.requests()
	if len(others) != 0 || len(stops) != 1 {
		t.Fatalf("ECS got %d StopTask and %v", len(stops), others)
	}
	got := stops[0]
	if got.Target != "AmazonEC2ContainerServiceV20141113.StopTask" {
		t.Errorf("X-Amz-Target = %q", got.Target)
	}
	if got.ContentType != "application/x-amz-json-1.1" {
		t.Errorf("Content-Type = %q", got.ContentType)
	}
	if !strings.Contains(got.Auth, "/us-east-1/ecs/aws4_request") {
		t.Errorf("not signed for ECS in us-east-1: %q", got.Auth)
	}
	want := map[string]any{"cluster": "wallcrawler-browsers", "task": testTaskArn, "reason": wantReason}
	if len(got.Body) != len(want) {
		t.Errorf("StopTask body has fields %v, want exactly %v", got.Body, want)
	}
	for k, v := range want {
		if got.Body[k] != v {
			t.Errorf("StopTask %s = %v, want %v", k, got.Body[k], v)
		}
	}
	if r.Then.Message != "ECS task 0f1e2d3c4b5a69788796a5b4c3d2e1f0 in wallcrawler-browsers is stopping" {
		t.Errorf("step message %q", r.Then.Message)
	}
	entries, _ := ReadAudit(audit.Path(), 2)
	if len(entries) != 2 || entries[0].Result != "ok" || entries[1].Step != "stop-ecs-task" || entries[1].Result != "ok" ||
		entries[1].Values["cluster"] != "wallcrawler-browsers" || entries[1].Values["task"] != testTaskArn || entries[1].Values["reason"] != wantReason {
		t.Errorf("audit lines: %+v", entries)
	}
	expectServiceShapedRelease(t, w.get(data.TableSessions, sessionKey("sess_stop")), w, "alice@box")
}

// expectServiceShapedRelease checks the released row as Wallcrawler's own
// readers see it: the end state, and a last eventHistory entry in the
// service's SessionEvent shape whose timestamp is lastEventTimestamp.
func expectServiceShapedRelease(t *testing.T, got data.Item, w *world, operator string) {
	t.Helper()
	at := w.now.UTC().Format("2006-01-02T15:04:05Z07:00")
	if attrS(t, got, "status") != "COMPLETED" || attrS(t, got, "internalStatus") != "STOPPED" ||
		attrS(t, got, "lastEventTimestamp") != at || attrS(t, got, "updatedAt") != at {
		t.Errorf("end state: %v", got)
	}
	if data.SDKStatus(attrS(t, got, "status"), attrS(t, got, "internalStatus")) != data.SessionCompleted {
		t.Errorf("the SDK mapping does not read the row as COMPLETED")
	}
	hist := got["eventHistory"].(*types.AttributeValueMemberL).Value
	last := hist[len(hist)-1].(*types.AttributeValueMemberM).Value
	if len(last) != 4 {
		t.Errorf("entry has attributes %v, want eventType, timestamp, source, detail", last)
	}
	for attr, want := range map[string]string{"eventType": "SessionTerminated", "timestamp": at, "source": "opsdeck"} {
		if v := attrS(t, last, attr); v != want {
			t.Errorf("entry.%s = %q, want %q", attr, v, want)
		}
	}
	detail, ok := last["detail"].(*types.AttributeValueMemberM)
	if !ok {
		t.Fatalf("entry.detail is %s", data.TypeName(last["detail"]))
	}
	for attr, want := range map[string]string{"reason": "operator_requested", "operator": operator, "sessionId": attrS(t, got, "sessionId")} {
		if v := attrS(t, detail.Value, attr); v != want {
			t.Errorf("entry.detail.%s = %q, want %q", attr, v, want)
		}
	}
}

func TestAFailedStopLeavesTheReleaseAndSaysHowToStopTheTask(t *testing.T) {
	rec := newECSRecorder(t, true)
	w := ecsWorld(t, rec)
	audit := openTestAudit(t)
	w.exec.Audit = audit
	w.put(data.TableSessions, sessionWithTask("sess_denied"))
	r := w.exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_denied"), Options{Operator: Operator{User: "alice@box"}}))
	if !r.OK || r.Refusal != nil || r.Err != nil {
		t.Fatalf("the write must stand: OK=%v Refusal=%v Err=%v", r.OK, r.Refusal, r.Err)
	}
	if r.Then == nil || r.Then.OK {
		t.Fatalf("Then = %+v, want a failed step", r.Then)
	}
	if stops, _ := rec.requests(); len(stops) != 1 {
		t.Fatalf("%d StopTask sent, want 1", len(stops))
	}
	wantCmd := "aws ecs stop-task --cluster wallcrawler-browsers --task " + testTaskArn +
		" --reason 'Session sess_denied released by alice@box via opsdeck' --region us-east-1"
	if !strings.HasPrefix(r.Then.Message, "the task still runs: StopTask failed (AccessDeniedException: User: arn:aws:sts::1:assumed-role/oncall/alice is not authorized") ||
		!strings.HasSuffix(r.Then.Message, "; stop it with "+wantCmd) {
		t.Errorf("step message:\n%s\nwant it to say the task still runs and end with\n%s", r.Then.Message, wantCmd)
	}
	if r.Message != "released sess_denied" {
		t.Errorf("the write's message %q", r.Message)
	}
	expectServiceShapedRelease(t, w.get(data.TableSessions, sessionKey("sess_denied")), w, "alice@box")
	entries, _ := ReadAudit(audit.Path(), 2)
	if len(entries) != 2 || entries[0].Result != "ok" || entries[1].Step != "stop-ecs-task" ||
		!strings.HasPrefix(entries[1].Result, "error: ") || !strings.Contains(entries[1].Result, "AccessDenied") ||
		!strings.Contains(entries[1].Message, wantCmd) {
		t.Errorf("audit lines: %+v", entries)
	}
}

func TestAReleaseWithoutATaskArnSaysTheTaskIsNotStopped(t *testing.T) {
	rec := newECSRecorder(t, false)
	w := ecsWorld(t, rec)
	w.put(data.TableSessions, runningSession("sess_notask"))
	p := w.plan(ReleaseSession, sessionKey("sess_notask"), Options{})
	if !strings.Contains(p.Then, "not possible: the session has no ecsTaskArn") {
		t.Errorf("the dialog does not say the stop is impossible: %q", p.Then)
	}
	r := w.exec.Execute(w.ctx, p)
	if !r.OK || r.Then == nil || r.Then.OK || !strings.HasPrefix(r.Then.Message, "the task still runs if there is one: the session has no ecsTaskArn") {
		t.Fatalf("OK=%v Then=%+v", r.OK, r.Then)
	}
	if stops, others := rec.requests(); len(stops)+len(others) != 0 {
		t.Errorf("ECS was called without a task: %v %v", stops, others)
	}
}

// The ECS endpoint follows the SDK's conventions; the DynamoDB endpoint is
// never used for ECS.
func TestTheECSEndpointFollowsTheSDKConventions(t *testing.T) {
	rec := newECSRecorder(t, false)
	w := newWorld(t, data.TableSessions)
	t.Setenv("AWS_ENDPOINT_URL_ECS", rec.srv.URL)
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if conn.ECSEndpoint != rec.srv.URL {
		t.Errorf("ECSEndpoint = %q, want the environment's %q", conn.ECSEndpoint, rec.srv.URL)
	}
	w.exec.Conn = conn
	w.put(data.TableSessions, sessionWithTask("sess_env"))
	if r := w.exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_env"), Options{})); r.Then == nil || !r.Then.OK {
		t.Fatalf("Then = %+v", r.Then)
	}
	if stops, _ := rec.requests(); len(stops) != 1 {
		t.Errorf("AWS_ENDPOINT_URL_ECS got %d StopTask", len(stops))
	}

	t.Setenv("AWS_ENDPOINT_URL_ECS", "")
	t.Setenv("AWS_ENDPOINT_URL", "")
	conn, err = data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if conn.ECSEndpoint != "" {
		t.Errorf("with only a DynamoDB endpoint, ECSEndpoint = %q, want AWS's default", conn.ECSEndpoint)
	}
}

func TestParseTaskArn(t *testing.T) {
	for _, tc := range []struct{ arn, cluster, id, region, err string }{
		{testTaskArn, "wallcrawler-browsers", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "us-east-1", ""},
		{"arn:aws-cn:ecs:cn-north-1:1:task/c/abc", "c", "abc", "cn-north-1", ""},
		{"arn:aws:ecs:us-east-1:1:task/abc", "", "", "", "old format"},
		{"arn:aws:ecs:us-east-1:1:service/c/abc", "", "", "", "not an ECS task ARN"},
		{"task/c/abc", "", "", "", "not an ECS task ARN"},
		{"arn:aws:ecs:us-east-1:1:task/c/", "", "", "", "not an ECS task ARN"},
	} {
		ref, err := parseTaskArn(tc.arn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.arn, err, tc.err)
			}
			continue
		}
		if err != nil || ref.cluster != tc.cluster || ref.id != tc.id || ref.region != tc.region || ref.arn != tc.arn {
			t.Errorf("%s: %+v %v", tc.arn, ref, err)
		}
	}
}

func TestStopTaskCommandQuotesForTheShell(t *testing.T) {
	got := stopTaskCommand("c", "arn:aws:ecs:r:1:task/c/x", "Session s released by o'brien@box via opsdeck", "eu-west-1", &data.Conn{Profile: "on call"})
	want := `aws ecs stop-task --cluster c --task arn:aws:ecs:r:1:task/c/x --reason 'Session s released by o'\''brien@box via opsdeck' --region eu-west-1 --profile 'on call'`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}
