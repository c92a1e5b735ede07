package ui

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/views"
)

// These tests drive the console through Update with key messages (settle
// runs every Cmd to completion, synchronously) against DynamoDB Local, and
// read the items back to see what was — or was not — written.

// selectRow moves the cursor to the row whose id is id.
func selectRow(t *testing.T, m Model, id string) Model {
	t.Helper()
	p := m.slotOf(m.Active())
	m, _ = press(t, m, "g")
	for i := 0; i < 50; i++ {
		if it, ok := p.sel.Selected(); ok && itemID(it) == id {
			return m
		}
		m, _ = press(t, m, "j")
	}
	t.Fatalf("row %q not found in %s:\n%s", id, p.ID().Name(), stripANSI(m.Render()))
	return m
}

func itemID(it data.Item) string {
	for _, k := range []string{"sessionId", "event_id", "sandbox_id"} {
		if s := attr(it, k); s != "" {
			return s
		}
	}
	return ""
}

func selectedAttr(t *testing.T, m Model, name string) string {
	t.Helper()
	it, ok := m.slotOf(m.Active()).sel.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return attr(it, name)
}

func TestReleaseDialogShowsTargetChangesGuardAndNote(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_show", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := start(t, w.options(), size[0], size[1])
		m = selectRow(t, m, "sess_show")
		m, _ = press(t, m, "x")
		if m.Mode() != "dialog" {
			t.Fatalf("%v: mode %s, flash %q", size, m.Mode(), m.Flash())
		}
		out := stripANSI(m.Render())
		checkFrame(t, out, size[0], size[1])
		want := []string{"Release session", "Target sess_show", "RUNNING → COMPLETED", "READY → STOPPED",
			"the session still exists", "Release session sess_show?", "y yes", "n/esc no"}
		if size[1] >= 40 {
			// Both steps: the guarded write, then the task's stop.
			want = append(want, "status is still RUNNING", "Stop the session's ECS task: StopTask cluster wallcrawler-browsers, task",
				"Then the session's Fargate task is stopped")
		} else {
			want = append(want, "more lines (↑/↓ scroll)")
		}
		for _, s := range want {
			if !strings.Contains(out, s) {
				t.Errorf("%v: dialog lacks %q:\n%s", size, s, out)
			}
		}
	}
}

func TestCancelWritesNothing(t *testing.T) {
	for _, key := range []string{"n", "esc", "enter"} {
		t.Run(key, func(t *testing.T) {
			w := newActWorld(t)
			before := w.session("sess_keep", "RUNNING", "READY", fixedNow.Add(-time.Hour))
			m := start(t, w.options(), 120, 40)
			m = selectRow(t, m, "sess_keep")
			m, _ = press(t, m, "x")
			if m.Mode() != "dialog" {
				t.Fatalf("no dialog: %q", m.Flash())
			}
			m, _ = press(t, m, key)
			if m.Mode() != "normal" {
				t.Fatalf("%s did not close the dialog", key)
			}
			if !strings.Contains(m.Flash(), "nothing written") {
				t.Errorf("flash %q", m.Flash())
			}
			if got := w.get(data.TableSessions, sessKey("sess_keep")); !sameItem(got, before) {
				t.Errorf("item changed after %s:\n%v\n%v", key, before, got)
			}
			if es := w.auditEntries(); len(es) != 0 {
				t.Errorf("audit has %d entries after a cancel", len(es))
			}
		})
	}
}

func TestOtherKeysNeitherConfirmNorClose(t *testing.T) {
	w := newActWorld(t)
	before := w.session("sess_keys", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_keys")
	m, _ = press(t, m, "x")
	m, _ = press(t, m, "Y", "x", "space", "1", "q", "j")
	if m.Mode() != "dialog" {
		t.Fatalf("dialog closed by a key that is not an answer (mode %s)", m.Mode())
	}
	if got := w.get(data.TableSessions, sessKey("sess_keys")); !sameItem(got, before) {
		t.Error("item changed")
	}
}

func TestConfirmReleasesAndRedrawsRow(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_go", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_go")
	m, _ = press(t, m, "x", "y")
	if m.Mode() != "normal" {
		t.Fatalf("mode %s after y", m.Mode())
	}
	if m.Flash() != releasedFlash("sess_go") {
		t.Errorf("flash %q", m.Flash())
	}
	got := w.get(data.TableSessions, sessKey("sess_go"))
	if strAttr(got, "status") != "COMPLETED" || strAttr(got, "internalStatus") != "STOPPED" {
		t.Errorf("item after release: %v", got)
	}
	// The row shows what DynamoDB returned, without a reload.
	if s := selectedAttr(t, m, "status"); s != "COMPLETED" {
		t.Errorf("row status %q, want COMPLETED", s)
	}
	es := w.auditEntries()
	if len(es) != 1 || es[0].Result != "ok" || es[0].Target != "sess_go" || es[0].Operator != "alice@box" || es[0].Action != action.ReleaseSession {
		t.Errorf("audit: %+v", es)
	}
}

func TestGuardFailureSaysWhatChanged(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_race", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_race")
	m, _ = press(t, m, "x")
	// Someone else releases it while the dialog is open (no stream here).
	w.set(data.TableSessions, sessKey("sess_race"), data.Item{
		"status": sv("COMPLETED"), "internalStatus": sv("STOPPED"), "updatedAt": sv("2026-11-21T11:59:00Z"),
	})
	m, _ = press(t, m, "y")
	want := "not released: already released: status is COMPLETED"
	if !strings.HasPrefix(m.Flash(), want) {
		t.Errorf("flash %q, want prefix %q", m.Flash(), want)
	}
	if out := stripANSI(m.Render()); !strings.Contains(out, want) {
		t.Errorf("message not on screen:\n%s", out)
	}
	if s := selectedAttr(t, m, "status"); s != "COMPLETED" {
		t.Errorf("row not redrawn from the item returned: %q", s)
	}
	if es := w.auditEntries(); len(es) != 1 || !strings.HasPrefix(es[0].Result, "guard failed") {
		t.Errorf("audit: %+v", es)
	}
}

func TestLiveChangeRefreshesTheDialog(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_live", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_live")
	m, _ = press(t, m, "x")
	now := w.set(data.TableSessions, sessKey("sess_live"), data.Item{"internalStatus": sv("ACTIVE"), "updatedAt": sv("2026-11-21T11:30:00Z")})
	nm, cmd := m.Update(changesMsg([]views.Change{{Table: data.TableSessions, Event: "MODIFY", Keys: sessKey("sess_live"), New: now}}))
	m, _ = settle(t, nm.(Model), cmd)
	out := stripANSI(m.Render())
	if !strings.Contains(out, "live: sess_live changed") || !strings.Contains(out, "ACTIVE → STOPPED") {
		t.Fatalf("dialog did not follow the change:\n%s", out)
	}
	// What changed must be read before a y counts (the pause and the
	// acknowledgement are TestAChangedDialogMustBeReadAgain's).
	m, _ = press(t, m, "y")
	if m.Mode() != "dialog" || len(w.auditEntries()) != 0 {
		t.Errorf("y right after a live change wrote (mode %s, flash %q)", m.Mode(), m.Flash())
	}
}

func TestLiveChangeThatEndsTheActionDisablesYes(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_gone", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_gone")
	m, _ = press(t, m, "x")
	now := w.set(data.TableSessions, sessKey("sess_gone"), data.Item{"status": sv("COMPLETED"), "internalStatus": sv("STOPPED")})
	nm, _ := m.Update(changesMsg([]views.Change{{Table: data.TableSessions, Event: "MODIFY", Keys: sessKey("sess_gone"), New: now}}))
	m = nm.(Model)
	if out := stripANSI(m.Render()); !strings.Contains(out, "no longer qualifies") {
		t.Fatalf("dialog does not say so:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if m.Mode() != "dialog" || len(w.auditEntries()) != 0 {
		t.Fatalf("y acted on a stale dialog (mode %s)", m.Mode())
	}
	m, _ = press(t, m, "n")
	if m.Mode() != "normal" {
		t.Fatal("n did not close")
	}
}

func TestProtectedEnvRequiresTypedID(t *testing.T) {
	for _, env := range []string{"prod", "staging"} {
		t.Run(env, func(t *testing.T) {
			w := newActWorld(t)
			before := w.session("sess_prod", "RUNNING", "READY", fixedNow.Add(-time.Hour))
			o := w.options()
			o.Env, o.Protected = env, []string{"staging"}
			m := start(t, o, 120, 40)
			m = selectRow(t, m, "sess_prod")
			m, _ = press(t, m, "x", "y", "enter")
			out := stripANSI(m.Render())
			if m.Mode() != "dialog" || !strings.Contains(out, "that is not sess_prod") {
				t.Fatalf("y+enter should not confirm in %s (mode %s):\n%s", env, m.Mode(), out)
			}
			if got := w.get(data.TableSessions, sessKey("sess_prod")); !sameItem(got, before) {
				t.Fatal("written without the typed id")
			}
			m, _ = press(t, m, "backspace")
			m = typeText(t, m, "sess_prod")
			m, _ = press(t, m, "enter")
			if m.Flash() != releasedFlash("sess_prod") {
				t.Fatalf("flash %q after typing the id", m.Flash())
			}
			if strAttr(w.get(data.TableSessions, sessKey("sess_prod")), "status") != "COMPLETED" {
				t.Error("not written")
			}
		})
	}
}

func TestNotApplicableAndWrongPaneSayWhy(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_done", "COMPLETED", "STOPPED", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_done")
	m, _ = press(t, m, "x")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "only RUNNING sessions can be released; this one is COMPLETED") {
		t.Errorf("mode %s flash %q", m.Mode(), m.Flash())
	}
	m, _ = press(t, m, "R")
	if !strings.Contains(m.Flash(), "applies to events rows") {
		t.Errorf("R on sessions: %q", m.Flash())
	}
	m, _ = press(t, m, "4", "x")
	if m.Flash() != action.DelegationsReadOnly {
		t.Errorf("delegations: %q", m.Flash())
	}
}

func TestRequeueEventFromInboxAndDetailView(t *testing.T) {
	w := newActWorld(t)
	w.failedEvent("ev_1", 3, fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "3")
	m = selectRow(t, m, "ev_1")
	m, _ = press(t, m, "enter", "R")
	if m.Mode() != "dialog" {
		t.Fatalf("R in the detail view: %q", m.Flash())
	}
	if out := stripANSI(m.Render()); !strings.Contains(out, "Requeue event") || !strings.Contains(out, "retry_count is at least 3 (retries exhausted)") {
		t.Errorf("dialog:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if m.Flash() != "requeued ev_1 ✓" {
		t.Errorf("flash %q", m.Flash())
	}
	it := w.get(data.TableEvents, data.Item{"user_id": sv(w.tenant), "timestamp#event_id": sv(attr(mustSelected(t, m), "timestamp#event_id"))})
	if strAttr(it, "status") != "failed" || !sameValue(it["retry_count"], nv(0)) || !strings.HasPrefix(strAttr(it, "status#timestamp"), "failed#") {
		t.Errorf("event after requeue: %v", it)
	}
	// M and U on the same row: mark delivered applies (failed), unstick
	// does not (not retrying).
	m, _ = press(t, m, "U")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "only retrying events can be unstuck; this one is failed") {
		t.Errorf("U: mode %s flash %q", m.Mode(), m.Flash())
	}
	m, _ = press(t, m, "M", "y")
	if m.Flash() != "marked delivered ev_1 ✓" {
		t.Errorf("M: flash %q", m.Flash())
	}
	if !strings.Contains(stripANSI(m.Render()), "delivered") {
		t.Error("detail view not redrawn with the new status")
	}
}

func mustSelected(t *testing.T, m Model) data.Item {
	t.Helper()
	it, ok := m.slotOf(m.Active()).sel.Selected()
	if !ok {
		t.Fatal("nothing selected")
	}
	return it
}

func TestBulkMarkForDeletionWithSummary(t *testing.T) {
	w := newActWorld(t)
	w.sandbox("sb-a", time.Hour)
	w.sandbox("sb-b", 2*time.Hour)
	w.sandbox("sb-c", 30*time.Minute)
	w.sandbox("sb-old", time.Hour)
	w.set(data.TableSandboxes, sbKey("sb-old"), data.Item{"status": sv("available")}) // not applicable
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "5")
	for _, id := range []string{"sb-a", "sb-b", "sb-c", "sb-old"} {
		m = selectRow(t, m, id)
		m, _ = press(t, m, "space")
	}
	// Narrow the list so two marked rows are hidden by the filter.
	m, _ = press(t, m, "/")
	m = typeText(t, m, "sb-a")
	m, _ = press(t, m, "enter", "D")
	out := stripANSI(m.Render())
	for _, s := range []string{"4 sandboxes marked", "3 of them hidden by the current filter", "1 not applicable",
		"not applicable: only allocated sandboxes", "Apply to 3 sandboxes?"} {
		if !strings.Contains(out, s) {
			t.Errorf("bulk dialog lacks %q:\n%s", s, out)
		}
	}
	// sb-b is taken by another track behind the dialog's back.
	w.set(data.TableSandboxes, sbKey("sb-b"), data.Item{"allocated_to_track": sv("someone-else")})
	m, _ = press(t, m, "y")
	out = stripANSI(m.Render())
	for _, s := range []string{"3 rows: 2 succeeded, 1 guard failed, 0 errors", "Succeeded (2)", "marked for deletion sb-a",
		"Guard failed (1)", "not marked for deletion: different owner"} {
		if !strings.Contains(out, s) {
			t.Errorf("summary lacks %q:\n%s", s, out)
		}
	}
	if !strings.Contains(m.Flash(), "2 of 3 succeeded · 1 guard failed") {
		t.Errorf("flash %q", m.Flash())
	}
	m, _ = press(t, m, "esc")
	if m.Mode() != "normal" {
		t.Fatal("summary did not close")
	}
	for id, want := range map[string]string{"sb-a": "pending_deletion", "sb-b": "allocated", "sb-c": "pending_deletion", "sb-old": "available"} {
		if got := strAttr(w.get(data.TableSandboxes, sbKey(id)), "status"); got != want {
			t.Errorf("%s status %q, want %q", id, got, want)
		}
	}
	if items, _ := m.slotOf(views.PaneSandboxes).marks.Marked(); len(items) != 0 {
		t.Errorf("%d rows still marked after the bulk action", len(items))
	}
	if es := w.auditEntries(); len(es) != 3 {
		t.Errorf("audit has %d entries, want 3 (one per attempted row)", len(es))
	}
}

func TestDExpiresAnAllocationPastItsWindow(t *testing.T) {
	w := newActWorld(t)
	w.sandbox("sb-exp", 5*time.Hour)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "5")
	m = selectRow(t, m, "sb-exp")
	m, _ = press(t, m, "D")
	out := stripANSI(m.Render())
	if m.Mode() != "dialog" || !strings.Contains(out, "Expire sandbox allocation") || !strings.Contains(out, "the allocation is older than its window (4h lab duration)") {
		t.Fatalf("mode %s flash %q:\n%s", m.Mode(), m.Flash(), out)
	}
	m, _ = press(t, m, "y")
	if m.Flash() != "expired sb-exp ✓" {
		t.Errorf("flash %q", m.Flash())
	}
	if got := w.get(data.TableSandboxes, sbKey("sb-exp")); strAttr(got, "status") != "pending_deletion" || strAttr(got, "allocated_to_track") != w.tenant {
		t.Errorf("after expiring: %v", got)
	}
}

func TestAuditLogUnavailableRefusesTheAction(t *testing.T) {
	w := newActWorld(t)
	before := w.session("sess_noaudit", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	o := w.options()
	o.AuditPath = t.TempDir() + "/missing-dir/\x00bad"
	m := start(t, o, 120, 40)
	m = selectRow(t, m, "sess_noaudit")
	m, _ = press(t, m, "x", "y")
	if !strings.Contains(m.Flash(), "audit log cannot be opened") {
		t.Errorf("flash %q", m.Flash())
	}
	if got := w.get(data.TableSessions, sessKey("sess_noaudit")); !sameItem(got, before) {
		t.Error("written without an audit log")
	}
}
