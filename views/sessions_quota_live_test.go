package views

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
)

// quotaSessions is a Sessions pane for project p-1 whose quota answer
// (2 running of 5) has arrived.
func quotaSessions(t *testing.T) *Sessions {
	t.Helper()
	p := NewSessions(orderCtx(), "p-1", "")
	p.SetSize(120, 20)
	p.quota = quotaState{req: 42, loading: true}
	p.Update(quotaMsg{pane: PaneSessions, req: 42, found: true, running: 2, project: data.Project{ProjectID: "p-1", Concurrency: data.IntNumber(5)}})
	if h := p.quotaLine(120); !strings.Contains(h, "2 running / quota 5") {
		t.Fatalf("quota answer not shown: %q", h)
	}
	return p
}

func withStatus(rec data.Record, status string) data.Item {
	it := rec.Item()
	out := make(data.Item, len(it))
	for k, v := range it {
		out[k] = v
	}
	out["status"] = sAttr(status)
	return out
}

// TestQuotaCountFollowsTheStream: a session of the project that starts
// running counts up, one that stops counts down, other projects' sessions
// and unchanged statuses do not count, and no read is needed for that.
func TestQuotaCountFollowsTheStream(t *testing.T) {
	p := quotaSessions(t)
	mine := sessionAt("q-new", time.Second, time.Hour)
	other := data.DecodeSession(func() data.Item {
		it := withStatus(sessionAt("q-other", time.Second, time.Hour), "RUNNING")
		it["projectId"] = sAttr("p-2")
		return it
	}())
	p.Apply([]Change{
		{Table: data.TableSessions, Event: "INSERT", New: mine.Item()},
		{Table: data.TableSessions, Event: "INSERT", New: other.Item()},
	})
	if h := p.quotaLine(120); !strings.Contains(h, "3 running / quota 5") {
		t.Fatalf("after an insert: %q", h)
	}
	// A modify that keeps it running changes nothing.
	p.Apply([]Change{{Table: data.TableSessions, Event: "MODIFY", Old: mine.Item(), New: mine.Item()}})
	stopped := withStatus(mine, "STOPPED")
	p.Apply([]Change{{Table: data.TableSessions, Event: "MODIFY", Old: mine.Item(), New: stopped}})
	if h := p.quotaLine(120); !strings.Contains(h, "2 running / quota 5") {
		t.Fatalf("after a stop: %q", h)
	}
	p.Apply([]Change{{Table: data.TableSessions, Event: "REMOVE", Old: stopped, Keys: data.Item{"sessionId": sAttr("q-new")}}})
	if h := p.quotaLine(120); !strings.Contains(h, "2 running / quota 5") {
		t.Fatalf("removing a stopped session changed the count: %q", h)
	}
}

// TestQuotaRereadWhenOldImageUnknown: without the old image the delta is
// unknown, so one debounced re-read is scheduled (not one per change), and
// a change during a load marks the answer stale.
func TestQuotaRereadWhenOldImageUnknown(t *testing.T) {
	p := quotaSessions(t)
	mine := sessionAt("q-x", time.Second, time.Hour)
	cmd := p.Apply([]Change{{Table: data.TableSessions, Event: "MODIFY", New: mine.Item()}})
	if cmd == nil || !p.quota.pending {
		t.Fatal("no re-read scheduled for a change whose old image is unknown")
	}
	gen := p.quota.gen
	p.Apply([]Change{{Table: data.TableSessions, Event: "REMOVE", Keys: data.Item{"sessionId": sAttr("q-y")}}})
	if p.quota.gen != gen {
		t.Fatal("a second re-read was scheduled while one was pending")
	}
	// While a count is loading, a change makes its answer stale.
	p.quota.pending, p.quota.loading = false, true
	p.Apply([]Change{{Table: data.TableSessions, Event: "INSERT", New: mine.Item()}})
	if !p.quota.dirty {
		t.Fatal("a change during the count's load did not mark it stale")
	}
	if h := p.quotaLine(120); !strings.Contains(h, "2 running / quota 5") {
		t.Fatalf("the shown count is not kept during a re-read: %q", h)
	}
}
