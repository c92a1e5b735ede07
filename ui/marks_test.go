package ui

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/views"
)

// "Requeue every exhausted failed event of this user": one :mark where=…,
// one R, one confirmation, a guard per row.
func TestMarkWhereThenOneBulkRequeue(t *testing.T) {
	w := newActWorld(t)
	w.failedEvent("ev_ex1", 3, fixedNow.Add(-3*time.Hour))
	w.failedEvent("ev_ex2", 4, fixedNow.Add(-2*time.Hour))
	w.failedEvent("ev_young", 1, fixedNow.Add(-time.Hour)) // not exhausted: not requeued
	del := w.failedEvent("ev_done", 0, fixedNow.Add(-30*time.Minute))
	w.set(data.TableEvents, data.Item{"user_id": del["user_id"], "timestamp#event_id": del["timestamp#event_id"]},
		data.Item{"status": sv("delivered"), "status#timestamp": sv("delivered#" + strAttr(del, "timestamp"))})
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "3", ":")
	m = typeText(t, m, "mark where=failed")
	m, _ = press(t, m, "enter")
	if f := m.Flash(); !strings.HasPrefix(f, `3 rows marked (filter "failed")`) {
		t.Fatalf("flash %q", f)
	}
	if items, _ := m.slotOf(views.PaneInbox).marks.Marked(); len(items) != 3 {
		t.Fatalf("%d rows marked, want the 3 failed ones", len(items))
	}
	m, _ = press(t, m, "R")
	out := stripANSI(m.Render())
	for _, s := range []string{"3 events marked", "1 not applicable", "retries are not exhausted", "Apply to 2 events?"} {
		if !strings.Contains(out, s) {
			t.Errorf("bulk dialog lacks %q:\n%s", s, out)
		}
	}
	m, _ = press(t, m, "y")
	if f := m.Flash(); !strings.Contains(f, "2 of 2 succeeded") {
		t.Errorf("flash %q:\n%s", f, stripANSI(m.Render()))
	}
	for _, e := range w.auditEntries() {
		if e.Result != "ok" || (e.Target != "ev_ex1" && e.Target != "ev_ex2") {
			t.Errorf("audit line %s: %s", e.Target, e.Result)
		}
	}
}

// A (mark_all) marks what the filter shows; with no filter, every loaded row.
func TestMarkAllKey(t *testing.T) {
	w := newActWorld(t)
	w.sandbox("sb-m1", time.Hour)
	w.sandbox("sb-m2", 2*time.Hour)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "5", ":")
	m = typeText(t, m, "sandboxes track="+w.tenant)
	m, _ = press(t, m, "enter", "A")
	if f := m.Flash(); !strings.HasPrefix(f, "2 rows marked") {
		t.Fatalf("flash %q", f)
	}
	m, _ = press(t, m, "/")
	m = typeText(t, m, "sb-m1")
	m, _ = press(t, m, "enter", "D")
	if out := stripANSI(m.Render()); !strings.Contains(out, "2 sandboxes marked") || !strings.Contains(out, "1 of them hidden by the current filter") {
		t.Errorf("bulk dialog:\n%s", out)
	}
}

func TestMarkCommandParses(t *testing.T) {
	for _, line := range []string{"mark", "mark all", "mark-all", "mark where=failed", `mark where="user-1 failed"`} {
		if _, err := ParseCommand(line); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	if _, err := ParseCommand("mark all twice"); err == nil {
		t.Errorf("mark all twice parsed")
	}
}
