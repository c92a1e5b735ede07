package ui

import (
	"bytes"
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

// goesDark sits in front of the real server. The first UpdateItem that
// names id reaches the server and is applied; its answer is lost, and from
// then on no request that names id gets through (the item cannot be read
// back): the one case where the console cannot know what happened. Every
// other row is untouched.
type goesDark struct {
	id   string
	base http.RoundTripper

	mu      sync.Mutex
	dark    bool
	applied int
}

func (g *goesDark) RoundTrip(req *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(req.Body)
	req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(body))
	if !bytes.Contains(body, []byte(g.id)) {
		return g.base.RoundTrip(req)
	}
	g.mu.Lock()
	dark := g.dark
	g.mu.Unlock()
	if dark {
		return nil, connReset()
	}
	resp, err := g.base.RoundTrip(req)
	if err != nil || !strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	g.mu.Lock()
	g.dark = true
	g.applied++
	g.mu.Unlock()
	return nil, connReset()
}

func connReset() error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
}

type noWait struct{}

func (noWait) BackoffDelay(int, error) (time.Duration, error) { return 0, nil }

// withDarkRow: the console over w with every request through g, and the
// SDK's standard retries without their waits.
func (w *actWorld) withDarkRow(g *goesDark) Options {
	w.t.Helper()
	g.base = http.DefaultTransport.(*http.Transport).Clone()
	conn, err := data.Connect(w.ctx, data.ConnOptions{
		Endpoint: ddblocal.TestEndpoint(w.t), Region: "us-east-1", HTTPClient: &http.Client{Transport: g},
	})
	if err != nil {
		w.t.Fatal(err)
	}
	conn.DB = dynamodb.New(conn.DB.Options(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.Backoff = noWait{}
			so.RateLimiter = ratelimit.None
		})
	})
	o := w.options()
	o.Store = data.NewStore(conn, w.tables)
	o.Conn = displayConn(conn)
	return o
}

// A single write whose outcome cannot be established says so, and nothing
// in the status bar reads as "not done"; the audit line says the same.
func TestUnknownOutcomeIsNotReportedAsFailure(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_dark1", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	g := &goesDark{id: "sess_dark1"}
	m := start(t, w.withDarkRow(g), 120, 40)
	m = selectRow(t, m, "sess_dark1")
	m, _ = press(t, m, "x", "y")
	if g.applied != 1 || strAttr(w.get(data.TableSessions, sessKey("sess_dark1")), "status") != "COMPLETED" {
		t.Fatal("the write did not reach the server: the test proves nothing")
	}
	f := m.Flash()
	if !strings.Contains(f, "outcome unknown") || strings.HasPrefix(f, "not ") ||
		strings.Contains(f, "read back: check it") || strings.Contains(f, "✓") {
		t.Errorf("flash %q", f)
	}
	es := w.auditEntries()
	if len(es) != 1 || !strings.HasPrefix(es[0].Result, "unknown: ") || es[0].Message != f {
		t.Errorf("audit %+v disagrees with the status bar %q", es, f)
	}
}

// In bulk, an unknown outcome has its own bucket, never Errors.
func TestBulkUnknownOutcomeHasItsOwnBucket(t *testing.T) {
	w := newActWorld(t)
	for i, id := range []string{"sess_bk1", "sess_bk2", "sess_bk3"} {
		w.session(id, "RUNNING", "READY", fixedNow.Add(-time.Duration(i+1)*time.Hour))
	}
	g := &goesDark{id: "sess_bk2"}
	m := start(t, w.withDarkRow(g), 120, 50)
	m, _ = press(t, m, "g", "space", "space", "space", "x", "y")
	if g.applied != 1 {
		t.Fatal("the dark row's write did not reach the server: the test proves nothing")
	}
	out := stripANSI(m.Render())
	if !strings.Contains(out, "3 rows: 2 succeeded, 0 guard failed, 1 outcome unknown, 0 errors") ||
		!strings.Contains(out, "Outcome unknown — check these rows (1)") || strings.Contains(out, "Errors (") {
		t.Fatalf("summary:\n%s", out)
	}
	succeeded := out[strings.Index(out, "Succeeded (2)"):strings.Index(out, "Outcome unknown — check")]
	unknownPart := out[strings.Index(out, "Outcome unknown — check"):]
	if strings.Contains(succeeded, "sess_bk2") || !strings.Contains(unknownPart, "sess_bk2") {
		t.Errorf("sess_bk2 is not listed under the unknown outcomes:\n%s", out)
	}
	f := m.Flash()
	if !strings.Contains(f, "2 of 3 succeeded · 1 outcome unknown") || strings.Contains(f, "error") {
		t.Errorf("flash %q", f)
	}
	var unknown, ok int
	for _, e := range w.auditEntries() {
		switch {
		case strings.HasPrefix(e.Result, "unknown: ") && e.Target == "sess_bk2":
			unknown++
		case e.Result == "ok":
			ok++
		default:
			t.Errorf("audit line %s: %s", e.Target, e.Result)
		}
	}
	if unknown != 1 || ok != 2 {
		t.Errorf("audit: %d unknown, %d ok", unknown, ok)
	}
}
