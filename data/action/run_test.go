package action

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
)

func runKey(id string) data.Item {
	return data.Item{"PK": S("USER#12345"), "SK": S("RUN#2026-11-21T10:00:00Z#" + id)}
}

func stuckRun(id string, updated time.Time) data.Item {
	return data.Item{
		"PK": S("USER#12345"), "SK": S("RUN#2026-11-21T10:00:00Z#" + id),
		"GSI1PK": S("RUN#" + id), "GSI1SK": S("USER#12345"),
		"runId": S(id), "status": S("PROCESSING"), "environment": S("prod"),
		"createdAt": S("2026-11-21T10:00:00Z"), "updatedAt": S(updated.UTC().Format(time.RFC3339)),
	}
}

func TestMarkRunFailed(t *testing.T) {
	w := newWorld(t, data.TableGraphRuns)
	w.put(data.TableGraphRuns, stuckRun("r-ok", w.now.Add(-2*time.Hour)))
	r := w.exec.Execute(w.ctx, w.plan(MarkRunFailed, runKey("r-ok"), Options{}))
	if !r.OK {
		t.Fatalf("mark failed: %s", r.Message)
	}
	got := w.get(data.TableGraphRuns, runKey("r-ok"))
	if attrS(t, got, "status") != "FAILED" || attrS(t, got, "updatedAt") != w.now.UTC().Format(time.RFC3339) {
		t.Errorf("item: %v", got)
	}
	reason := attrS(t, got, "failureReason")
	if !strings.Contains(reason, "tester@ci") || !strings.Contains(reason, "stuck in PROCESSING since "+w.now.Add(-2*time.Hour).UTC().Format(time.RFC3339)) {
		t.Errorf("failureReason = %q", reason)
	}

	// An operator-supplied reason is written as given.
	w.put(data.TableGraphRuns, stuckRun("r-reason", w.now.Add(-2*time.Hour)))
	if r := w.exec.Execute(w.ctx, w.plan(MarkRunFailed, runKey("r-reason"), Options{FailureReason: "lambda OOM, INC-42"})); !r.OK {
		t.Fatal(r.Message)
	}
	if got := attrS(t, w.get(data.TableGraphRuns, runKey("r-reason")), "failureReason"); got != "lambda OOM, INC-42" {
		t.Errorf("failureReason = %q", got)
	}
}

func TestMarkRunFailedGuardClauses(t *testing.T) {
	w := newWorld(t, data.TableGraphRuns)
	seenUpdated := w.now.Add(-2 * time.Hour).UTC().Format(time.RFC3339)
	cases := []struct {
		name    string
		expr    string
		values  data.Item
		earlier time.Duration // execute with a clock this much before the plan
		clause  string
		why     Failure
		msg     string
	}{
		{name: "the pipeline finished it", expr: "SET #s = :v", values: data.Item{":v": S("COMPLETE")},
			clause: "status is still PROCESSING", why: FailWrongState, msg: "not marked failed: status is COMPLETE"},
		{name: "someone marked it failed", expr: "SET #s = :v", values: data.Item{":v": S("FAILED")},
			clause: "status is still PROCESSING", why: FailAlreadyDone, msg: "not marked failed: already failed: status is FAILED"},
		{name: "the run made progress", expr: "SET updatedAt = :v", values: data.Item{":v": S(w.now.UTC().Format(time.RFC3339))},
			clause: "updatedAt is still " + seenUpdated + ", as seen", why: FailChangedSinceSeen, msg: "changed since seen: updatedAt was " + seenUpdated},
		// Only reachable with a clock that went back: proves DynamoDB itself
		// checks the staleness cutoff, not just our pre-check.
		{name: "not stale at the write's clock", earlier: 3 * time.Hour,
			clause: "updatedAt is more than 30m0s old", why: FailNotStale, msg: "not marked failed: not stuck: updated at " + seenUpdated},
		{name: "deleted", clause: "the run still exists", why: FailGone, msg: "the item no longer exists"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "r-guard-" + string(rune('a'+i))
			w.put(data.TableGraphRuns, stuckRun(id, w.now.Add(-2*time.Hour)))
			p := w.plan(MarkRunFailed, runKey(id), Options{})
			switch {
			case tc.expr != "":
				var names map[string]string
				if strings.Contains(tc.expr, "#s") {
					names = map[string]string{"#s": "status"}
				}
				w.update(data.TableGraphRuns, runKey(id), tc.expr, names, tc.values)
			case tc.earlier == 0:
				w.del(data.TableGraphRuns, runKey(id))
			}
			exec := *w.exec
			exec.Now = func() time.Time { return w.now.Add(-tc.earlier) }
			expectGuardFailure(t, exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
		})
	}
}

func TestMarkRunFailedNotApplicable(t *testing.T) {
	now := time.Now().Truncate(time.Second) // updatedAt is stored in whole seconds
	cases := []struct {
		name string
		item data.Item
		opts Options
		want string
	}{
		{"complete", func() data.Item { it := stuckRun("r", now.Add(-time.Hour)); it["status"] = S("COMPLETE"); return it }(), Options{},
			"only runs stuck in UPLOADED or PROCESSING can be marked failed; this one is COMPLETE"},
		{"recent", stuckRun("r", now.Add(-5*time.Minute)), Options{}, "the run was updated 5m0s ago; only runs silent in PROCESSING for more than 30m0s count as stuck"},
		{"recent, with an offset", func() data.Item {
			it := stuckRun("r", now)
			it["updatedAt"] = S(now.Add(-5 * time.Minute).In(time.FixedZone("EAT", 3*3600)).Format(time.RFC3339))
			return it
		}(), Options{}, `is not a UTC timestamp ending in "Z"`},
		{"in the future, with an offset", func() data.Item {
			it := stuckRun("r", now)
			// Reads like "now" in its own zone, but is 2h59m ahead.
			it["updatedAt"] = S(now.Add(2*time.Hour + 59*time.Minute).In(time.FixedZone("X", -3*3600)).Format(time.RFC3339))
			return it
		}(), Options{}, "is 2h59m0s in the future; a clock is wrong"},
		{"recent for a longer threshold", stuckRun("r", now.Add(-time.Hour)), Options{StaleRun: 2 * time.Hour}, "more than 2h0m0s"},
		{"unparseable updatedAt", func() data.Item { it := stuckRun("r", now); it["updatedAt"] = S("yesterday"); return it }(), Options{},
			"updatedAt is yesterday, not an ISO 8601 time"},
		{"non-UTC updatedAt", func() data.Item {
			it := stuckRun("r", now)
			it["updatedAt"] = S(now.Add(-time.Hour).In(time.FixedZone("X", 5*3600)).Format(time.RFC3339))
			return it
		}(), Options{}, `is not a UTC timestamp ending in "Z"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := PlanFor(MarkRunFailed, tc.item, now, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// A run whose analysis never started (UPLOADED past the threshold) is as
// stuck as one whose Lambda died; the guard is on the status seen.
func TestMarkUploadedRunFailed(t *testing.T) {
	w := newWorld(t, data.TableGraphRuns)
	uploaded := func(id string) data.Item {
		it := stuckRun(id, w.now.Add(-2*time.Hour))
		it["status"] = S("UPLOADED")
		return it
	}
	w.put(data.TableGraphRuns, uploaded("r-up"))
	p := w.plan(MarkRunFailed, runKey("r-up"), Options{})
	if !avEqual(p.Values[":stuck_status"], S("UPLOADED")) || p.Guard[1].Text != "status is still UPLOADED" {
		t.Errorf("status clause %q with %v", p.Guard[1].Text, p.Values[":stuck_status"])
	}
	if r := w.exec.Execute(w.ctx, p); !r.OK {
		t.Fatalf("mark failed: %s", r.Message)
	}
	got := w.get(data.TableGraphRuns, runKey("r-up"))
	if attrS(t, got, "status") != "FAILED" || !strings.Contains(attrS(t, got, "failureReason"), "stuck in UPLOADED since") {
		t.Errorf("item: %v", got)
	}
	// The run's lookup keys (GSI1 by runId) are untouched: the callback
	// still resolves it.
	if attrS(t, got, "GSI1PK") != "RUN#r-up" || attrS(t, got, "GSI1SK") != "USER#12345" {
		t.Errorf("GSI1 keys moved: %v", got)
	}

	// Each clause failing alone.
	for _, tc := range []struct {
		name, expr string
		values     data.Item
		clause     string
		why        Failure
		msg        string
	}{
		{"processing started", "SET #s = :v", data.Item{":v": S("PROCESSING")}, "status is still UPLOADED", FailWrongState, "not marked failed: status is PROCESSING"},
		{"failed by AppLens", "SET #s = :v", data.Item{":v": S("FAILED")}, "status is still UPLOADED", FailAlreadyDone, "not marked failed: already failed: status is FAILED"},
		{"touched since", "SET updatedAt = :v", data.Item{":v": S(w.now.Add(-3 * time.Hour).UTC().Format(time.RFC3339))},
			"updatedAt is still " + w.now.Add(-2*time.Hour).UTC().Format(time.RFC3339) + ", as seen", FailChangedSinceSeen, "changed since seen: updatedAt was "},
		{"deleted", "", nil, "the run still exists", FailGone, "not marked failed: the item no longer exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.t = t
			id := "r-up-" + strings.ReplaceAll(tc.name, " ", "-")
			w.put(data.TableGraphRuns, uploaded(id))
			p := w.plan(MarkRunFailed, runKey(id), Options{})
			if tc.expr == "" {
				w.del(data.TableGraphRuns, runKey(id))
			} else {
				var names map[string]string
				if strings.HasPrefix(tc.expr, "SET #s ") {
					names = map[string]string{"#s": "status"}
				}
				w.update(data.TableGraphRuns, runKey(id), tc.expr, names, tc.values)
			}
			expectGuardFailure(t, w.exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
		})
	}
	// Not yet stuck.
	fresh := stuckRun("r-fresh", w.now.Add(-time.Minute))
	fresh["status"] = S("UPLOADED")
	if _, err := PlanFor(MarkRunFailed, fresh, w.now, Options{}); err == nil || !strings.Contains(err.Error(), "only runs silent in UPLOADED for more than 30m0s count as stuck") {
		t.Errorf("fresh UPLOADED run: %v", err)
	}
}
