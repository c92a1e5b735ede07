package ui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/termcells"
)

// refuseUpdates answers UpdateItem the way DynamoDB does for a role
// without dynamodb:UpdateItem and counts them; the rest reaches the real
// server.
type refuseUpdates struct {
	mu      sync.Mutex
	updates int
}

func (r *refuseUpdates) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") {
		return http.DefaultTransport.RoundTrip(req)
	}
	r.mu.Lock()
	r.updates++
	r.mu.Unlock()
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#AccessDeniedException","message":"User: arn:aws:iam::123:user/oncall is not authorized to perform: dynamodb:UpdateItem on resource: arn:aws:dynamodb:us-east-1:123:table/t"}`
	return &http.Response{
		StatusCode: 400, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:   io.NopCloser(strings.NewReader(body)), Request: req, ContentLength: int64(len(body)),
	}, nil
}

func (r *refuseUpdates) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.updates
}

// screenOf is what a terminal shows of the console's frame, as one text.
func screenOf(m Model) string {
	return strings.Join(termcells.Draw(m.Render(), m.width, m.height).Lines(), "\n")
}

// flat is the screen's words in order, the dialog's frame left out, so a
// sentence wrapped over lines reads whole.
func flat(scr string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(scr, "│", " ")), " ")
}

// A release the policy refuses says so in its dialog before the operator
// answers — the action and resource named — and y sends nothing: the one
// UpdateItem that left is the probe, the item is as it was, and no audit
// line claims anything.
func TestARefusedWriteSaysSoBeforeTheConfirm(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_noperm", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	rt := &refuseUpdates{}
	o := w.withClient(rt, false)
	o.ProbeWrites = true
	m := start(t, o, 120, 40)
	m = selectRow(t, m, "sess_noperm")
	m, _ = press(t, m, "x")
	if m.Mode() != "dialog" {
		t.Fatalf("mode %s, flash %q", m.Mode(), m.Flash())
	}
	scr := screenOf(m)
	want := "not allowed: dynamodb:UpdateItem on table/" + w.tables.Name(data.TableSessions) + " — the write would be refused"
	if !strings.Contains(flat(scr), want) {
		t.Fatalf("dialog does not say %q:\n%s", want, scr)
	}
	if rt.count() != 1 {
		t.Fatalf("%d UpdateItem on opening the dialog, want the one probe", rt.count())
	}
	m, _ = press(t, m, "y")
	if m.Mode() != "dialog" {
		t.Fatalf("y closed the dialog of a refused write (flash %q)", m.Flash())
	}
	if scr := screenOf(m); !strings.Contains(flat(scr), "not sent: DynamoDB refuses this write") {
		t.Errorf("y does not say why nothing was sent:\n%s", scr)
	}
	if rt.count() != 1 {
		t.Errorf("y sent a write known to be refused (%d UpdateItem)", rt.count())
	}
	m, _ = press(t, m, "esc")
	if got := strAttr(w.get(data.TableSessions, sessKey("sess_noperm")), "status"); got != "RUNNING" {
		t.Errorf("status %s", got)
	}
	if strings.Contains(m.Flash(), "released") && !strings.Contains(m.Flash(), "not") {
		t.Errorf("flash claims a release: %q", m.Flash())
	}
	if es := w.auditEntries(); len(es) != 0 {
		t.Errorf("audit has %d entries: nothing was attempted", len(es))
	}
}

// An allowed write: the dialog says the permission was checked, and y
// writes as ever.
func TestAnAllowedWriteIsCheckedAndConfirms(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_perm", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	rec := &recorder{}
	o := w.withClient(rec, false)
	o.ProbeWrites = true
	m := start(t, o, 120, 40)
	m = selectRow(t, m, "sess_perm")
	m, _ = press(t, m, "x")
	scr := screenOf(m)
	if !strings.Contains(scr, "permission: dynamodb:UpdateItem allowed (checked without writing)") {
		t.Fatalf("dialog lacks the permission line:\n%s", scr)
	}
	if got := strAttr(w.get(data.TableSessions, sessKey("sess_perm")), "status"); got != "RUNNING" {
		t.Fatalf("the probe changed the session: status %s", got)
	}
	m, _ = press(t, m, "y")
	if got := strAttr(w.get(data.TableSessions, sessKey("sess_perm")), "status"); got != "COMPLETED" {
		t.Errorf("after y: status %s (flash %q)", got, m.Flash())
	}
}

// A write refused once is remembered for the connection: the next dialog
// on that table says so at once, before any probe answers.
func TestARefusalIsRememberedForTheNextDialog(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_mem1", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.session("sess_mem2", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	rt := &refuseUpdates{}
	m := start(t, w.withClient(rt, false), 120, 40) // no probe: the write itself is refused
	m = selectRow(t, m, "sess_mem1")
	m, _ = press(t, m, "x", "y")
	if !strings.Contains(m.Flash(), "not allowed: dynamodb:UpdateItem") {
		t.Fatalf("flash %q", m.Flash())
	}
	m = selectRow(t, m, "sess_mem2")
	m, _ = press(t, m, "x")
	if scr := flat(screenOf(m)); !strings.Contains(scr, "— the write would be refused") {
		t.Fatalf("the second dialog does not remember the refusal:\n%s", screenOf(m))
	}
	m, _ = press(t, m, "y")
	if rt.count() != 1 {
		t.Errorf("%d UpdateItem: the second, known refused, was sent", rt.count())
	}
}

// A release whose ecs:StopTask was refused (the write done, the task not
// stopped) is remembered: the next release's dialog says its step would be
// refused, and the write itself, allowed, is still confirmed by y.
func TestARefusedStepIsRememberedForTheNextDialog(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_step_a", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.session("sess_step_b", "RUNNING", "READY", fixedNow.Add(-2*time.Hour))
	ecs := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		rw.Header().Set("Content-Type", "application/x-amz-json-1.1")
		rw.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(rw, `{"__type":"AccessDeniedException","message":"User: arn:aws:sts::123:assumed-role/oncall/a is not authorized to perform: ecs:StopTask on resource: arn:aws:ecs:us-east-1:123:task/wallcrawler-browsers/x"}`)
	}))
	defer ecs.Close()
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", ECSEndpoint: ecs.URL})
	if err != nil {
		t.Fatal(err)
	}
	o := w.options()
	o.Store, o.Conn, o.ProbeWrites = data.NewStore(conn, w.tables), displayConn(conn), true
	m := start(t, o, 120, 50)
	m = selectRow(t, m, "sess_step_a")
	m, _ = press(t, m, "x", "y")
	if f := m.Flash(); !strings.Contains(f, "released sess_step_a") || !strings.Contains(f, "the task still runs") {
		t.Fatalf("flash %q", f)
	}
	m = selectRow(t, m, "sess_step_b")
	m, _ = press(t, m, "x")
	if scr := flat(screenOf(m)); !strings.Contains(scr, "not allowed: ecs:StopTask on task/wallcrawler-browsers/x last time — the write would be made, its step refused") {
		t.Fatalf("the dialog does not remember the refused step:\n%s", screenOf(m))
	}
	m, _ = press(t, m, "y")
	if got := strAttr(w.get(data.TableSessions, sessKey("sess_step_b")), "status"); got != "COMPLETED" {
		t.Errorf("the allowed write was not made: status %s (flash %q)", got, m.Flash())
	}
}
