package action

import (
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

const racers = 50

// race runs the same plan from racers goroutines released at once (they all
// wait on one channel), as 50 operators confirming the same row would.
func race(w *world, p Plan) []Result {
	start := make(chan struct{})
	results := make([]Result, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = w.exec.Execute(w.ctx, p)
		}()
	}
	close(start)
	wg.Wait()
	return results
}

func tally(t *testing.T, results []Result, why Failure, clause, msg string) {
	t.Helper()
	ok := 0
	for _, r := range results {
		switch {
		case r.OK:
			ok++
		case r.Err != nil:
			t.Errorf("unexpected error: %v", r.Err)
		default:
			expectGuardFailure(t, r, clause, why, msg)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d succeeded, want exactly 1", ok, len(results))
	}
}

func TestRaceFiftyReleasesOfOneSession(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.exec.Audit = openTestAudit(t)
	w.put(data.TableSessions, runningSession("sess_race"))
	p := w.plan(ReleaseSession, sessionKey("sess_race"), Options{})

	tally(t, race(w, p), FailAlreadyDone, "status is still RUNNING", "not released: already released: status is COMPLETED")

	got := w.get(data.TableSessions, sessionKey("sess_race"))
	if attrS(t, got, "status") != "COMPLETED" || attrS(t, got, "internalStatus") != "STOPPED" {
		t.Errorf("final state: %v", got)
	}
	hist := got["eventHistory"].(*types.AttributeValueMemberL).Value
	terminations := 0
	for _, e := range hist {
		if m, ok := e.(*types.AttributeValueMemberM); ok && avEqual(m.Value["eventType"], S("SessionTerminated")) {
			terminations++
		}
	}
	if len(hist) != 2 || terminations != 1 {
		t.Errorf("eventHistory has %d entries with %d terminations, want 2 and 1", len(hist), terminations)
	}
	// Every attempt is audited, each once.
	entries, err := ReadAudit(w.exec.Audit.Path(), 0)
	if err != nil {
		t.Fatal(err)
	}
	oks, writes := 0, 0
	for _, e := range entries {
		if e.Step != "" {
			continue // the one winner's stop-ecs-task line
		}
		writes++
		if e.Result == "ok" {
			oks++
		}
	}
	if writes != racers || oks != 1 {
		t.Errorf("audit has %d write lines (%d ok), want %d (1 ok)", writes, oks, racers)
	}
}

func TestRaceFiftyMarksOfOneSandbox(t *testing.T) {
	w := newWorld(t, data.TableSandboxes)
	w.put(data.TableSandboxes, allocatedSandbox("sb-race", w.now))
	p := w.plan(MarkSandboxDeletion, sandboxKey("sb-race"), Options{})

	tally(t, race(w, p), FailAlreadyDone, "status is still allocated", "not marked for deletion: already marked for deletion at ")

	got := w.get(data.TableSandboxes, sandboxKey("sb-race"))
	if attrS(t, got, "status") != "pending_deletion" || attrS(t, got, "allocated_to_track") != "track-123" {
		t.Errorf("final state: %v", got)
	}
}
