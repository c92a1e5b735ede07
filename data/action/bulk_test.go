package action

import (
	"context"
	"testing"

	"opsdeck/data"
)

func TestBulkEachRowHasItsOwnGuard(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	ids := []string{"sess_b1", "sess_b2", "sess_b3", "sess_b4"}
	var plans []Plan
	for _, id := range ids {
		w.put(data.TableSessions, runningSession(id))
		plans = append(plans, w.plan(ReleaseSession, sessionKey(id), Options{}))
	}
	// Behind the operator's back: b2 is released by someone else, b4 is gone.
	w.update(data.TableSessions, sessionKey("sess_b2"), "SET #s = :c", map[string]string{"#s": "status"}, data.Item{":c": S("COMPLETED")})
	w.del(data.TableSessions, sessionKey("sess_b4"))

	var calls [][2]int
	s := w.exec.ExecuteBulk(w.ctx, plans, func(done, total int) { calls = append(calls, [2]int{done, total}) })

	if s.Total != 4 || len(s.Succeeded) != 2 || len(s.GuardFailed) != 2 || len(s.Errors) != 0 {
		t.Fatalf("summary: %d ok, %d guard, %d errors", len(s.Succeeded), len(s.GuardFailed), len(s.Errors))
	}
	if s.Succeeded[0].Plan.Target != "sess_b1" || s.Succeeded[1].Plan.Target != "sess_b3" {
		t.Errorf("succeeded: %s, %s", s.Succeeded[0].Plan.Target, s.Succeeded[1].Plan.Target)
	}
	if s.GuardFailed[0].Failure != FailAlreadyDone || s.GuardFailed[1].Failure != FailGone {
		t.Errorf("guard failures: %q, %q", s.GuardFailed[0].Message, s.GuardFailed[1].Message)
	}
	for i, c := range calls {
		if c != [2]int{i + 1, 4} {
			t.Errorf("progress call %d = %v", i, c)
		}
	}
	if len(calls) != 4 {
		t.Errorf("%d progress calls, want 4", len(calls))
	}
	if attrS(t, w.get(data.TableSessions, sessionKey("sess_b3")), "status") != "COMPLETED" {
		t.Errorf("sess_b3 not released")
	}
}

func TestBulkStopsWhenCancelled(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	var plans []Plan
	for _, id := range []string{"sess_c1", "sess_c2", "sess_c3"} {
		w.put(data.TableSessions, runningSession(id))
		plans = append(plans, w.plan(ReleaseSession, sessionKey(id), Options{}))
	}
	ctx, cancel := context.WithCancel(w.ctx)
	s := w.exec.ExecuteBulk(ctx, plans, func(done, _ int) {
		if done == 1 {
			cancel() // the operator pressed esc after the first row
		}
	})
	if len(s.Succeeded) != 1 || len(s.Errors) != 2 {
		t.Fatalf("summary: %d ok, %d guard, %d errors", len(s.Succeeded), len(s.GuardFailed), len(s.Errors))
	}
	for _, id := range []string{"sess_c2", "sess_c3"} {
		if st := attrS(t, w.get(data.TableSessions, sessionKey(id)), "status"); st != "RUNNING" {
			t.Errorf("%s was written after cancel: %s", id, st)
		}
	}
}
