package ui

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// These tests need no database: they hold the keymap, the help screen and
// README.md to the action declarations (action.Specs).

// Every declared action has its key in the default keymap, described by
// its verb, dangerous when it writes, and the defaults clash nowhere.
func TestEveryDeclaredActionHasItsKey(t *testing.T) {
	km := DefaultKeys()
	for _, s := range action.Specs() {
		b := km.Binding(s.Key)
		if b == nil {
			t.Errorf("%s: the keymap has no action key %q", s.Kind, s.Key)
			continue
		}
		if !slices.Contains(b.Keys(), s.DefaultKey) || !strings.Contains(b.Help().Desc, s.Verb) {
			t.Errorf("%s: key %q is %v %q, want %q described as %q", s.Kind, s.Key, b.Keys(), b.Help().Desc, s.DefaultKey, s.Verb)
		}
		i := slices.IndexFunc(km.Actions, func(a keymap.ActionKey) bool { return a.Name == s.Key })
		if s.Dangerous && !km.Actions[i].Dangerous {
			t.Errorf("%s writes, but its key %q is not dangerous", s.Kind, s.Key)
		}
	}
	if c := km.Conflicts(); len(c) != 0 {
		t.Errorf("default keys clash: %+v", c)
	}
	if h := km.Hazards(); len(h) != 0 {
		t.Errorf("default confirm key is a hazard: %+v", h)
	}
}

// A rebound action key starts its actions, the old key no longer does,
// and a model built from a keymap without action keys gets the declared
// ones.
func TestActionKeysFollowTheKeymap(t *testing.T) {
	km := DefaultKeys()
	if err := km.Apply(map[string][]string{"release": {"X"}}, nil, "c.yaml"); err != nil {
		t.Fatal(err)
	}
	m := bareModel(t, Options{Keys: km})
	m, _ = press(t, m, "3", "x")
	if strings.Contains(m.Flash(), "release") {
		t.Errorf("x still releases: %q", m.Flash())
	}
	m, _ = press(t, m, "X")
	if want := "X (release session) applies to sessions rows; this list shows nothing yet"; m.Flash() != want {
		t.Errorf("X: flash %q, want %q", m.Flash(), want)
	}
	m = bareModel(t, Options{Keys: keymap.Default()})
	if m.ctx.Keys.Binding("mark_failed") == nil {
		t.Errorf("the model's keymap lacks the declared action keys: %v", m.ctx.Keys.ActionNames())
	}
}

// Read-only mode offers no dangerous action: their keys are disabled for
// help and hints, and pressing one says why.
func TestReadOnlyStripsDangerousActions(t *testing.T) {
	m := bareModel(t, Options{ReadOnly: true})
	for _, a := range m.ctx.Keys.Actions {
		if a.Dangerous && a.Binding.Enabled() {
			t.Errorf("read-only mode offers %s", a.Name)
		}
	}
	for _, s := range action.Specs() {
		m, _ = press(t, m, s.DefaultKey)
		if !strings.HasPrefix(m.Flash(), "read-only mode: actions are not offered ("+s.DefaultKey+" would ") {
			t.Errorf("%s: flash %q", s.DefaultKey, m.Flash())
		}
	}
}

// Help lists every action by its key and verb, and says why the tables
// that have none have none.
func TestHelpListsTheDeclaredActions(t *testing.T) {
	_, seen := helpPages(t, 120, 40)
	flat := strings.Join(strings.Fields(seen), " ")
	for _, s := range action.Specs() {
		if !strings.Contains(flat, s.DefaultKey) || !strings.Contains(flat, s.Verb) {
			t.Errorf("help does not list %s (%s %s)", s.Kind, s.DefaultKey, s.Verb)
		}
	}
	if !strings.Contains(flat, action.DelegationsReadOnly) {
		t.Errorf("help does not say why delegations have no action")
	}
}

// README.md's action table has one row per action key, with its default
// key and the pane of its table, and no other row.
func TestReadmeActionTableMatchesTheDeclarations(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([A-Za-z ]+) \\| .+ \\|$")
	i := strings.Index(string(raw), "| key | pane | action |")
	if i < 0 {
		t.Fatal("README.md has no action table (| key | pane | action |)")
	}
	table := string(raw[i:])
	table = table[:strings.Index(table, "\n\n")]
	got := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		got[m[1]] = m[2]
	}
	want := map[string]string{}
	for _, s := range action.Specs() {
		pane, ok := views.ScanPane(s.Table)
		if !ok {
			t.Fatalf("%s: no pane shows %s", s.Kind, s.Table)
		}
		want[s.DefaultKey] = pane.Name()
	}
	for k, pane := range want {
		if got[k] != pane {
			t.Errorf("README.md: key `%s` should be a row for the %s pane, found %q", k, pane, got[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("README.md lists key `%s`, which starts no declared action", k)
		}
	}
}

// The outcome of a step after the write is shown next to the write's, and
// a failed step makes the line an error while the write stays reported as
// done.
func TestAStepOutcomeIsShownNextToTheWrite(t *testing.T) {
	m := bareModel(t, Options{})
	p := releasePlan(t)
	ok := action.Result{Plan: p, OK: true, Message: "released sess_step", Current: p.Seen,
		Then: &action.StepResult{Step: "stop-task", Message: "the task still runs: AccessDenied; stop it with: aws ecs stop-task --task t"}}
	m.act.showResult(&m, ok)
	if f := m.Flash(); f != "released sess_step ✓ · the task still runs: AccessDenied; stop it with: aws ecs stop-task --task t" || !m.cmdErr {
		t.Errorf("flash %q (error %v)", f, m.cmdErr)
	}
	if l := resultLine(ok); !strings.HasPrefix(l, "released sess_step · the task still runs") {
		t.Errorf("bulk line %q", l)
	}
}

// The dialog shows an action's step after the write under "Then".
func TestDialogShowsTheStepAfterTheWrite(t *testing.T) {
	p := releasePlan(t)
	p.Then = "Stop the session's ECS task: StopTask arn:aws:ecs:us-east-1:1:task/c/abc"
	d := newConfirmDialog(confirmSpec{plans: []action.Plan{p}, theme: themes.Plain(), confirm: DefaultKeys().Confirm, deny: DefaultKeys().Deny})
	out := stripANSI(d.View(120, 60))
	if !strings.Contains(out, "Then") || !strings.Contains(out, "• Stop the session's ECS task: StopTask arn:aws:ecs:us-east-1:1:task/c/abc") {
		t.Errorf("dialog:\n%s", out)
	}
}

func releasePlan(t *testing.T) action.Plan {
	t.Helper()
	seen := data.Item{
		"sessionId": sv("sess_step"), "status": sv("RUNNING"), "internalStatus": sv("READY"),
		"updatedAt": sv("2026-11-21T11:00:00Z"),
	}
	p, err := action.PlanFor(action.ReleaseSession, seen, fixedNow, action.Options{Operator: action.Operator{User: "alice@box"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// bareModel is the console with no database behind it, 120×40.
func bareModel(t *testing.T, o Options) Model {
	t.Helper()
	o.Theme, o.Now, o.Timer = themes.Plain(), func() time.Time { return fixedNow }, uitest.Timer
	m := New(o)
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return nm.(Model)
}
