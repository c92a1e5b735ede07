package views

import (
	"testing"
	"time"

	"opsdeck/data"
)

// TestTroubleMarkFollowsClockTableAndRules: the check troubleOf keeps from
// one row to the next is the one for this table, this moment and these
// rules — a row built a minute later, of another table, or after the rules
// changed is judged afresh.
func TestTroubleMarkFollowsClockTableAndRules(t *testing.T) {
	was := troubleRules.Load()
	t.Cleanup(func() {
		if was != nil {
			SetTrouble(*was)
		}
	})
	SetTrouble(data.Trouble{ExpiringWithin: 15 * time.Minute})
	now := time.Unix(1_800_000_000, 0)
	sess := data.DecodeSession(data.Item{"sessionId": data.S("a"), "projectId": data.S("p"), "status": data.S("RUNNING"),
		"createdAt": data.S("2027-01-15T08:00:00Z"), "expiresAt": data.N(now.Unix() + 600)})
	box := data.DecodeSandbox(data.Item{"status": data.S("allocated"), "allocated_at": data.N(now.Unix() + 600), "lab_duration_hours": data.N(1)})

	if !troubleOf(sess, now) {
		t.Fatal("a RUNNING session expiring in 10m is not marked with a 15m window")
	}
	// The same table a quarter of an hour later: it has expired.
	if troubleOf(sess, now.Add(15*time.Minute)) {
		t.Fatal("marked with the check of a quarter of an hour earlier")
	}
	// Another table at the same moment: the sessions' check is not reused.
	if troubleOf(box, now) {
		t.Fatal("a sandbox allocated 10m from now is marked past its window")
	}
	if !troubleOf(sess, now) {
		t.Fatal("not marked once another table was checked")
	}
	// Narrower rules, same clock: no longer marked.
	SetTrouble(data.Trouble{ExpiringWithin: 5 * time.Minute})
	if troubleOf(sess, now) {
		t.Fatal("marked under the rules of before SetTrouble")
	}
}
