package ui

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/themes"
)

// dialogText is a confirmation dialog for plan as a terminal shows it.
func dialogText(t *testing.T, p action.Plan) string {
	t.Helper()
	d := newConfirmDialog(confirmSpec{plans: []action.Plan{p}, theme: themes.Plain(), confirm: DefaultKeys().Confirm, deny: DefaultKeys().Deny})
	return stripANSI(d.View(120, 60))
}

// The release's guard says "status is still RUNNING" once: the values
// pinned as seen are listed together, each with what it held, and every
// clause sent is still on screen.
func TestReleaseDialogSaysTheStatusRuleOnce(t *testing.T) {
	p := releasePlan(t)
	out := dialogText(t, p)
	if n := strings.Count(out, "status is still RUNNING"); n != 1 {
		t.Errorf("\"status is still RUNNING\" %d times:\n%s", n, out)
	}
	for _, c := range p.Guard {
		want := c.Text
		if c.Seen && c.Attr != "" {
			want = c.Attr + " " + c.Value
		}
		if !strings.Contains(squash(strings.ReplaceAll(out, "│", "")), squash(want)) {
			t.Errorf("clause %q (%s) not on the dialog:\n%s", c.Text, c.Expr, out)
		}
	}
	if !strings.Contains(squash(out), squash("unchanged since seen: status RUNNING · internalStatus READY · updatedAt")) {
		t.Errorf("the seen values are not listed together:\n%s", out)
	}
}

// A requeue keeps status failed: it is not listed as a change
// ("failed → failed (kept)"), but said to be unchanged; retry_count's
// reset is the change.
func TestRequeueDialogListsOnlyRealChanges(t *testing.T) {
	const ts = "2026-11-21T10:30:45.123456Z"
	seen := data.Item{
		"user_id": sv("user-1"), "timestamp#event_id": sv(ts + "#ev_1"), "event_id": sv("ev_1"),
		"event_type": sv("order.completed"), "status": sv("failed"), "timestamp": sv(ts),
		"event_type#timestamp": sv("order.completed#" + ts), "status#timestamp": sv("failed#" + ts),
		"retry_count": &types.AttributeValueMemberN{Value: "5"},
	}
	p, err := action.PlanFor(action.RequeueEvent, seen, fixedNow, action.Options{RetryMax: 5, Operator: action.Operator{User: "alice@box"}})
	if err != nil {
		t.Fatal(err)
	}
	out := dialogText(t, p)
	if strings.Contains(out, "(kept)") || strings.Contains(out, "failed → failed") {
		t.Errorf("a kept value listed as a change:\n%s", out)
	}
	for _, want := range []string{"retry_count 5 → 0", "unchanged: status failed · status#timestamp failed#" + ts} {
		if !strings.Contains(squash(out), squash(want)) {
			t.Errorf("dialog lacks %q:\n%s", want, out)
		}
	}
}

// The detail view's footer lists the detail view's keys, not those of the
// list under it (enter, / and v do nothing there).
func TestDetailShowsItsOwnKeys(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 30)
	m, _ = press(t, m, "enter")
	if !m.panes[m.active].marks.DetailOpen() {
		t.Fatal("enter opened no detail view")
	}
	rows := terminalRows(t, m)
	foot := rows[len(rows)-1]
	for _, want := range []string{"esc back to the list", "c copy JSON", "s reveal"} {
		if !strings.Contains(foot, want) {
			t.Errorf("detail footer lacks %q: %q", want, foot)
		}
	}
	for _, not := range []string{"open detail", "filter", "sessions / keys"} {
		if strings.Contains(foot, not) {
			t.Errorf("detail footer shows the list's %q: %q", not, foot)
		}
	}
}
