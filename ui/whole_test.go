package ui

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
)

// TestProjectedListReadsWholeItemsOnDemand: the Sessions list reads only
// its columns' attributes — a secret no column shows never reaches it, and
// one inside a shown column is still masked — while the detail view and
// the copy read the whole item by its key (secrets masked there too).
func TestProjectedListReadsWholeItemsOnDemand(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_proj", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	const (
		token   = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcHNkZWNrIn0.c2lnbmF0dXJlc2VjcmV0eHl6"
		signing = "sk-projected-test-signing-key-0123456789"
		task    = "arn:aws:ecs:us-east-1:123456789012:task/cluster/0fe1d2c3"
	)
	w.set(data.TableSessions, sessKey("sess_proj"), data.Item{
		"region": sv("us-east-1 " + token), "signingKey": sv(signing), "ecsTaskArn": sv(task),
	})
	m := start(t, w.options(), 160, 40)
	m = selectRow(t, m, "sess_proj")
	p := m.slotOf(m.Active())
	sel, _ := p.sel.Selected()
	for _, a := range []string{"ecsTaskArn", "signingKey"} {
		if _, ok := sel[a]; ok {
			t.Errorf("the list read %s, which no column shows", a)
		}
	}
	if !p.marks.Partial() {
		t.Error("the pane does not say its rows are partial")
	}
	if s := stripANSI(m.Render()); strings.Contains(s, token[:24]) {
		t.Fatalf("a token in a shown column is not masked:\n%s", s)
	}

	m, _ = press(t, m, "enter")
	detail := squeeze(stripANSI(m.Render()))
	if !strings.Contains(detail, task) {
		t.Fatalf("the detail view is not the whole item (no ecsTaskArn):\n%s", stripANSI(m.Render()))
	}
	if strings.Contains(detail, signing) {
		t.Fatal("the detail view shows the signing key unasked")
	}
	m, _ = press(t, m, "esc")

	m, copied := pressCopy(t, m)
	if !strings.Contains(copied, "ecsTaskArn") || !strings.Contains(copied, task) {
		t.Fatalf("the copy is not the whole item: %q", copied)
	}
	if strings.Contains(copied, signing) || strings.Contains(copied, token[:24]) {
		t.Fatalf("the copy holds a secret: %q", copied)
	}
}

// TestActionPlansFromTheWholeItem: an action on a projected row is planned
// from the whole item, read by key when the key is pressed — the guard the
// dialog shows names the state stored, not the list's partial copy.
func TestActionPlansFromTheWholeItem(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_whole", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	m = selectRow(t, m, "sess_whole")
	// Changed after the list was read: the plan must see it.
	w.set(data.TableSessions, sessKey("sess_whole"), data.Item{"internalStatus": sv("ACTIVE")})
	m, _ = press(t, m, "x")
	if m.dialog == nil {
		t.Fatalf("no dialog; flash %q", m.Flash())
	}
	var guard string
	for _, pl := range m.dialog.(*confirmDialog).Plans() {
		guard += guardText(pl)
	}
	if !strings.Contains(guard, "ACTIVE") || strings.Contains(guard, "READY") {
		t.Fatalf("the guard is not the stored state: %s", guard)
	}
}
