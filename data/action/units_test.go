package action

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

func nText(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }

// An allocation time in milliseconds once passed the Go check (read as
// seconds, far in the future) and the condition (milliseconds compared
// with a cutoff in seconds): an expired allocation was marked. A value
// whose unit is in doubt is refused, with the reason.
func TestMarkSandboxRefusesATimeInDoubt(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	cases := []struct {
		name string
		at   types.AttributeValue
		want string
	}{
		{"milliseconds, expired", N(now.Add(-5 * time.Hour).UnixMilli()), "looks like milliseconds, not the unix seconds the broker writes"},
		{"milliseconds, fresh", N(now.Add(-time.Hour).UnixMilli()), "looks like milliseconds"},
		{"in the future", N(now.Add(3 * time.Hour).Unix()), "is in the future; a clock or the unit is wrong"},
		{"minutes, not seconds", N(now.Add(-time.Hour).Unix() / 60), "before the year 2000 as unix seconds"},
		{"a fraction", nText(strconv.FormatInt(now.Add(-time.Hour).Unix(), 10) + ".5"), "not a whole number"},
		{"a string", S(now.Add(-time.Hour).Format(time.RFC3339)), "allocated_at is a string"},
		{"absent", nil, "allocated_at is absent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := allocatedSandbox("sb-unit", now)
			if tc.at == nil {
				delete(it, "allocated_at")
			} else {
				it["allocated_at"] = tc.at
			}
			_, err := PlanFor(MarkSandboxDeletion, it, now, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want …%s…", err, tc.want)
			}
			if strings.Contains(err.Error(), "both") {
				t.Errorf("the reason blames both attributes: %v", err)
			}
		})
	}
	// A whole number written with a fraction part is still whole seconds.
	it := allocatedSandbox("sb-unit", now)
	it["allocated_at"] = nText(strconv.FormatInt(now.Add(-time.Hour).Unix(), 10) + ".0")
	if _, err := PlanFor(MarkSandboxDeletion, it, now, Options{}); err != nil {
		t.Errorf("allocated_at with .0: %v", err)
	}
}

// What the operator is told and what DynamoDB is asked are one reading:
// around the expiry instant, the check's verdict is the condition's.
func TestMarkSandboxCheckIsTheCondition(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	for _, hours := range []string{"4", "0.5", "1.0001", "2.25"} {
		h, _ := strconv.ParseFloat(hours, 64)
		window := time.Duration(h * float64(time.Hour)).Round(time.Second)
		for _, off := range []time.Duration{-2 * time.Second, -time.Second, 0, time.Second, 2 * time.Second} {
			it := allocatedSandbox("sb-edge", now)
			it["lab_duration_hours"] = nText(hours)
			it["allocated_at"] = N(now.Add(-window + off).Unix())
			_, planErr := PlanFor(MarkSandboxDeletion, it, now, Options{})
			// The condition, on its own, with the cutoff the request carries.
			fresh := newExprBuilder()
			lab, problem := readLab(it, now)
			if problem != "" {
				t.Fatalf("%sh %v: %s", hours, off, problem)
			}
			c := fresh.cmp("allocated_at", ">", "max_expiry", nv(lab.cutoff(now)), "", FailExpired)
			if (planErr == nil) != c.Holds(it) {
				t.Errorf("%sh, allocated %v after the window's start: plan err %v, condition holds %v", hours, off, planErr, c.Holds(it))
			}
			if planErr != nil && !strings.Contains(planErr.Error(), "allocation expired at") {
				t.Errorf("%sh %v: %v", hours, off, planErr)
			}
		}
	}
}

// retry_count is read by value, as DynamoDB compares it: 3.0 is 3 (an item
// built elsewhere may carry it so), and a whole number too large for a
// count is called that, not "not a whole number".
func TestRequeueReadsTheCountByValue(t *testing.T) {
	now := time.Now()
	it := failedEvent("ev-float", 1)
	it["retry_count"] = nText("3.0")
	p, err := PlanFor(RequeueEvent, it, now, Options{})
	if err != nil {
		t.Fatalf("3.0 refused: %v", err)
	}
	for _, c := range p.Changes {
		if c.Attr == "retry_count" && c.Before != "3.0" {
			t.Errorf("dialog shows retry_count %s → %s", c.Before, c.After)
		}
	}

	// Through the real server, which stores 1e30 as its 31 digits.
	w := newWorld(t, data.TableEvents)
	big := failedEvent("ev-big", 1)
	big["retry_count"] = nText("1e30")
	w.put(data.TableEvents, big)
	_, err = PlanFor(RequeueEvent, w.get(data.TableEvents, eventKey("ev-big")), now, Options{})
	if err == nil || !strings.Contains(err.Error(), "retry_count is 1000000000000000000000000000000, too large to be a count") {
		t.Errorf("err = %v", err)
	}
}

// updatedAt is compared as text by DynamoDB: only one shape of it means
// time order, and the check shown is that same comparison.
func TestMarkRunReadsUpdatedAtAsTheConditionDoes(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	cutoff := now.Add(-DefaultStaleRun)
	cases := []struct {
		name, updatedAt string
		ok              bool
		want            string
	}{
		{"an offset", now.Add(-time.Hour).In(time.FixedZone("", 3*3600)).Format(time.RFC3339), false, `is not a UTC timestamp ending in "Z"`},
		{"no zone", now.Add(-time.Hour).Format("2006-01-02T15:04:05"), false, `is not a UTC timestamp ending in "Z"`},
		{"a space", now.Add(-time.Hour).Format("2006-01-02 15:04:05Z"), false, `is not a UTC timestamp ending in "Z"`},
		{"the future", now.Add(3 * time.Hour).Format(time.RFC3339), false, "is 3h0m0s in the future"},
		{"exactly at the cutoff", cutoff.Format(time.RFC3339), false, "updated 30m0s ago; only runs silent in PROCESSING for more than 30m0s"},
		{"half a second inside", cutoff.Add(500 * time.Millisecond).Format(time.RFC3339Nano), false, "updated 29m59s ago"},
		{"half a second past", cutoff.Add(-500 * time.Millisecond).Format(time.RFC3339Nano), true, ""},
		{"one second past", cutoff.Add(-time.Second).Format(time.RFC3339), true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := stuckRun("r", now)
			it["updatedAt"] = S(tc.updatedAt)
			p, err := PlanFor(MarkRunFailed, it, now, Options{})
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if !p.Guard[3].Holds(it) {
					t.Errorf("planned, but the staleness clause does not hold on the item")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want …%s…", err, tc.want)
			}
			if strings.Contains(err.Error(), "-") && strings.Contains(err.Error(), "ago") && strings.Contains(err.Error(), " -") {
				t.Errorf("negative age in %q", err)
			}
		})
	}
}

// Values quoted in messages are shown on one line, with controls and bidi
// characters escaped, wherever the message is built: a reason an action
// does not apply, a guard's text, a failure's explanation.
func TestMessagesQuoteValuesOnOneLine(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	hostile := "COMP\nLETED\u202e\x1b[2J"
	check := func(what, msg string) {
		t.Helper()
		if strings.ContainsAny(msg, "\n\r\x1b\u202e") {
			t.Errorf("%s: raw control or bidi character in %q", what, msg)
		}
		if !strings.Contains(msg, `COMP\nLETED\u202e\x1b[2J`) {
			t.Errorf("%s: the value is not shown escaped: %q", what, msg)
		}
	}

	sb := allocatedSandbox("sb-msg", now)
	sb["status"] = S(hostile)
	_, err := PlanFor(MarkSandboxDeletion, sb, now, Options{})
	check("not applicable", err.Error())

	sess := runningSession("sess_msg")
	p, err := PlanFor(ReleaseSession, sess, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	released := runningSession("sess_msg")
	released["status"] = S(hostile)
	released["internalStatus"] = S("STOPPED")
	check("guard failure", p.Check(released).Error())

	sb = allocatedSandbox("sb-msg", now)
	sb["allocated_to_track"] = S("track\n123")
	p, err = PlanFor(MarkSandboxDeletion, sb, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Guard {
		if strings.Contains(c.Text, "\n") {
			t.Errorf("guard text %q", c.Text)
		}
	}
	for _, c := range p.Changes {
		if strings.ContainsAny(c.Before+c.After, "\n") {
			t.Errorf("change %+v", c)
		}
	}
}
