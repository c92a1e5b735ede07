package action

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

func sessionKey(id string) data.Item { return data.Item{"sessionId": S(id)} }

// runningSession is a live session the way Wallcrawler stores it after the
// ECS task came up: SDK status RUNNING, internalStatus READY, one event.
func runningSession(id string) data.Item {
	return data.Item{
		"sessionId":          S(id),
		"status":             S("RUNNING"),
		"internalStatus":     S("READY"),
		"projectId":          S("project_default"),
		"createdAt":          S("2026-11-21T11:00:00Z"),
		"updatedAt":          S("2026-11-21T11:00:05Z"),
		"expiresAt":          N(1900000000),
		"lastEventTimestamp": S("2026-11-21T11:00:05Z"),
		"eventHistory": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"eventType": S("SessionReady"), "timestamp": S("2026-11-21T11:00:05Z"), "source": S("wallcrawler.ecs-task-processor"),
				"detail": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"sessionId": S(id)}}}},
		}},
	}
}

func historyLen(t *testing.T, it data.Item) int {
	t.Helper()
	if it["eventHistory"] == nil {
		return 0
	}
	l, ok := it["eventHistory"].(*types.AttributeValueMemberL)
	if !ok {
		t.Fatalf("eventHistory is %s", data.TypeName(it["eventHistory"]))
	}
	return len(l.Value)
}

func TestReleaseWritesWallcrawlersEndStateAndOneHistoryEntry(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_ok"))
	p := w.plan(ReleaseSession, sessionKey("sess_ok"), Options{})

	r := w.exec.Execute(w.ctx, p)
	if !r.OK {
		t.Fatalf("release failed: %+v", r)
	}
	got := w.get(data.TableSessions, sessionKey("sess_ok"))
	at := w.now.UTC().Format(time.RFC3339)
	for attr, want := range map[string]string{"status": "COMPLETED", "internalStatus": "STOPPED", "endedAt": at, "updatedAt": at, "projectId": "project_default"} {
		if v := attrS(t, got, attr); v != want {
			t.Errorf("%s = %q, want %q", attr, v, want)
		}
	}
	if n := historyLen(t, got); n != 2 {
		t.Fatalf("eventHistory has %d entries, want 2 (the old one + one termination)", n)
	}
	hist := got["eventHistory"].(*types.AttributeValueMemberL).Value
	first := hist[0].(*types.AttributeValueMemberM).Value
	if attrS(t, first, "eventType") != "SessionReady" {
		t.Errorf("the existing entry was altered: %v", first)
	}
	expectServiceShapedRelease(t, got, w, "tester@ci")
	if !sameItem(r.Current, got) {
		t.Errorf("Result.Current (ALL_NEW) differs from the stored item:\n%v\n%v", r.Current, got)
	}
	if r.Message != "released sess_ok" {
		t.Errorf("message = %q", r.Message)
	}
}

func TestReleaseCreatesEventHistoryWhenAbsent(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	s := runningSession("sess_nohist")
	delete(s, "eventHistory")
	w.put(data.TableSessions, s)
	r := w.exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_nohist"), Options{}))
	if !r.OK {
		t.Fatalf("release failed: %s", r.Message)
	}
	if n := historyLen(t, w.get(data.TableSessions, sessionKey("sess_nohist"))); n != 1 {
		t.Fatalf("eventHistory has %d entries, want 1", n)
	}
}

// A numeric updatedAt is pinned as a number: the write succeeds against the
// number, and fails if the attribute became the same digits as a string.
func TestReleasePinsTheExactStoredType(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	s := runningSession("sess_num")
	s["updatedAt"] = N(1763722805)
	w.put(data.TableSessions, s)
	p := w.plan(ReleaseSession, sessionKey("sess_num"), Options{})
	if _, isN := p.Values[":seen_updatedAt"].(*types.AttributeValueMemberN); !isN {
		t.Fatalf(":seen_updatedAt is %s, want N", data.TypeName(p.Values[":seen_updatedAt"]))
	}
	w.update(data.TableSessions, sessionKey("sess_num"), "SET updatedAt = :s", nil, data.Item{":s": S("1763722805")})
	expectGuardFailure(t, w.exec.Execute(w.ctx, p), "updatedAt is still 1763722805, as seen", FailChangedSinceSeen,
		"changed since seen: updatedAt was N 1763722805, is now S 1763722805")

	// The same plan shape on an untouched numeric row succeeds.
	w.put(data.TableSessions, s)
	if r := w.exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_num"), Options{})); !r.OK {
		t.Fatalf("numeric updatedAt: %s", r.Message)
	}
}

func TestReleaseGuardClauses(t *testing.T) {
	type change struct {
		expr   string
		names  map[string]string
		values data.Item
	}
	cases := []struct {
		name   string
		seen   func(data.Item) // adjust the stored row before the operator sees it
		change *change         // nil: delete the item
		clause string
		why    Failure
		msg    string
	}{
		{
			name:   "released by someone else",
			change: &change{"SET #s = :c, internalStatus = :st", map[string]string{"#s": "status"}, data.Item{":c": S("COMPLETED"), ":st": S("STOPPED")}},
			clause: "status is still RUNNING", why: FailAlreadyDone,
			msg: "not released: already released: status is COMPLETED (internalStatus STOPPED) since …, by another operator or the service",
		},
		{
			name:   "container stopped itself (status=STOPPED, internalStatus still READY)",
			change: &change{"SET #s = :x", map[string]string{"#s": "status"}, data.Item{":x": S("STOPPED")}},
			clause: "status is still RUNNING", why: FailAlreadyDone,
			msg: "already released: status is STOPPED (internalStatus READY)",
		},
		{
			name:   "errored",
			change: &change{"SET #s = :x, internalStatus = :f", map[string]string{"#s": "status"}, data.Item{":x": S("ERROR"), ":f": S("FAILED")}},
			clause: "status is still RUNNING", why: FailWrongState,
			msg: "not released: status is ERROR (internalStatus FAILED)",
		},
		{
			name:   "internal lifecycle ended while status still says RUNNING",
			change: &change{"SET internalStatus = :x", nil, data.Item{":x": S("STOPPED")}},
			clause: "internalStatus is still a running stage", why: FailAlreadyDone,
			msg: "already released: status is RUNNING (internalStatus STOPPED)",
		},
		{
			name:   "internalStatus moved on within RUNNING",
			change: &change{"SET internalStatus = :x", nil, data.Item{":x": S("ACTIVE")}},
			clause: "internalStatus is still READY, as seen", why: FailChangedSinceSeen,
			msg: "changed since seen: internalStatus was READY, is now ACTIVE",
		},
		{
			name:   "stored status is a lifecycle value that moved on",
			seen:   func(it data.Item) { it["status"] = S("PROVISIONING"); it["internalStatus"] = S("PROVISIONING") },
			change: &change{"SET #s = :x", map[string]string{"#s": "status"}, data.Item{":x": S("READY")}},
			clause: "status is still PROVISIONING, as seen", why: FailChangedSinceSeen,
			msg: "changed since seen: status was PROVISIONING, is now READY",
		},
		{
			name:   "updatedAt changed",
			change: &change{"SET updatedAt = :x", nil, data.Item{":x": S("2026-11-21T11:30:00Z")}},
			clause: "updatedAt is still 2026-11-21T11:00:05Z, as seen", why: FailChangedSinceSeen,
			msg: "changed since seen: updatedAt was 2026-11-21T11:00:05Z, is now 2026-11-21T11:30:00Z",
		},
		{
			name:   "internalStatus was absent and appeared",
			seen:   func(it data.Item) { delete(it, "internalStatus") },
			change: &change{"SET internalStatus = :x", nil, data.Item{":x": S("READY")}},
			clause: "internalStatus is still absent, as seen", why: FailChangedSinceSeen,
			msg: "changed since seen: internalStatus was absent, is now READY",
		},
		{
			name:   "deleted",
			clause: "the session still exists", why: FailGone,
			msg: "not released: the item no longer exists",
		},
	}
	w := newWorld(t, data.TableSessions)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "sess_guard_" + string(rune('a'+i))
			row := runningSession(id)
			if tc.seen != nil {
				tc.seen(row)
			}
			w.put(data.TableSessions, row)
			p := w.plan(ReleaseSession, sessionKey(id), Options{})
			if tc.change == nil {
				w.del(data.TableSessions, sessionKey(id))
			} else {
				w.update(data.TableSessions, sessionKey(id), tc.change.expr, tc.change.names, tc.change.values)
			}
			before := w.get(data.TableSessions, sessionKey(id))

			r := w.exec.Execute(w.ctx, p)
			expectGuardFailure(t, r, tc.clause, tc.why, tc.msg)

			after := w.get(data.TableSessions, sessionKey(id))
			if !sameItem(before, after) {
				t.Errorf("a failed guard changed the item:\nbefore %v\nafter  %v", before, after)
			}
			if tc.change != nil && !sameItem(r.Current, after) {
				t.Errorf("Result.Current (ALL_OLD) is not the item as stored")
			}
			if tc.change == nil && r.Current != nil {
				t.Errorf("Current should be nil for a deleted item, got %v", r.Current)
			}
		})
	}
}

// The message names who released it when the last history entry says so.
func TestReleaseFailureNamesThePreviousOperator(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_twice"))
	first := w.plan(ReleaseSession, sessionKey("sess_twice"), Options{Operator: Operator{User: "alice@box"}})
	second := w.plan(ReleaseSession, sessionKey("sess_twice"), Options{Operator: Operator{User: "bob@laptop"}})
	if r := w.exec.Execute(w.ctx, first); !r.OK {
		t.Fatalf("first release: %s", r.Message)
	}
	r := w.exec.Execute(w.ctx, second)
	expectGuardFailure(t, r, "status is still RUNNING", FailAlreadyDone, "released by alice@box via opsdeck")
	if !strings.HasPrefix(r.Message, "not released: already released: status is COMPLETED (internalStatus STOPPED) since ") {
		t.Errorf("message = %q", r.Message)
	}
}

func TestReleaseNotApplicable(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name string
		edit func(data.Item)
		want string
	}{
		{"completed", func(it data.Item) { it["status"] = S("COMPLETED"); it["internalStatus"] = S("STOPPED") },
			"only RUNNING sessions can be released; this one is COMPLETED"},
		{"container row", func(it data.Item) { it["status"] = S("STOPPED") },
			"only RUNNING sessions can be released; this one is COMPLETED"},
		{"timed out", func(it data.Item) { it["status"] = S("TIMED_OUT") },
			"only RUNNING sessions can be released; this one is TIMED_OUT"},
		{"unknown status", func(it data.Item) { it["status"] = S("WEIRD"); delete(it, "internalStatus") },
			"this one is unknown (WEIRD)"},
		{"status not a string", func(it data.Item) { it["status"] = N(1) },
			"no readable status (1)"},
		{"history not a list", func(it data.Item) { it["eventHistory"] = S("oops") },
			"eventHistory holds a S, not a list"},
		{"updatedAt is a map", func(it data.Item) { it["updatedAt"] = &types.AttributeValueMemberM{} },
			"updatedAt holds a M where a single value belongs"},
		{"no key", func(it data.Item) { delete(it, "sessionId") },
			"the item has no sessionId"},
		{"key of wrong type", func(it data.Item) { it["sessionId"] = N(7) },
			"the item's sessionId is N, but the table's key type is S"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := runningSession("sess_x")
			tc.edit(it)
			_, err := PlanFor(ReleaseSession, it, now, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if Available(data.TableSessions, it, now, Options{}) != nil {
				t.Errorf("Available offers an action PlanFor refuses")
			}
		})
	}
}

func TestReleasePlanForTheDialog(t *testing.T) {
	p, err := PlanFor(ReleaseSession, runningSession("sess_d"), time.Now(), Options{Operator: Operator{User: "a@b"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Target != "sess_d" || p.Table != data.TableSessions {
		t.Errorf("target/table = %q/%q", p.Target, p.Table)
	}
	want := "attribute_exists(#sessionId) AND #status IN (:running0, :running1, :running2, :running3, :running4, :running5, :running6) AND " +
		"#internalStatus IN (:running_stage0, :running_stage1, :running_stage2, :running_stage3, :running_stage4, :running_stage5, :running_stage6) AND " +
		"#status = :seen_status AND #internalStatus = :seen_internalStatus AND #updatedAt = :seen_updatedAt AND #lastEventTimestamp = :seen_lastEventTimestamp"
	if p.ConditionExpression != want {
		t.Errorf("condition:\n got %s\nwant %s", p.ConditionExpression, want)
	}
	wantUpd := "SET #internalStatus = :stopped, #status = :completed, #endedAt = :now, #updatedAt = :now, #lastEventTimestamp = :now, " +
		"#eventHistory = list_append(if_not_exists(#eventHistory, :empty_list), :terminated_event), #opsdeck_attempt = :attempt"
	if p.UpdateExpression != wantUpd {
		t.Errorf("update:\n got %s\nwant %s", p.UpdateExpression, wantUpd)
	}
	for ph, name := range p.Names {
		if !strings.Contains(p.ConditionExpression+p.UpdateExpression, ph) {
			t.Errorf("name %s (%s) unused", ph, name)
		}
	}
	var attrs []string
	for _, c := range p.Changes {
		attrs = append(attrs, c.Attr+":"+c.Before+"→"+c.After)
	}
	got := strings.Join(attrs, " | ")
	for _, wantPart := range []string{"status:RUNNING→COMPLETED", "internalStatus:READY→STOPPED", "endedAt:absent→", "eventHistory:1 entry→2 entries", "opsdeck_attempt:absent→new id for this attempt"} {
		if !strings.Contains(got, wantPart) {
			t.Errorf("changes %q lack %q", got, wantPart)
		}
	}
	if len(p.Guard) != 7 || p.Guard[1].Text != "status is still RUNNING" || !p.Guard[3].Seen || p.Guard[1].Seen {
		t.Errorf("guard clauses: %+v", p.Guard)
	}
}
