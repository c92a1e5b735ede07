package action

import (
	"os"
	"strings"
	"testing"

	"opsdeck/data"
)

// TestAuditLogNeverHoldsASecret: what the audit log keeps of the request
// (its values) and of the outcome (the message, which quotes the item as
// found) is masked like the screen is: a token that reached the item never
// lands in a file that outlives the session.
func TestAuditLogNeverHoldsASecret(t *testing.T) {
	const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzIn0.U2lnbmF0dXJlU2lnbmF0dXJl"
	w := newWorld(t, data.TableSessions)
	log := openTestAudit(t)
	w.exec.Audit = log

	it := runningSession("sess_tok")
	it["updatedAt"] = S("2026-11-21T11:00:05Z")
	w.put(data.TableSessions, it)
	p := w.plan(ReleaseSession, sessionKey("sess_tok"), Options{})
	// Behind the operator's back, the status becomes a URL carrying a
	// token: the guard fails and its message quotes the new status.
	w.update(data.TableSessions, sessionKey("sess_tok"), "SET #s = :s", map[string]string{"#s": "status"},
		data.Item{":s": S("wss://203.0.113.9/cdp?signingKey=" + token)})
	r := w.exec.Execute(w.ctx, p)
	if r.Refusal == nil {
		t.Fatalf("want a guard failure, got %+v", r)
	}
	if !strings.Contains(r.Message, "signingKey=") {
		t.Fatalf("the message should quote the status it found: %q", r.Message)
	}
	raw, err := os.ReadFile(log.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), token[:24]) {
		t.Fatalf("the audit log holds the token:\n%s", raw)
	}
	if !strings.Contains(string(raw), "signingKey=••••••") {
		t.Fatalf("the audit line should say what was masked:\n%s", raw)
	}
}
