package action

import (
	"os"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
)

// The words the README, the config and the overview's comments use for
// retry_max, the stale-run threshold and a release's end state are checked
// here against what the actions do to rows in DynamoDB Local (issue 27.3:
// each had outlived the behaviour it described).

// readmeConfigLine is the README config example's line for key.
func readmeConfigLine(t *testing.T, key string) string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), key+":") {
			return l
		}
	}
	t.Fatalf("README.md's config example has no %s line", key)
	return ""
}

// retry_max is when Requeue is offered, not when a retry is refused.
func TestRetryMaxTextMatchesRequeue(t *testing.T) {
	line := readmeConfigLine(t, "retry_max")
	if !strings.Contains(line, "Requeue is offered") || strings.Contains(line, "refused") {
		t.Errorf("README's retry_max line does not say it is when Requeue is offered: %q", line)
	}
	w := newWorld(t, data.TableEvents)
	o := Options{RetryMax: 3}
	w.put(data.TableEvents, failedEvent("ev-2", 2))
	w.put(data.TableEvents, failedEvent("ev-3", 3))
	if _, err := PlanFor(RequeueEvent, w.get(data.TableEvents, eventKey("ev-2")), w.now, o); err == nil {
		t.Errorf("Requeue offered below retry_max")
	}
	p := w.plan(RequeueEvent, eventKey("ev-3"), o)
	if r := w.exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("Requeue at retry_max: %s", r.Message)
	}
}

// stale_run_minutes covers UPLOADED as well as PROCESSING.
func TestStaleRunTextNamesUploaded(t *testing.T) {
	line := readmeConfigLine(t, "stale_run_minutes")
	if !strings.Contains(line, "UPLOADED") || !strings.Contains(line, "PROCESSING") {
		t.Errorf("README's stale_run_minutes line does not name both stuck statuses: %q", line)
	}
	w := newWorld(t, data.TableGraphRuns)
	run := stuckRun("r-up", w.now.Add(-2*time.Hour))
	run["status"] = S("UPLOADED")
	w.put(data.TableGraphRuns, run)
	p := w.plan(MarkRunFailed, runKey("r-up"), Options{})
	if r := w.exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("mark failed of a run stuck in UPLOADED: %s", r.Message)
	}
}

// A release writes status COMPLETED and internalStatus STOPPED, so the
// Overview counts it under sessions.completed, not sessions.stopped — as
// the comment on the overview's session statuses says.
func TestReleaseCountsAsCompletedNotStopped(t *testing.T) {
	src, err := os.ReadFile("../overview.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "writes status COMPLETED with internalStatus STOPPED") {
		t.Errorf("data/overview.go's comment does not say what a release writes")
	}
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_c"))
	if r := w.exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_c"), Options{})); !r.OK {
		t.Fatalf("release: %s", r.Message)
	}
	got := w.get(data.TableSessions, sessionKey("sess_c"))
	in := map[string]bool{}
	for _, m := range (data.OverviewPlan{}).Metrics(w.now) {
		if m.Block == data.BlockSessions && m.Subject == "" {
			in[m.Key] = m.In(got)
		}
	}
	if !in[data.MetricSessionsCompleted] || in[data.MetricSessionsStopped] {
		t.Errorf("a released session counts as %v, want sessions.completed only", in)
	}
}
