package action

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

func TestAvailable(t *testing.T) {
	now := time.Now()
	pending := allocatedSandbox("s", now)
	pending["status"] = S("pending_deletion")
	cases := []struct {
		table data.TableID
		item  data.Item
		want  []Kind
	}{
		{data.TableSessions, runningSession("s"), []Kind{ReleaseSession}},
		{data.TableEvents, failedEvent("e", 0), []Kind{MarkEventDelivered}},
		{data.TableEvents, failedEvent("e", 3), []Kind{RequeueEvent, MarkEventDelivered}},
		{data.TableEvents, eventIn("retrying", 1)("e"), []Kind{UnstickEvent}},
		{data.TableAPIKeys, apiKey("k", "ACTIVE"), []Kind{DeactivateAPIKey}},
		{data.TableProjects, project("p", "INACTIVE"), []Kind{ReactivateProject}},
		{data.TableSandboxes, allocatedSandbox("s", now), []Kind{MarkSandboxDeletion}},
		{data.TableSandboxes, expiredSandbox("s", now), []Kind{ExpireSandbox}},
		{data.TableSandboxes, pending, nil},
		{data.TableGraphRuns, stuckRun("r", now.Add(-time.Hour)), []Kind{MarkRunFailed}},
		{data.TableGraphRuns, stuckRun("r", now), nil},
		{data.TableDelegations, data.Item{"link": S("bafy..."), "audience": S("did:key:z")}, nil},
		{data.TableProjects, data.Item{"projectId": S("p")}, nil},
		{data.TableGraphRuns, func() data.Item { r := stuckRun("r", now.Add(-time.Hour)); r["status"] = S("UPLOADED"); return r }(), []Kind{MarkRunFailed}},
	}
	for _, tc := range cases {
		got := Available(tc.table, tc.item, now, Options{})
		if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
			t.Errorf("%s: Available = %v, want %v", tc.table, got, tc.want)
		}
	}
	if !strings.Contains(DelegationsReadOnly, "UCAN") {
		t.Errorf("the help text should say why: %q", DelegationsReadOnly)
	}
}

func TestValueSemanticsMatchDynamoDB(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	eq := []struct {
		a, b types.AttributeValue
		want bool
	}{
		{n("1"), n("1.0"), true},
		{n("1e2"), n("100"), true},
		{n("12345678901234567890123456789012345678"), n("12345678901234567890123456789012345679"), false},
		{S("1"), n("1"), false},
		{S("a"), S("a"), true},
		{nil, S(""), false},
		{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: true}, true},
	}
	for _, c := range eq {
		if got := avEqual(c.a, c.b); got != c.want {
			t.Errorf("avEqual(%v, %v) = %v", c.a, c.b, got)
		}
	}
	if c, ok := avCompare(n("9"), n("10")); !ok || c >= 0 {
		t.Errorf("9 < 10 numerically")
	}
	if c, ok := avCompare(S("9"), S("10")); !ok || c <= 0 {
		t.Errorf("\"9\" > \"10\" as strings")
	}
	if _, ok := avCompare(S("1"), n("1")); ok {
		t.Errorf("S and N must not compare")
	}
	if _, ok := avCompare(nil, n("1")); ok {
		t.Errorf("a missing attribute must not compare")
	}
}

// Malformed items never panic and always come back with a reason.
func TestPlanForNeverPanicsOnBadItems(t *testing.T) {
	now := time.Now()
	bad := []data.Item{
		nil,
		{},
		{"sessionId": nil, "PK": nil},
		{"sessionId": S("s"), "status": &types.AttributeValueMemberL{}, "internalStatus": &types.AttributeValueMemberM{}},
		{"sessionId": S("\xff\xfe\x1b[2J"), "status": S("RUNNING\x00"), "updatedAt": S(strings.Repeat("9", 1<<20))},
		{"user_id": S("u"), "timestamp#event_id": S("#"), "status": S("failed"), "retry_count": &types.AttributeValueMemberN{Value: "1e999999999"}},
		{"PK": S("SBX#x"), "SK": S("META"), "status": S("allocated"), "allocated_at": &types.AttributeValueMemberN{Value: "nan"}, "lab_duration_hours": &types.AttributeValueMemberN{Value: "-4"}},
		{"PK": S("USER#1"), "SK": S("RUN#x"), "status": S("PROCESSING"), "updatedAt": &types.AttributeValueMemberNULL{Value: true}},
	}
	for _, it := range bad {
		for _, spec := range Specs() {
			k := spec.Kind
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s on %v panicked: %v", k, it, r)
					}
				}()
				if _, err := PlanFor(k, it, now, Options{}); err == nil {
					t.Errorf("%s accepted a malformed item %v", k, it)
				} else if err.Error() == "" {
					t.Errorf("%s: empty reason", k)
				}
			}()
		}
	}
}

// Every guard a plan carries must hold on the item it was planned from, and
// every name and value placeholder must be used (DynamoDB rejects unused ones).
func TestPlansAreSelfConsistent(t *testing.T) {
	now := time.Now()
	items := map[Kind]data.Item{
		ReleaseSession:      runningSession("s"),
		RequeueEvent:        failedEvent("e", 3),
		MarkEventDelivered:  failedEvent("e", 2),
		UnstickEvent:        eventIn("retrying", 1)("e"),
		MarkSandboxDeletion: allocatedSandbox("b", now),
		ExpireSandbox:       expiredSandbox("b", now),
		MarkRunFailed:       stuckRun("r", now.Add(-time.Hour)),
		DeactivateAPIKey:    apiKey("k", "ACTIVE"),
		ReactivateAPIKey:    apiKey("k", "INACTIVE"),
		DeactivateProject:   project("p", "ACTIVE"),
		ReactivateProject:   project("p", "INACTIVE"),
	}
	for k, it := range items {
		p, err := PlanFor(k, it, now, Options{})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for _, c := range p.Guard {
			if !c.Holds(it) {
				t.Errorf("%s: clause %q fails on the seen item", k, c.Text)
			}
		}
		all := p.UpdateExpression + " " + p.ConditionExpression
		for ph := range p.Names {
			if !strings.Contains(all, ph) {
				t.Errorf("%s: unused name %s", k, ph)
			}
		}
		for ph := range p.Values {
			if !strings.Contains(all, ph) {
				t.Errorf("%s: unused value %s", k, ph)
			}
		}
		if strings.Contains(all, "status ") && !strings.Contains(all, "#status") {
			t.Errorf("%s: a bare reserved word in %s", k, all)
		}
		if len(p.Changes) == 0 || p.Target == "" || len(p.Key) == 0 {
			t.Errorf("%s: incomplete plan %+v", k, p)
		}
	}
}

func TestTypedConfirmation(t *testing.T) {
	cases := []struct {
		env       string
		protected []string
		want      bool
	}{
		{"prod", nil, true},
		{" PROD ", nil, true},
		{"staging", nil, false},
		{"staging", []string{"Staging"}, true},
		{"dev", []string{"staging"}, false},
		{"", []string{""}, false},
	}
	for _, c := range cases {
		if got := NeedsTypedConfirmation(c.env, c.protected); got != c.want {
			t.Errorf("NeedsTypedConfirmation(%q, %v) = %v", c.env, c.protected, got)
		}
	}
	one := []Plan{{Target: "sess_abc"}}
	if ConfirmPhrase(one) != "sess_abc" || !PhraseMatches(" sess_abc ", "sess_abc") || PhraseMatches("sess_ab", "sess_abc") {
		t.Errorf("single-item phrase")
	}
	if ConfirmPhrase(make([]Plan, 12)) != "12" || PhraseMatches("", "") {
		t.Errorf("bulk phrase")
	}
}

// A newer image arriving while the dialog is open: Check says what a write
// would meet, Refresh re-plans on what is really there.
func TestCheckAndRefreshAgainstANewerImage(t *testing.T) {
	now := time.Now()
	seen := runningSession("sess_r")
	p, err := PlanFor(ReleaseSession, seen, now, Options{Operator: Operator{User: "a@b"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Check(seen); r != nil {
		t.Fatalf("the plan must pass on the item it was made from")
	}

	moved := runningSession("sess_r")
	moved["internalStatus"] = S("ACTIVE")
	r := p.Check(moved)
	if r == nil || r.Failure != FailChangedSinceSeen || r.Clause != "internalStatus is still READY, as seen" ||
		r.Reason != "changed since seen: internalStatus was READY, is now ACTIVE" ||
		r.Error() != "not released: changed since seen: internalStatus was READY, is now ACTIVE" {
		t.Errorf("Check(moved) = %+v", r)
	}
	q, err := p.Refresh(moved, now)
	if err != nil || q.Operator.User != "a@b" || !avEqual(q.Values[":seen_internalStatus"], S("ACTIVE")) {
		t.Errorf("Refresh(moved) = %v, %v", q.Values[":seen_internalStatus"], err)
	}

	ended := runningSession("sess_r")
	ended["status"] = S("COMPLETED")
	if r := p.Check(ended); r == nil || r.Failure != FailAlreadyDone {
		t.Errorf("Check(ended) = %+v", r)
	}
	if _, err := p.Refresh(ended, now); err == nil || !strings.Contains(err.Error(), "this one is COMPLETED") {
		t.Errorf("Refresh(ended) err = %v", err)
	}
	if r := p.Check(nil); r == nil || r.Failure != FailGone || r.Current != nil || r.Error() != "not released: the item no longer exists" {
		t.Errorf("Check(nil) = %+v", r)
	}
}
