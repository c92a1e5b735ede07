package ui

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"opsdeck/data"
)

// More keys and edges: F on a stuck run, D on a failed deletion, a bulk
// action in a protected environment, a write that fails on the network,
// and hostile ids.

func (w *actWorld) run(id, status string, updated time.Time) data.Item {
	created := updated.Add(-time.Minute)
	pk, sk, g1pk, g1sk := data.GraphRunKeys(w.tenant, id, created)
	it := data.Item{
		"PK": sv(pk), "SK": sv(sk), "GSI1PK": sv(g1pk), "GSI1SK": sv(g1sk),
		"runId": sv(id), "status": sv(status),
		"createdAt": sv(created.UTC().Format(time.RFC3339)), "updatedAt": sv(updated.UTC().Format(time.RFC3339)),
	}
	w.put(data.TableGraphRuns, it)
	return it
}

func TestMarkStuckRunFailed(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_placeholder", "COMPLETED", "STOPPED", fixedNow.Add(-time.Hour))
	stuck := w.run("run_stuck", "PROCESSING", fixedNow.Add(-2*time.Hour))
	w.run("run_fresh", "PROCESSING", fixedNow.Add(-5*time.Minute))
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "2")
	m = selectRunRow(t, m, "run_fresh")
	m, _ = press(t, m, "F")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "only runs silent in PROCESSING for more than 30m0s count as stuck") {
		t.Errorf("fresh run: mode %s flash %q", m.Mode(), m.Flash())
	}
	m = selectRunRow(t, m, "run_stuck")
	m, _ = press(t, m, "F")
	if out := stripANSI(m.Render()); !strings.Contains(out, "Mark run failed") || !strings.Contains(out, "PROCESSING → FAILED") {
		t.Fatalf("dialog:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if m.Flash() != "marked failed run_stuck ✓" {
		t.Errorf("flash %q", m.Flash())
	}
	got := w.get(data.TableGraphRuns, data.Item{"PK": stuck["PK"], "SK": stuck["SK"]})
	if strAttr(got, "status") != "FAILED" || !strings.Contains(strAttr(got, "failureReason"), "alice@box") {
		t.Errorf("run after F: %v", got)
	}
}

func selectRunRow(t *testing.T, m Model, id string) Model {
	t.Helper()
	p := m.slotOf(m.Active())
	m, _ = press(t, m, "g")
	for i := 0; i < 50; i++ {
		if it, ok := p.sel.Selected(); ok && attr(it, "runId") == id {
			return m
		}
		m, _ = press(t, m, "j")
	}
	t.Fatalf("run %q not found:\n%s", id, stripANSI(m.Render()))
	return m
}

// deletion_failed is no status of the broker's: D does not act on it, and
// the row says the status is unknown.
func TestDOnAnUnknownSandboxStatusIsRefused(t *testing.T) {
	w := newActWorld(t)
	w.sandbox("sb-df", time.Hour)
	w.set(data.TableSandboxes, sbKey("sb-df"), data.Item{"status": sv("deletion_failed"), "deletion_retry_count": nv(2)})
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "5")
	m = selectRow(t, m, "sb-df")
	if out := stripANSI(m.Render()); !strings.Contains(out, "deletion_failed?") {
		t.Errorf("the unknown status is not shown as such:\n%s", out)
	}
	m, _ = press(t, m, "D")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "this one is deletion_failed") {
		t.Errorf("mode %s flash %q", m.Mode(), m.Flash())
	}
	if got := w.get(data.TableSandboxes, sbKey("sb-df")); strAttr(got, "status") != "deletion_failed" {
		t.Errorf("written: %v", got)
	}
}

func TestBulkInProdRequiresTheCount(t *testing.T) {
	w := newActWorld(t)
	w.sandbox("sb-p1", time.Hour)
	w.sandbox("sb-p2", time.Hour)
	o := w.options()
	o.Env = "prod"
	m := start(t, o, 120, 40)
	m, _ = press(t, m, "5", "g", "space", "space", "D")
	if out := stripANSI(m.Render()); !strings.Contains(out, "type 2 and press enter") {
		t.Fatalf("dialog does not ask for the count:\n%s", out)
	}
	m = typeText(t, m, "sb-p1")
	m, _ = press(t, m, "enter")
	if m.Mode() != "dialog" || strAttr(w.get(data.TableSandboxes, sbKey("sb-p1")), "status") != "allocated" {
		t.Fatal("an id confirmed a bulk action")
	}
	for range "sb-p1" {
		m, _ = press(t, m, "backspace")
	}
	m = typeText(t, m, " 2 ")
	m, _ = press(t, m, "enter")
	if !strings.Contains(m.Flash(), "2 of 2 succeeded") {
		t.Errorf("flash %q", m.Flash())
	}
}

// failWrites lets reads through and fails every UpdateItem after it
// reached the server's door (the outcome the console cannot know).
type failWrites struct{ writes atomic.Int32 }

func (f *failWrites) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") {
		f.writes.Add(1)
		return nil, errors.New("connection reset by peer")
	}
	return http.DefaultTransport.RoundTrip(req)
}

// The write went unanswered and the row, read back, does not carry it: it
// was not applied as of that read, but the request could still land. The
// status bar and the audit log say exactly that, never a plain "not
// released".
func TestNetworkFailureSaysTheWriteMayStillLandAndReadsTheRowBack(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_net", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	fw := &failWrites{}
	m := start(t, w.withClient(fw, false), 120, 40)
	m = selectRow(t, m, "sess_net")
	m, _ = press(t, m, "x")
	// Another operator releases it meanwhile; our write never arrives.
	w.set(data.TableSessions, sessKey("sess_net"), data.Item{"status": sv("COMPLETED"), "internalStatus": sv("STOPPED")})
	m, _ = press(t, m, "y")
	if fw.writes.Load() == 0 {
		t.Fatal("no write attempted")
	}
	if f := m.Flash(); !strings.HasPrefix(f, "not released as read back at 12:00:00 — the unanswered request could still land; check the row (") ||
		strings.Contains(f, "not released:") {
		t.Errorf("flash %q", f)
	}
	if s := selectedAttr(t, m, "status"); s != "COMPLETED" {
		t.Errorf("row not read back: status %q", s)
	}
	if es := w.auditEntries(); len(es) != 1 || !strings.HasPrefix(es[0].Result, "unknown: not released as read back at ") {
		t.Errorf("audit: %+v", es)
	}
}

func TestHostileIDStaysInert(t *testing.T) {
	w := newActWorld(t)
	id := "sess_\x1b[2J\x1b]52;c;aGk=\x07\u202eevil"
	w.session(id, "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "x")
	if m.Mode() != "dialog" {
		t.Fatalf("no dialog: %q", m.Flash())
	}
	raw := m.Render()
	for _, bad := range []string{"\x1b[2J", "\x1b]52", "\x07", "\u202e"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%q reached the terminal", bad)
		}
	}
	if !strings.Contains(stripANSI(raw), `sess_\x1b[2J`) {
		t.Errorf("id not shown as escaped text:\n%s", stripANSI(raw))
	}
	m, _ = press(t, m, "y")
	if raw := m.Render(); strings.Contains(raw, "\x1b[2J") || strings.Contains(m.Flash(), "\x1b") {
		t.Errorf("status bar carries the raw id: %q", m.Flash())
	}
}
