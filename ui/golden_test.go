package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/views"
)

// probe wraps the console for teatest: after every message it publishes a
// snapshot of the program's state, taken on the program's goroutine (the
// panes are not safe to read from another one), so a test can wait for a
// condition (a channel with a deadline) instead of sleeping.
type probe struct {
	Model
	frames chan frame
}

type frame struct {
	active views.PaneID
	status views.Status
	screen string
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	nm, cmd := p.Model.Update(msg)
	p.Model = nm.(Model)
	f := frame{active: p.Model.Active(), status: p.Model.slotOf(p.Model.Active()).Status(), screen: p.Model.Render()}
	publishLatest(p.frames, f)
	return p, cmd
}

// waitFor reads published frames until cond holds or the deadline passes.
func waitFor(t *testing.T, frames chan frame, what string, cond func(frame) bool) frame {
	t.Helper()
	return awaitLatest(t, frames, what, cond)
}

// settled: the shown pane is not loading and has answered at least once
// (or is a pane that loads nothing), and the Sessions quota has arrived.
func settledOn(id views.PaneID) func(frame) bool {
	return func(f frame) bool {
		if f.active != id {
			return false
		}
		st := f.status
		if id != views.PaneStream && (st.Loading || !st.HasReq) {
			return false
		}
		if id == views.PaneSessions && strings.Contains(f.screen, "quota loading") {
			return false
		}
		return true
	}
}

// TestGoldenPanes renders every pane of the demo world at 120×40 and 80×24
// through the real program (teatest) and compares the frame, without
// styling, to testdata/. Run with -update to rewrite after a deliberate
// change, and read the diff.
func TestGoldenPanes(t *testing.T) {
	w := seeded(t)
	panes := []struct {
		key  string
		id   views.PaneID
		name string
	}{
		{"1", views.PaneSessions, "sessions"},
		{"2", views.PaneRuns, "runs"},
		{"3", views.PaneInbox, "inbox"},
		{"4", views.PaneDelegations, "delegations"},
		{"5", views.PaneSandboxes, "sandboxes"},
		{"6", views.PaneStream, "stream"},
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		for _, p := range panes {
			t.Run(fmt.Sprintf("%s_%dx%d", p.name, size[0], size[1]), func(t *testing.T) {
				frames := make(chan frame, 1)
				tm := teatest.NewTestModel(t, probe{Model: New(w.options()), frames: frames},
					teatest.WithInitialTermSize(size[0], size[1]))
				waitFor(t, frames, "the Sessions pane to load", settledOn(views.PaneSessions))
				if p.key != "1" {
					tm.Type(p.key)
					waitFor(t, frames, p.name+" to load", settledOn(p.id))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe).Model
				out := screen(final, w.prefix)
				checkFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestGoldenDetailAndHelp covers the two other full-screen states.
func TestGoldenDetailAndHelp(t *testing.T) {
	w := seeded(t)
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"detail_80x24", []string{"enter"}},
		{"help_80x24", []string{"?"}},
		{"filter_80x24", []string{"/", "T", "I", "M", "E", "D"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := start(t, w.options(), 80, 24)
			m, _ = press(t, m, tc.keys...)
			out := screen(m, w.prefix)
			checkFrame(t, out, 80, 24)
			golden.RequireEqual(t, out)
		})
	}
}

// checkFrame asserts the frame is exactly w×h with the tab bar first and
// the status bar second to last.
func checkFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := cellWidth(l); n != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, n, w, l)
		}
	}
	if !strings.HasPrefix(lines[0], " 1 Sess") || !strings.Contains(lines[0], " 6 ") {
		t.Fatalf("tab bar damaged: %q", lines[0])
	}
	if !strings.Contains(lines[h-2], "env ") {
		t.Fatalf("status bar damaged: %q", lines[h-2])
	}
}
