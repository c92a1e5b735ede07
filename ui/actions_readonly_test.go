package ui

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"opsdeck/data"
)

// recorder is an http.RoundTripper in front of the real server that notes
// the DynamoDB operation of every request (the X-Amz-Target header,
// "DynamoDB_20120810.UpdateItem").
type recorder struct {
	mu  sync.Mutex
	ops []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	op := req.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	r.mu.Lock()
	r.ops = append(r.ops, op)
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ops...)
}

var writeOps = map[string]bool{
	"PutItem": true, "UpdateItem": true, "DeleteItem": true, "BatchWriteItem": true,
	"TransactWriteItems": true, "ExecuteStatement": true, "BatchExecuteStatement": true,
	"ExecuteTransaction": true, "CreateTable": true, "DeleteTable": true, "UpdateTable": true,
}

// TestReadOnlyOffersNoActionAndSendsNoWrite browses every pane, presses
// every action key on rows that would qualify (in the list and in the
// detail view, with rows marked) and answers y to anything: in read-only
// mode no dialog opens, the status bar says why, help lists no action, and
// not one write request leaves the process.
func TestReadOnlyOffersNoActionAndSendsNoWrite(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_ro", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.failedEvent("ev_ro", 0, fixedNow.Add(-time.Hour))
	w.sandbox("sb-ro", time.Hour)
	rec := &recorder{}
	o := w.withClient(rec, true)
	o.ProbeWrites = true // as main runs it: read-only never probes either
	m := start(t, o, 120, 40)

	steps := []struct {
		pane string
		act  string
	}{{"1", "x"}, {"3", "R"}, {"5", "D"}, {"2", "F"}}
	for _, s := range steps {
		m, _ = press(t, m, s.pane)
		m, _ = press(t, m, "space", s.act, "y")
		if m.Mode() != "normal" {
			t.Fatalf("pane %s: %s opened %s", s.pane, s.act, m.Mode())
		}
		if !strings.Contains(m.Flash(), "read-only") {
			t.Errorf("pane %s key %s: flash %q", s.pane, s.act, m.Flash())
		}
		m, _ = press(t, m, "enter", s.act, "y", "esc", "r")
	}
	m, _ = press(t, m, "?")
	help := stripANSI(m.Render())
	for _, s := range []string{"release session", "retry event", "mark run failed"} {
		if strings.Contains(help, s) {
			t.Errorf("read-only help lists %q:\n%s", s, help)
		}
	}
	if !strings.Contains(help, "Read-only") {
		t.Errorf("help does not say read-only:\n%s", help)
	}
	m, _ = press(t, m, "esc")

	ops := rec.seen()
	if len(ops) == 0 {
		t.Fatal("recorder saw nothing: the test is not looking at the console's traffic")
	}
	for _, op := range ops {
		if writeOps[op] {
			t.Errorf("read-only session sent %s (all: %v)", op, ops)
		}
	}
	if strAttr(w.get(data.TableSessions, sessKey("sess_ro")), "status") != "RUNNING" {
		t.Error("session changed")
	}
	if es := w.auditEntries(); len(es) != 0 {
		t.Errorf("audit has %d entries in read-only mode", len(es))
	}
}

// TestWritableSessionIsSeenByTheRecorder proves the recorder would catch a
// write: the same flow without read-only sends exactly one UpdateItem.
func TestWritableSessionIsSeenByTheRecorder(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_rw", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	rec := &recorder{}
	m := start(t, w.withClient(rec, false), 120, 40)
	m = selectRow(t, m, "sess_rw")
	m, _ = press(t, m, "x", "y")
	var updates int
	for _, op := range rec.seen() {
		if writeOps[op] {
			if op != "UpdateItem" {
				t.Errorf("unexpected write %s", op)
			}
			updates++
		}
	}
	if updates != 1 {
		t.Errorf("%d UpdateItem requests, want 1 (flash %q)", updates, m.Flash())
	}
}
