package action

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// The answers a write can get, each injected by faultProxy on every try of
// an UpdateItem (reads pass through untouched, as they do on a network
// that loses one answer in a hundred).
type answer int

const (
	cleanOK        answer = iota // the server's 200, as it is
	cut2xx                       // the server applied it; its 200 is cut in half (the connection closes)
	garbage2xx                   // the server applied it; a 200 of garbage comes back
	damaged2xx                   // the server applied it; its 200 comes back with bytes overwritten
	resetBefore                  // the connection is reset; the server never saw the request
	resetAfter                   // the server applied it; the connection is reset before the answer
	refused4xx                   // the server refuses it: ConditionalCheckFailed (the item is gone)
	unreadable4xx                // the server applied it; a proxy's 400 page comes back
	error5xxBefore               // a 500, the server never saw the request
	error5xxAfter                // the server applied it; a 500 comes back
	throttled                    // a 400 ThrottlingException, the server never saw the request
	timeoutBefore                // the caller gives up (the proxy ends its context) before the server sees it
	timeoutAfter                 // the server applied it; the caller gives up while awaiting the answer
)

var answerNames = map[answer]string{
	cleanOK: "clean 2xx", cut2xx: "2xx cut short", garbage2xx: "2xx garbage", damaged2xx: "2xx damaged",
	resetBefore: "reset before sending", resetAfter: "reset after sending", refused4xx: "4xx refusal",
	unreadable4xx: "4xx unreadable", error5xxBefore: "5xx not applied", error5xxAfter: "5xx applied",
	throttled: "throttled", timeoutBefore: "timeout before the server", timeoutAfter: "timeout after the server",
}

// applied: the shape lets the write reach the server.
func (a answer) applied() bool {
	switch a {
	case cleanOK, cut2xx, garbage2xx, damaged2xx, resetAfter, unreadable4xx, error5xxAfter, timeoutAfter:
		return true
	}
	return false
}

// faultProxy is an HTTP proxy in front of the real DynamoDB Local that
// gives every UpdateItem the answer shape it is set to.
type faultProxy struct {
	srv     *httptest.Server
	backend string
	client  *http.Client

	mu      sync.Mutex
	shape   answer
	timeout context.CancelFunc // ends the caller's context (timeout shapes)
	updates int                // UpdateItem requests seen
}

func newFaultProxy(t *testing.T) *faultProxy {
	f := &faultProxy{backend: ddblocal.TestEndpoint(t), client: &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *faultProxy) set(a answer, timeout context.CancelFunc) {
	f.mu.Lock()
	f.shape, f.timeout = a, timeout
	f.mu.Unlock()
}

func (f *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	target := r.Header.Get("X-Amz-Target")
	f.mu.Lock()
	shape, timeout := f.shape, f.timeout
	update := strings.HasSuffix(target, ".UpdateItem")
	if update {
		f.updates++
	} else {
		shape = cleanOK
	}
	f.mu.Unlock()

	switch shape {
	case resetBefore:
		resetConn(w)
		return
	case error5xxBefore:
		awsError(w, 500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "Internal server error")
		return
	case throttled:
		awsError(w, 400, "com.amazonaws.dynamodb.v20120810#ThrottlingException", "Rate of requests exceeds the allowed throughput.")
		return
	case timeoutBefore:
		timeout()
		<-r.Context().Done()
		return
	}
	status, header, answer, err := f.forward(r, body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	switch shape {
	case cut2xx:
		w.Header().Set("Content-Type", header.Get("Content-Type"))
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.WriteHeader(status)
		_, _ = w.Write(answer[:len(answer)/2])
		// Returning short of Content-Length closes the connection.
	case garbage2xx:
		w.Header().Set("Content-Type", header.Get("Content-Type"))
		w.WriteHeader(status)
		_, _ = io.WriteString(w, "\x00\x17garbage<html>proxy says hi</html>")
	case damaged2xx:
		// A byte of the middle overwritten with NUL, which JSON allows
		// neither in a string nor between tokens: the answer no longer
		// parses, whatever the values.
		b := append([]byte(nil), answer...)
		b[len(b)/2] = 0
		w.Header().Set("Content-Type", header.Get("Content-Type"))
		w.WriteHeader(status)
		_, _ = w.Write(b)
	case resetAfter:
		resetConn(w)
	case unreadable4xx:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(400)
		_, _ = io.WriteString(w, "<html><body>400 Bad Request (proxy)</body></html>")
	case error5xxAfter:
		awsError(w, 500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "Internal server error")
	case timeoutAfter:
		timeout()
		<-r.Context().Done()
	default:
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		_, _ = w.Write(answer)
	}
}

// forward sends the request to DynamoDB Local and reads its whole answer.
func (f *faultProxy) forward(r *http.Request, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequestWithContext(context.WithoutCancel(r.Context()), r.Method, f.backend+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header = r.Header.Clone()
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b, err
}

// resetConn closes the client's connection with a TCP reset.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	conn.Close()
}

func awsError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"__type":%q,"message":%q}`, typ, msg)
}

// proxiedExecutor is an executor whose DynamoDB calls go through f and whose
// ECS calls go to rec, with the SDK's standard retries minus the waiting.
func proxiedExecutor(t *testing.T, w *world, f *faultProxy, rec *ecsRecorder) (*Executor, *AuditLog) {
	t.Helper()
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: f.srv.URL, Region: "us-east-1", ECSEndpoint: rec.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	conn.DB = dynamodb.New(conn.DB.Options(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.Backoff = noBackoff{}
			so.RateLimiter = ratelimit.None
		})
	})
	audit := openTestAudit(t)
	return &Executor{Conn: conn, Tables: w.tables, Audit: audit, Env: "dev", Now: func() time.Time { return w.now }}, audit
}

// expectation is what the operator must be told, and what must be on
// record, for one answer shape.
type expectation struct {
	landed  bool   // the write is on the item, and said to be
	message string // the status bar line, exactly, or its start when prefix
	prefix  bool
	result  string // the audit line's result, exactly, or its start when prefix
	list    string // the bulk summary's list
}

func expectFor(a answer, spec Spec, target string, pk string) expectation {
	done := spec.Done + " " + target
	reread := func(code int) expectation {
		how := recoveredOnReread
		if code != 0 {
			how = fmt.Sprintf(recoveredUnreadable, code)
		}
		msg := done + " (" + how + ")"
		return expectation{landed: true, message: msg, result: "ok: " + how, list: "succeeded"}
	}
	notAsReadBack := expectation{message: "not " + spec.Done + " as read back at ", prefix: true, result: "unknown: not " + spec.Done + " as read back at ", list: "unknown"}
	switch a {
	case cleanOK:
		return expectation{landed: true, message: done, result: "ok", list: "succeeded"}
	case cut2xx, garbage2xx, damaged2xx:
		return reread(200)
	case unreadable4xx:
		return reread(400)
	case resetAfter, error5xxAfter, timeoutAfter:
		return reread(0)
	case refused4xx:
		return expectation{message: spec.NotDone("the item no longer exists"), result: "guard failed: ", prefix: true, list: "guard failed"}
	case throttled:
		return expectation{message: spec.NotDone("throttled by DynamoDB on "), prefix: true, result: "error: throttled by DynamoDB on ", list: "errors"}
	}
	return notAsReadBack
}

func (e expectation) matches(got, want string, prefix bool) bool {
	if prefix {
		return strings.HasPrefix(got, want)
	}
	return got == want
}

// Every answer shape a write can get, for every action, one row and
// marked rows (run one after another as the UI runs them): what the
// operator is told, the audit line, and the step after the write (a
// release's StopTask, recorded by the ECS stand-in) only when the write
// landed. A write that landed is never reported as not done.
func TestEveryAnswerAWriteCanGet(t *testing.T) {
	shapes := []answer{cleanOK, cut2xx, garbage2xx, damaged2xx, resetBefore, resetAfter, refused4xx, unreadable4xx,
		error5xxBefore, error5xxAfter, throttled, timeoutBefore, timeoutAfter}
	for _, spec := range Specs() {
		t.Run(string(spec.Kind), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, spec.Table)
			rec := newECSRecorder(t, false)
			proxy := newFaultProxy(t)
			exec, audit := proxiedExecutor(t, w, proxy, rec)
			pk := data.MustSchema(spec.Table).PK.Name
			for _, a := range shapes {
				for _, rows := range []int{1, 2} {
					name := fmt.Sprintf("%s, %d row(s)", answerNames[a], rows)
					var plans []Plan
					for i := 0; i < rows; i++ {
						id := fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(answerNames[a], " ", "_"), rows, i)
						item := sampleItem(spec.Kind, id, w.now)
						if item == nil {
							t.Fatalf("no sample item for %s", spec.Kind)
						}
						w.put(spec.Table, item)
						plans = append(plans, w.plan(spec.Kind, data.KeyOf(spec.Table, item), Options{}))
						if a == refused4xx {
							w.del(spec.Table, data.KeyOf(spec.Table, item))
						}
					}
					stopsBefore, _ := rec.requests()
					linesBefore, _ := ReadAudit(audit.Path(), 0)
					sum := BulkSummary{Total: rows}
					for _, p := range plans {
						ctx, cancel := context.WithCancel(w.ctx)
						proxy.set(a, cancel)
						r := exec.Execute(ctx, p)
						cancel()
						proxy.set(cleanOK, nil)
						sum.Add(r)
						checkAnswer(t, name, w, spec, p, r, expectFor(a, spec, p.Target, pk))
					}
					// The audit lines of this case, in order: the write's,
					// then the step's when it landed and the action has one.
					lines, _ := ReadAudit(audit.Path(), 0)
					lines = lines[len(linesBefore):]
					i := 0
					for _, p := range plans {
						want := expectFor(a, spec, p.Target, pk)
						if i >= len(lines) {
							t.Errorf("%s: %s: no audit line", name, p.Target)
							break
						}
						l := lines[i]
						i++
						if l.Step != "" || l.Target != p.Target || !want.matches(l.Result, want.result, want.prefix) || l.Values[":attempt"] == nil {
							t.Errorf("%s: %s: audit line %q %q (step %q), want %q", name, p.Target, l.Target, l.Result, l.Step, want.result)
						}
						if want.landed && spec.Then != nil {
							if i >= len(lines) || lines[i].Step != spec.Then.Name || lines[i].Result != "ok" || lines[i].Target != p.Target {
								t.Errorf("%s: %s: no step line after the write's", name, p.Target)
							}
							i++
						}
					}
					if i != len(lines) {
						t.Errorf("%s: %d audit lines, want %d", name, len(lines), i)
					}
					stops, others := rec.requests()
					wantStops := 0
					if want := expectFor(a, spec, "", pk); want.landed && spec.Then != nil {
						wantStops = rows
					}
					if got := len(stops) - len(stopsBefore); got != wantStops || len(others) != 0 {
						t.Errorf("%s: %d StopTask sent (and %v), want %d", name, got, others, wantStops)
					}
					lists := map[string]int{"succeeded": len(sum.Succeeded), "guard failed": len(sum.GuardFailed), "unknown": len(sum.Unknown), "errors": len(sum.Errors)}
					if want := expectFor(a, spec, "", pk).list; lists[want] != rows {
						t.Errorf("%s: bulk summary %v, want all %d under %s", name, lists, rows, want)
					}
				}
			}
			if proxy.updates == 0 {
				t.Fatal("no UpdateItem went through the proxy")
			}
		})
	}
}

func checkAnswer(t *testing.T, name string, w *world, spec Spec, p Plan, r Result, want expectation) {
	t.Helper()
	if !want.matches(r.Message, want.message, want.prefix) {
		t.Errorf("%s: message %q, want %q", name, r.Message, want.message)
	}
	if r.OK != want.landed {
		t.Errorf("%s: OK=%v, want %v (message %q)", name, r.OK, want.landed, r.Message)
	}
	got := w.get(spec.Table, p.Key)
	on := got != nil && carriesAttempt(got, r.Attempt)
	if on != want.landed {
		t.Errorf("%s: the item carries the attempt: %v, want %v", name, on, want.landed)
	}
	if on && strings.HasPrefix(r.Message, "not ") {
		t.Errorf("%s: a write that landed is reported as not done: %q", name, r.Message)
	}
	if hasStep := r.Then != nil; hasStep != (want.landed && spec.Then != nil) {
		t.Errorf("%s: step after the write ran: %v (%+v)", name, hasStep, r.Then)
	} else if hasStep && !r.Then.OK {
		t.Errorf("%s: step failed: %s", name, r.Then.Message)
	}
}
