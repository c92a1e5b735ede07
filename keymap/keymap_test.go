package keymap

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// testActionKeys are action keys as ui declares them from data/action's
// specs (the keymap, a leaf, cannot read those): ui's tests check the real
// declarations against the same rules.
var testActionKeys = []ActionKey{
	NewActionKey("release", "release session", true, "x"),
	NewActionKey("retry", "retry event", true, "R"),
	NewActionKey("mark_deletion", "mark for deletion / retry deletion", true, "D"),
	NewActionKey("mark_failed", "mark run failed", true, "F"),
}

// testPaneKeys are pane keys as ui declares them from the panes' registry.
var testPaneKeys = []PaneKey{
	NewPaneKey("1", "sessions"), NewPaneKey("2", "runs"), NewPaneKey("3", "inbox"),
	NewPaneKey("4", "delegations"), NewPaneKey("5", "sandboxes"), NewPaneKey("6", "stream"),
}

func declared() Map { return Default().WithPanes(testPaneKeys).WithActions(testActionKeys) }

func TestDefaultsNonEmptyAndHelped(t *testing.T) {
	m := declared()
	for _, name := range m.ActionNames() {
		b := m.Binding(name)
		if b == nil {
			t.Fatalf("action %q has no binding", name)
		}
		if len(b.Keys()) == 0 || !b.Enabled() {
			t.Errorf("action %q has no keys", name)
		}
		if b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("action %q has no help text", name)
		}
	}
}

// Every field of Map is reachable by name, so nothing is unrebindable.
func TestEveryFieldHasAnActionName(t *testing.T) {
	m := declared()
	seen := map[*key.Binding]bool{}
	for _, name := range m.ActionNames() {
		seen[m.Binding(name)] = true
	}
	v := reflect.ValueOf(&m).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Slice: // the pane keys and action keys
			for j := 0; j < f.Len(); j++ {
				if !seen[f.Index(j).FieldByName("Binding").Addr().Interface().(*key.Binding)] {
					t.Errorf("%s[%d] has no action name", v.Type().Field(i).Name, j)
				}
			}
		default:
			if !seen[f.Addr().Interface().(*key.Binding)] {
				t.Errorf("%s has no action name", v.Type().Field(i).Name)
			}
		}
	}
}

func TestDefaultsHaveNoConflicts(t *testing.T) {
	if c := declared().Conflicts(); len(c) != 0 {
		t.Fatalf("default keymap conflicts: %+v", c)
	}
}

func TestConflictsDetected(t *testing.T) {
	m := declared()
	if err := m.Rebind("reload", []string{"j"}); err != nil {
		t.Fatal(err)
	}
	c := m.Conflicts()
	if len(c) != 1 || c[0].Key != "j" || c[0].Actions != [2]string{"down", "reload"} {
		t.Fatalf("conflicts %+v", c)
	}
	// Mark (lists) and Pause (stream) share space on purpose; a dialog's
	// Deny shares esc with Back on purpose.
	m = declared()
	if !contains(m.Mark.Keys(), "space") || !contains(m.Pause.Keys(), "space") || !contains(m.Deny.Keys(), "esc") {
		t.Fatalf("intentional sharing changed; update this test")
	}
}

func TestNoTerminalHostileDefaults(t *testing.T) {
	bad := []string{"ctrl+b", "ctrl+a", "ctrl+s", "ctrl+q", "ctrl+z", "ctrl+d", "ctrl+k", "ctrl+\\"}
	m := declared()
	for _, name := range m.ActionNames() {
		for _, k := range m.Binding(name).Keys() {
			if contains(bad, k) {
				t.Errorf("action %q uses %q, which tmux/screen/the tty takes", name, k)
			}
		}
	}
}

func TestDefaultsMatchTheIssue(t *testing.T) {
	m := declared()
	want := map[string][]string{
		"up": {"k", "up"}, "down": {"j", "down"}, "top": {"g", "home"}, "bottom": {"G", "end"},
		"page_up": {"pgup"}, "page_down": {"pgdown"}, "enter": {"enter"}, "back": {"esc"},
		"quit": {"q"}, "help": {"?"}, "command": {":"}, "filter": {"/"},
		"next_pane": {"tab"}, "prev_pane": {"shift+tab"}, "pane_1": {"1"}, "pane_6": {"6"},
		"mark": {"space"}, "reload": {"r"}, "load_all": {"L"}, "cancel": {"ctrl+c"}, "copy": {"c"},
		"release": {"x"}, "retry": {"R"}, "mark_deletion": {"D"}, "mark_failed": {"F"},
		"confirm": {"y"}, "deny": {"n", "esc"}, "next_view": {"v"},
	}
	for name, keys := range want {
		if got := m.Binding(name).Keys(); !reflect.DeepEqual(got, keys) {
			t.Errorf("%s = %v, want %v", name, got, keys)
		}
	}
}

func TestKeyPressesMatch(t *testing.T) {
	m := declared()
	cases := []struct {
		msg tea.KeyPressMsg
		b   key.Binding
	}{
		{tea.KeyPressMsg{Code: 'j', Text: "j"}, m.Down},
		{tea.KeyPressMsg{Code: tea.KeyDown}, m.Down},
		{tea.KeyPressMsg{Code: 'g', Text: "G", ShiftedCode: 'G', Mod: tea.ModShift}, m.Bottom},
		{tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, m.Mark},
		{tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, m.PrevPane},
		{tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, m.Cancel},
		{tea.KeyPressMsg{Code: tea.KeyPgDown}, m.PageDown},
		{tea.KeyPressMsg{Code: '3', Text: "3"}, m.Panes[2].Binding},
		{tea.KeyPressMsg{Code: '>', Text: ">"}, m.SortNext},
	}
	for _, c := range cases {
		if !key.Matches(c.msg, c.b) {
			t.Errorf("%q does not match %v", c.msg.String(), c.b.Keys())
		}
	}
	if key.Matches(tea.KeyPressMsg{Code: 'g', Text: "g"}, m.Bottom) {
		t.Errorf("g matched Bottom")
	}
}

func TestRebind(t *testing.T) {
	m := declared()
	if err := m.Rebind("Reload", []string{"ctrl+r", " F5 "}); err != nil {
		t.Fatal(err)
	}
	if got := m.Reload.Keys(); !reflect.DeepEqual(got, []string{"ctrl+r", "F5"}) {
		t.Fatalf("keys %v", got)
	}
	if m.Reload.Help().Key != "ctrl+r/F5" || m.Reload.Help().Desc != "reload" {
		t.Fatalf("help %+v", m.Reload.Help())
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}, m.Reload) {
		t.Fatalf("ctrl+r does not reload")
	}
	if key.Matches(tea.KeyPressMsg{Code: 'r', Text: "r"}, m.Reload) {
		t.Fatalf("old key r still reloads")
	}
	if err := m.Rebind("mark-deletion", []string{"X"}); err != nil || m.Binding("mark_deletion").Keys()[0] != "X" {
		t.Fatalf("kebab-case name: %v", err)
	}
	if err := m.Rebind("pane_3", []string{" "}); err != nil || m.Panes[2].Binding.Keys()[0] != "space" {
		t.Fatalf("space by value: %v %v", err, m.Panes[2].Binding.Keys())
	}
}

func TestRebindErrors(t *testing.T) {
	m := declared()
	err := m.Rebind("frobnicate", []string{"z"})
	if err == nil || !strings.Contains(err.Error(), `unknown action "frobnicate"`) || !strings.Contains(err.Error(), "release") {
		t.Fatalf("unknown action error: %v", err)
	}
	if err := m.Rebind("quit", nil); err == nil || !strings.Contains(err.Error(), "no keys") {
		t.Fatalf("empty keys: %v", err)
	}
	if err := m.Rebind("quit", []string{"q", ""}); err == nil || !strings.Contains(err.Error(), "empty key") {
		t.Fatalf("blank key: %v", err)
	}
	if !reflect.DeepEqual(m.Quit.Keys(), []string{"q"}) {
		t.Fatalf("failed rebind changed quit: %v", m.Quit.Keys())
	}
}

func TestApply(t *testing.T) {
	m := declared()
	err := m.Apply(map[string][]string{"quit": {"Q"}, "next_pane": {"l"}}, map[string]int{"quit": 4, "next_pane": 5}, "cfg.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if m.Quit.Keys()[0] != "Q" || m.NextPane.Keys()[0] != "l" {
		t.Fatalf("not applied")
	}
}

func TestApplyErrorsNameTheLine(t *testing.T) {
	m := declared()
	before := declared()
	err := m.Apply(map[string][]string{"quit": {"Q"}, "foo": {"z"}, "help": {}},
		map[string]int{"quit": 3, "foo": 7, "help": 9}, "/home/op/.config/opsdeck/config.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		`/home/op/.config/opsdeck/config.yaml:7: unknown action "foo"`,
		`/home/op/.config/opsdeck/config.yaml:9: action "help": no keys given`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	// All or nothing: the valid "quit" line is not applied either.
	if !reflect.DeepEqual(m.Quit.Keys(), before.Quit.Keys()) {
		t.Fatalf("partial apply: quit = %v", m.Quit.Keys())
	}
}

func TestApplyRejectsClash(t *testing.T) {
	m := declared()
	err := m.Apply(map[string][]string{"reload": {"j"}}, map[string]int{"reload": 12}, "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `c.yaml:12: key "j" is bound to both "down" and "reload"`) {
		t.Fatalf("clash error: %v", err)
	}
	// Swapping two keys in one file is fine.
	err = m.Apply(map[string][]string{"up": {"j"}, "down": {"k"}}, nil, "c.yaml")
	if err != nil {
		t.Fatalf("swap rejected: %v", err)
	}
}

func TestHelpGroups(t *testing.T) {
	m := declared()
	groups := m.FullHelp()
	if len(groups) != 6 {
		t.Fatalf("want 6 groups (navigation, panes, data, actions, prompt, views), got %d", len(groups))
	}
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	if n != len(m.ActionNames()) {
		t.Fatalf("help lists %d bindings, there are %d actions", n, len(m.ActionNames()))
	}
	if len(m.ShortHelp()) == 0 {
		t.Fatal("no short help")
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// next_view (the Sessions pane's sub-view cycle) is an action like any
// other: named, in the help, rebindable, and checked for clashes.
func TestNextViewAction(t *testing.T) {
	m := declared()
	if !contains(m.ActionNames(), "next_view") || m.Binding("next_view") != &m.NextView {
		t.Fatalf("next_view is not a named action")
	}
	if h := m.NextView.Help(); h.Key != "v" || h.Desc != "sessions / keys / contexts / project" {
		t.Fatalf("help %+v", h)
	}
	inHelp := false
	for _, g := range m.FullHelp() {
		for _, b := range g {
			inHelp = inHelp || (len(b.Keys()) > 0 && b.Keys()[0] == "v" && b.Help().Desc == m.NextView.Help().Desc)
		}
	}
	if !inHelp {
		t.Fatalf("next_view missing from the generated help")
	}
	if err := m.Rebind("next-view", []string{"V"}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'v', Text: "V", ShiftedCode: 'V', Mod: tea.ModShift}, m.NextView) ||
		key.Matches(tea.KeyPressMsg{Code: 'v', Text: "v"}, m.NextView) {
		t.Fatalf("rebind to V: keys %v", m.NextView.Keys())
	}
	if m.NextView.Help().Key != "V" {
		t.Fatalf("help label not updated: %+v", m.NextView.Help())
	}
	// A list-pane key it must not share: reload.
	m = declared()
	err := m.Apply(map[string][]string{"next_view": {"r"}}, map[string]int{"next_view": 3}, "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `key "r" is bound to both "reload" and "next_view"`) {
		t.Fatalf("clash with reload: %v", err)
	}
	// The Stream pane never sees it, so sharing with pause is fine.
	m = declared()
	if err := m.Apply(map[string][]string{"next_view": {"p"}, "pause": {"p"}}, nil, "c.yaml"); err != nil {
		t.Fatalf("stream-only clash reported: %v", err)
	}
}

// A guarded write must never be one accidental key away: the confirm key
// cannot be a key pressed outside the dialog (the action's own key, so
// "x x" or a key repeat would release) nor a key pressed by habit.
func TestConfirmCannotBeOneAccidentalKeyAway(t *testing.T) {
	if h := declared().Hazards(); len(h) != 0 {
		t.Fatalf("defaults have hazards: %+v", h)
	}
	cases := []struct {
		bindings map[string][]string
		lines    map[string]int
		want     string
	}{
		{map[string][]string{"confirm": {"enter"}}, map[string]int{"confirm": 4},
			`c.yaml:4: confirm cannot be "enter": enter is pressed by habit to submit`},
		{map[string][]string{"confirm": {"x"}}, map[string]int{"confirm": 4},
			`c.yaml:4: confirm cannot be "x": it is also release's key: pressing it twice, or a key repeat, would open the dialog and confirm it`},
		{map[string][]string{"confirm": {"y", "D"}}, map[string]int{"confirm": 4},
			`c.yaml:4: confirm cannot be "D": it is also mark_deletion's key`},
		{map[string][]string{"release": {"y"}}, map[string]int{"release": 9},
			`c.yaml:9: confirm cannot be "y": it is also release's key`},
		{map[string][]string{"confirm": {"j"}}, map[string]int{"confirm": 4},
			`c.yaml:4: confirm cannot be "j": it is also down's key, pressed outside the dialog`},
		{map[string][]string{"confirm": {"space"}}, map[string]int{"confirm": 4}, `confirm cannot be "space"`},
		{map[string][]string{"confirm": {" "}}, map[string]int{"confirm": 4}, `confirm cannot be "space"`},
		{map[string][]string{"confirm": {"esc"}}, map[string]int{"confirm": 4}, `confirm cannot be "esc"`},
		// Enter freed from "open detail" is still a habit key.
		{map[string][]string{"enter": {"o"}, "confirm": {"enter"}}, map[string]int{"confirm": 4}, `c.yaml:4: confirm cannot be "enter"`},
	}
	for _, tc := range cases {
		m := declared()
		err := m.Apply(tc.bindings, tc.lines, "c.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want …%s…", tc.bindings, err, tc.want)
		}
		if !reflect.DeepEqual(m.Confirm.Keys(), declared().Confirm.Keys()) {
			t.Errorf("%v: refused bindings were applied: %v", tc.bindings, m.Confirm.Keys())
		}
	}
	// A key used nowhere else is fine, and so is moving release out of
	// confirm's way.
	m := declared()
	if err := m.Apply(map[string][]string{"confirm": {"Y"}}, nil, "c.yaml"); err != nil {
		t.Errorf("confirm: Y refused: %v", err)
	}
	m = declared()
	if err := m.Apply(map[string][]string{"release": {"X"}, "confirm": {"x"}}, nil, "c.yaml"); err != nil {
		t.Errorf("swap refused: %v", err)
	}
}

// Action keys come from the declarations: WithActions adds what is missing
// and keeps what a config file rebound; copies of a Map never share them.
func TestActionKeysAreDeclaredAndRebindable(t *testing.T) {
	if d := Default(); len(d.Actions) != 0 || d.Binding("release") != nil {
		t.Fatal("Default declares action keys itself")
	}
	m := declared()
	if got := m.Binding("retry"); got == nil || got.Keys()[0] != "R" || got.Help().Desc != "retry event" {
		t.Fatalf("retry: %+v", got)
	}
	if err := m.Rebind("retry", []string{"T"}); err != nil {
		t.Fatal(err)
	}
	again := m.WithActions(append(testActionKeys, NewActionKey("deactivate", "deactivate API key", true, "A")))
	if again.Binding("retry").Keys()[0] != "T" || len(again.Actions) != 5 || again.Binding("deactivate").Keys()[0] != "A" {
		t.Fatalf("WithActions lost a rebind or a new key: %v", again.ActionNames())
	}
	bad := m.WithActions([]ActionKey{NewActionKey("quit", "x", true, "Z"), NewActionKey("Mark-All", "x", true, "Z"), NewActionKey("", "x", true, "Z")})
	if len(bad.Actions) != len(m.Actions) {
		t.Errorf("a key that could not be rebound was added: %v", bad.ActionNames())
	}

	// A failed Apply leaves the Map as it was, action keys included, and
	// a rebind of a copy leaves the original alone.
	before := m.Binding("release").Keys()
	if err := m.Apply(map[string][]string{"release": {"j"}}, nil, "c.yaml"); err == nil {
		t.Fatal("a clash with down was accepted")
	}
	if got := m.Binding("release").Keys(); !reflect.DeepEqual(got, before) {
		t.Errorf("refused Apply changed release: %v", got)
	}
	cp := m
	if err := cp.Rebind("release", []string{"X"}); err != nil {
		t.Fatal(err)
	}
	if m.Binding("release").Keys()[0] != "x" || cp.Binding("release").Keys()[0] != "X" {
		t.Errorf("copies share action keys: %v / %v", m.Binding("release").Keys(), cp.Binding("release").Keys())
	}
	if !contains(m.ActionNames(), "mark_failed") || m.ActionNames()[len(m.ActionNames())-1] != "deny" {
		t.Errorf("help order: %v", m.ActionNames())
	}
}

// The hazard wording follows the declaration: a key that opens a write's
// confirmation gets the stronger one.
func TestHazardReadsTheDangerousFlag(t *testing.T) {
	m := Default().WithActions([]ActionKey{NewActionKey("peek", "peek", false, "p"), NewActionKey("zap", "zap", true, "z")})
	for _, tc := range []struct{ key, want string }{
		{"p", `confirm cannot be "p": it is also peek's key, pressed outside the dialog`},
		{"z", `confirm cannot be "z": it is also zap's key: pressing it twice, or a key repeat, would open the dialog and confirm it`},
	} {
		c := m
		if err := c.Apply(map[string][]string{"confirm": {tc.key}}, nil, ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("confirm %s: %v", tc.key, err)
		}
	}
}

// TestLookupAgreesWithAll: lookup walks all's order without building it;
// every action all lists is found by its name, as the same binding.
func TestLookupAgreesWithAll(t *testing.T) {
	m := declared()
	list := m.all()
	if len(list) < len(actions)+len(testPaneKeys)+len(testActionKeys) {
		t.Fatalf("all lists %d actions", len(list))
	}
	for _, a := range list {
		got, ok := m.lookup(a.name)
		if !ok || got.name != a.name || got.ctx != a.ctx || got.get(&m) != a.get(&m) {
			t.Errorf("lookup(%q) = %v, %v; all has it with context %v", a.name, got.name, ok, a.ctx)
		}
	}
	if _, ok := m.lookup("no_such_action"); ok {
		t.Error("an unknown name was found")
	}
}
