package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"opsdeck/themes"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// TestPanesComeFromTheRegistry: the tab bar names every registered pane
// with its key, and a pane key rebound by its config name (pane_<key>)
// switches to that pane, with the help showing the new key.
func TestPanesComeFromTheRegistry(t *testing.T) {
	km := DefaultKeys()
	if err := km.Rebind("pane_2", []string{"w"}); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Keys: km, Theme: themes.Plain(), Now: func() time.Time { return fixedNow }, Timer: uitest.Timer})
	m.setSize(160, 30)
	bar := stripANSI(m.Render())
	for _, s := range views.Registry() {
		// An on-demand pane's tab shows only while it is shown.
		if s.OnDemand == strings.Contains(bar, " "+s.Name+" ") {
			t.Errorf("tab bar and %s (on demand: %v):\n%s", s.Name, s.OnDemand, bar)
		}
		if s.OnDemand {
			shown, _ := press(t, m, s.DefaultKey)
			if tabs := strings.SplitN(stripANSI(shown.Render()), "\n", 2)[0]; shown.Active() != s.ID || !strings.Contains(tabs, s.Name) {
				t.Errorf("%s: active %s, tab bar %q", s.DefaultKey, shown.Active().Name(), tabs)
			}
		}
	}
	if !strings.Contains(bar, " w Runs") {
		t.Errorf("tab bar does not show Runs' rebound key:\n%s", bar)
	}
	m, _ = press(t, m, "w")
	if m.Active() != views.PaneRuns {
		t.Fatalf("w showed %s, want Runs", m.Active().Name())
	}
	m, _ = press(t, m, "2")
	if m.Active() != views.PaneRuns {
		t.Fatalf("the old key 2 still switches panes (now on %s)", m.Active().Name())
	}
}

// TestRootKnowsPanesOnlyThroughTheContract: no file of the root
// type-asserts a pane, names a particular pane, or keeps a typed handle on
// one; everything goes through views.Pane, its capability interfaces and
// views.Registry. The capabilities are resolved in one place, slot.go,
// once per pane: nowhere else does the root ask what a pane is.
func TestRootKnowsPanesOnlyThroughTheContract(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := regexp.MustCompile(`\.\(\*?views\.[A-Z]|\bviews\.Pane(Sessions|Runs|Inbox|Delegations|Sandboxes|Stream)\b|\*views\.(Sessions|Runs|Inbox|Delegations|Sandboxes|Stream)\b`)
	resolve := regexp.MustCompile(`^\s*s\.\w+, _ = p\.\(views\.[A-Z]\w*\)$`)
	resolved := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if f == "slot.go" && resolve.MatchString(line) {
				resolved++
				continue
			}
			if forbidden.MatchString(line) {
				t.Errorf("%s:%d reaches a particular pane: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
	if resolved == 0 {
		t.Error("slot.go resolves no capability: the check above has lost its subject")
	}
}
