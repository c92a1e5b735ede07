package action

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// lossy sits in front of the real DynamoDB Local and loses answers the way
// a network does: the request reaches the server and is applied, the
// response never comes back (the connection is reset while reading it).
type lossy struct {
	base http.RoundTripper
	// dropFirst loses the answer to the first try of each distinct
	// UpdateItem (a retry, byte for byte the same request, gets through).
	dropFirst bool
	// dropAll loses every UpdateItem answer, so the SDK's retries run out.
	dropAll bool
	// cutAfterWrite: after the first UpdateItem reached the server, no
	// request reaches it any more (the network went away).
	cutAfterWrite bool
	// neverSend: UpdateItem never reaches the server, and the client
	// cannot tell (the connection is reset).
	neverSend bool
	// neverConnect: UpdateItem fails to connect (a dial error), which the
	// client knows sent nothing.
	neverConnect bool

	mu      sync.Mutex
	seen    map[[32]byte]bool
	dropped int
	cut     bool
}

func (l *lossy) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	body, _ := io.ReadAll(req.Body)
	req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(body))
	sum := sha256.Sum256(body)

	l.mu.Lock()
	cut := l.cut
	first := !l.seen[sum]
	l.seen[sum] = true
	l.mu.Unlock()

	if cut || (op == "UpdateItem" && l.neverSend) {
		return nil, reset()
	}
	if op == "UpdateItem" && l.neverConnect {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	resp, err := l.base.RoundTrip(req)
	if err != nil || op != "UpdateItem" || !(l.dropAll || (l.dropFirst && first) || l.cutAfterWrite) {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	l.mu.Lock()
	l.dropped++
	l.cut = l.cutAfterWrite
	l.mu.Unlock()
	return nil, reset()
}

func reset() error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
}

type noBackoff struct{}

func (noBackoff) BackoffDelay(int, error) (time.Duration, error) { return 0, nil }

// lossyExecutor is w's executor over a connection through l, with the SDK's
// standard retries (3 attempts) minus the waiting between them.
func lossyExecutor(t *testing.T, w *world, l *lossy) (*Executor, *AuditLog) {
	t.Helper()
	l.base = http.DefaultTransport.(*http.Transport).Clone()
	l.seen = map[[32]byte]bool{}
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: l}})
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

// The server applies the release, the answer is lost, the SDK's retry finds
// the guard broken by our own write: that is a success, reported and
// audited as one, not "not released: already released".
func TestLostResponseIsRecognisedAsOurOwnWrite(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_lost"))
	l := &lossy{dropFirst: true}
	exec, audit := lossyExecutor(t, w, l)

	r := exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_lost"), Options{}))
	if l.dropped != 1 {
		t.Fatalf("%d answers lost, want 1", l.dropped)
	}
	if !r.OK || r.Refusal != nil || r.Recovered != recoveredOnRetry {
		t.Fatalf("OK=%v Refusal=%v Recovered=%q Message=%q", r.OK, r.Refusal, r.Recovered, r.Message)
	}
	if want := "released sess_lost (response lost, the retry found this attempt's write on the item)"; r.Message != want {
		t.Errorf("message %q, want %q", r.Message, want)
	}
	got := w.get(data.TableSessions, sessionKey("sess_lost"))
	if attrS(t, got, "status") != "COMPLETED" || attrS(t, got, AttemptAttr) != r.Attempt || historyLen(t, got) != 2 {
		t.Errorf("item after the release: %v", got)
	}
	if len(r.Current) == 0 || attrS(t, r.Current, "status") != "COMPLETED" {
		t.Errorf("Current is not the item as written: %v", r.Current)
	}
	for _, pr := range data.Decode(data.TableSessions, got).Issues() {
		if pr.Attr == AttemptAttr {
			t.Errorf("the token is flagged on the row: %s", pr)
		}
	}
	entries := writeLines(t, audit.Path())
	if len(entries) != 1 || entries[0].Result != "ok: "+recoveredOnRetry || entries[0].Message != r.Message ||
		entries[0].Values[":attempt"] != r.Attempt {
		t.Errorf("audit: %+v", entries)
	}
}

// Over marked rows (run one after another, as the UI does), every row whose
// answer was lost is counted as what it is.
func TestLostResponsesInBulkAreCountedAsWritten(t *testing.T) {
	w := newWorld(t, data.TableSessions, data.TableSandboxes)
	var plans []Plan
	for _, id := range []string{"sess_l0", "sess_l1", "sess_l2", "sess_l3", "sess_l4", "sess_l5", "sess_l6", "sess_l7", "sess_l8", "sess_l9"} {
		w.put(data.TableSessions, runningSession(id))
		plans = append(plans, w.plan(ReleaseSession, sessionKey(id), Options{}))
	}
	l := &lossy{dropFirst: true}
	exec, audit := lossyExecutor(t, w, l)
	s := BulkSummary{Total: len(plans)}
	for _, p := range plans {
		s.Add(exec.Execute(w.ctx, p))
	}
	if l.dropped != 10 || len(s.Succeeded) != 10 || len(s.GuardFailed)+len(s.Errors)+len(s.Unknown) != 0 {
		t.Fatalf("%d lost: %d ok, %d guard, %d unknown, %d errors", l.dropped, len(s.Succeeded), len(s.GuardFailed), len(s.Unknown), len(s.Errors))
	}
	entries := writeLines(t, audit.Path())
	if len(entries) != 10 {
		t.Fatalf("%d audit lines", len(entries))
	}
	for i, e := range entries {
		if e.Result != "ok: "+recoveredOnRetry || e.Target != plans[i].Target {
			t.Errorf("audit line %d: %s %s", i, e.Target, e.Result)
		}
	}

	// Every transition writes its token: a sandbox, too.
	w.put(data.TableSandboxes, allocatedSandbox("sb-lost", w.now))
	r := exec.Execute(w.ctx, w.plan(MarkSandboxDeletion, sandboxKey("sb-lost"), Options{}))
	if !r.OK || r.Recovered == "" {
		t.Errorf("sandbox: %q", r.Message)
	}
}

// When every answer is lost the SDK gives up with a network error; the item,
// read back, carries our token, so the write is reported as done.
func TestEveryAnswerLostIsSettledByReadingTheItem(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	w.put(data.TableEvents, failedEvent("ev-lost", 1))
	exec, audit := lossyExecutor(t, w, &lossy{dropAll: true})
	r := exec.Execute(w.ctx, w.plan(MarkEventDelivered, eventKey("ev-lost"), Options{}))
	if !r.OK || r.Recovered != recoveredOnReread || r.Err != nil {
		t.Fatalf("OK=%v Recovered=%q Err=%v Message=%q", r.OK, r.Recovered, r.Err, r.Message)
	}
	if got := w.get(data.TableEvents, eventKey("ev-lost")); attrS(t, got, "status") != "delivered" || attrN(t, got, "retry_count") != "1" {
		t.Errorf("after the lost answers: %v", got)
	}
	entries, _ := ReadAudit(audit.Path(), 0)
	if len(entries) != 1 || entries[0].Result != "ok: "+recoveredOnReread {
		t.Errorf("audit: %+v", entries)
	}
}

// A try that went unanswered may still be on its way when the item is read
// back without it: it was not applied as of that read, and it could still
// land (its guard holds on the item as well as on the one seen). The
// console says exactly that, and never a plain "not released".
func TestAnUnansweredWriteNotOnTheItemMayStillLand(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_never"))
	exec, audit := lossyExecutor(t, w, &lossy{neverSend: true})
	r := exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_never"), Options{}))
	want := "not released as read back at " + showTime(w.now, w.now) + " — the unanswered request could still land; check the row ("
	if r.OK || !r.Unknown || r.Refusal != nil || r.ReadBackAt.IsZero() || !strings.HasPrefix(r.Message, want) {
		t.Fatalf("OK=%v Unknown=%v ReadBackAt=%v Message=%q", r.OK, r.Unknown, r.ReadBackAt, r.Message)
	}
	if attrS(t, r.Current, "status") != "RUNNING" {
		t.Errorf("Current is not the item read back: %v", r.Current)
	}
	if attrS(t, w.get(data.TableSessions, sessionKey("sess_never")), "status") != "RUNNING" {
		t.Errorf("the session was written")
	}
	entries, _ := ReadAudit(audit.Path(), 0)
	if len(entries) != 1 || entries[0].Result != "unknown: "+r.Message {
		t.Errorf("audit: %+v", entries)
	}
}

// A try that could not even connect never left the process: that, and only
// that, is a plain "not released".
func TestAWriteThatNeverConnectedIsReportedAsNotDone(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_noconn"))
	exec, audit := lossyExecutor(t, w, &lossy{neverConnect: true})
	r := exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_noconn"), Options{}))
	if r.OK || r.Unknown || r.Err == nil || !strings.HasPrefix(r.Message, "not released: ") {
		t.Fatalf("OK=%v Unknown=%v Message=%q", r.OK, r.Unknown, r.Message)
	}
	entries, _ := ReadAudit(audit.Path(), 0)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Result, "error: ") {
		t.Errorf("audit: %+v", entries)
	}
}

// When the write reached the server and then nothing more can, opsdeck
// cannot know: it says so, and never "not released".
func TestAnUnknowableOutcomeIsReportedAsUnknown(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_dark"))
	exec, audit := lossyExecutor(t, w, &lossy{cutAfterWrite: true})
	ctx, cancel := context.WithTimeout(w.ctx, 30*time.Second)
	defer cancel()
	r := exec.Execute(ctx, w.plan(ReleaseSession, sessionKey("sess_dark"), Options{}))
	if r.OK || !r.Unknown || strings.HasPrefix(r.Message, "not ") ||
		!strings.HasPrefix(r.Message, "Release session sess_dark: outcome unknown: the request may have reached DynamoDB") {
		t.Fatalf("OK=%v Unknown=%v Message=%q", r.OK, r.Unknown, r.Message)
	}
	if attrS(t, w.get(data.TableSessions, sessionKey("sess_dark")), "status") != "COMPLETED" {
		t.Errorf("the write did not reach the server: the test proves nothing")
	}
	entries, _ := ReadAudit(audit.Path(), 0)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Result, "unknown: ") {
		t.Errorf("audit: %+v", entries)
	}
}

// writeLines are the audit lines of the writes, without the lines of the
// steps after them (a release's stop-ecs-task).
func writeLines(t *testing.T, path string) []AuditEntry {
	t.Helper()
	all, err := ReadAudit(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []AuditEntry
	for _, e := range all {
		if e.Step == "" {
			out = append(out, e)
		}
	}
	return out
}
