package action

import (
	"context"
	"errors"
	"strings"
	"testing"

	"opsdeck/data"
)

// withStep is the release declaration with a step after the write, the way
// an action with a second step (a release stopping its ECS task) is
// declared. The step here records what it was given.
func withStep(fail error, got *[]data.Item) Spec {
	spec, _ := ReleaseSession.Spec()
	spec.Then = &Step{
		Name:  "stop-task",
		Title: "Stop the task",
		Describe: func(seen data.Item, _ Options) string {
			id, _ := str(seen, "sessionId")
			return "StopTask for " + id
		},
		Run: func(_ context.Context, _ *data.Conn, p Plan, written data.Item) StepResult {
			*got = append(*got, written)
			if fail != nil {
				return StepResult{Message: "the task still runs: " + fail.Error() + "; stop it with: aws ecs stop-task …", Sent: map[string]string{"task": p.Target}, Err: fail}
			}
			return StepResult{OK: true, Message: "task stopped", Sent: map[string]string{"task": p.Target}}
		},
	}
	return spec
}

func TestAStepAfterTheWriteIsReportedAndAuditedOnItsOwn(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	audit := openTestAudit(t)
	w.exec.Audit = audit
	for _, tc := range []struct {
		id     string
		fail   error
		result string
	}{
		{"sess_step_ok", nil, "ok"},
		{"sess_step_denied", errors.New("AccessDeniedException: not allowed"), "error: AccessDeniedException: not allowed"},
	} {
		var got []data.Item
		spec := withStep(tc.fail, &got)
		w.put(data.TableSessions, runningSession(tc.id))
		p, err := plan(&spec, w.get(data.TableSessions, sessionKey(tc.id)), w.now, Options{Operator: Operator{User: "t@ci"}})
		if err != nil {
			t.Fatal(err)
		}
		if p.Then != "Stop the task: StopTask for "+tc.id {
			t.Errorf("the dialog's line for the step: %q", p.Then)
		}
		r := w.exec.Execute(w.ctx, p)
		// The write happened whatever the step did.
		if !r.OK || r.Then == nil || r.Then.Step != "stop-task" || r.Then.OK != (tc.fail == nil) || r.AuditErr != nil {
			t.Fatalf("%s: OK=%v Then=%+v AuditErr=%v", tc.id, r.OK, r.Then, r.AuditErr)
		}
		if len(got) != 1 || attrS(t, got[0], "status") != "COMPLETED" {
			t.Errorf("%s: the step was not given the item as written: %v", tc.id, got)
		}
		if attrS(t, w.get(data.TableSessions, sessionKey(tc.id)), "status") != "COMPLETED" {
			t.Errorf("%s: not released", tc.id)
		}
		entries, _ := ReadAudit(audit.Path(), 2)
		if len(entries) != 2 {
			t.Fatalf("%d audit lines", len(entries))
		}
		write, step := entries[0], entries[1]
		if write.Step != "" || write.Result != "ok" || write.Target != tc.id {
			t.Errorf("%s: the write's line: %+v", tc.id, write)
		}
		if step.Step != "stop-task" || step.Result != tc.result || step.Target != tc.id || step.Action != ReleaseSession ||
			step.Message != r.Then.Message || step.Values["task"] != tc.id || step.Update != "" {
			t.Errorf("%s: the step's line: %+v", tc.id, step)
		}

		// The same plan again is refused: no step runs, no step line.
		r = w.exec.Execute(w.ctx, p)
		if r.Refusal == nil || r.Then != nil || len(got) != 1 {
			t.Errorf("%s: after a refusal Then=%+v, step ran %d times", tc.id, r.Then, len(got))
		}
		entries, _ = ReadAudit(audit.Path(), 1)
		if len(entries) != 1 || entries[0].Step != "" || !strings.HasPrefix(entries[0].Result, "guard failed: ") {
			t.Errorf("%s: after a refusal: %+v", tc.id, entries)
		}
	}
}
