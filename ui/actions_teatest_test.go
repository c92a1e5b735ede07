package ui

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// The same flows through the real program (teatest): keys go in as a
// terminal would send them, Cmds run on the program's goroutines, and the
// test waits on published models (probe, waitFor) — never on a sleep.

// snap is what a flow test looks at, taken on the program's goroutine
// (the model's panes are pointers: reading them from the test goroutine
// would race with the program).
type snap struct {
	mode, flash, screen string
	sessions, sandboxes views.Status
	marked              int
}

// actProbe publishes a snap after every message, keeping only the newest.
type actProbe struct {
	Model
	snaps chan snap
}

func (p actProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	nm, cmd := p.Model.Update(msg)
	p.Model = nm.(Model)
	marked, _ := p.Model.slotOf(views.PaneSandboxes).marks.Marked()
	s := snap{mode: p.Model.Mode(), flash: p.Model.Flash(), screen: stripANSI(p.Model.Render()),
		sessions: p.Model.slotOf(views.PaneSessions).Status(), sandboxes: p.Model.slotOf(views.PaneSandboxes).Status(), marked: len(marked)}
	publishLatest(p.snaps, s)
	return p, cmd
}

// await reads snaps until cond holds or the deadline passes.
func await(t *testing.T, snaps chan snap, what string, cond func(snap) bool) snap {
	t.Helper()
	return awaitLatest(t, snaps, what, cond)
}

func runConsole(t *testing.T, o Options, w, h int) (*teatest.TestModel, chan snap) {
	t.Helper()
	snaps := make(chan snap, 1)
	tm := teatest.NewTestModel(t, actProbe{Model: New(o), snaps: snaps}, teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() { _ = tm.Quit() })
	await(t, snaps, "the Sessions pane to load", func(s snap) bool {
		return !s.sessions.Loading && s.sessions.HasReq && s.sessions.Rows > 0
	})
	return tm, snaps
}

func dialogWith(text string) func(snap) bool {
	return func(s snap) bool { return s.mode == "dialog" && strings.Contains(s.screen, text) }
}

func flashHas(text string) func(snap) bool {
	return func(s snap) bool { return s.mode == "normal" && strings.Contains(s.flash, text) }
}

func TestFlowConfirmThenCancelThenConfirm(t *testing.T) {
	w := newActWorld(t)
	before := w.session("sess_flow", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	tm, snaps := runConsole(t, w.options(), 120, 40)

	tm.Type("x")
	await(t, snaps, "the confirmation", dialogWith("Release session sess_flow?"))
	tm.Type("n")
	await(t, snaps, "the cancel message", flashHas("cancelled: nothing written"))
	if got := w.get(data.TableSessions, sessKey("sess_flow")); !sameItem(got, before) {
		t.Fatal("cancel wrote to the item")
	}

	tm.Type("x")
	await(t, snaps, "the confirmation again", dialogWith("Release session sess_flow?"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	await(t, snaps, "enter to mean No", flashHas("cancelled: nothing written"))
	if got := w.get(data.TableSessions, sessKey("sess_flow")); !sameItem(got, before) {
		t.Fatal("enter wrote to the item")
	}

	tm.Type("x")
	await(t, snaps, "the confirmation a third time", dialogWith("Release session sess_flow?"))
	tm.Type("y")
	m := await(t, snaps, "the result", flashHas("released sess_flow ✓"))
	got := w.get(data.TableSessions, sessKey("sess_flow"))
	if strAttr(got, "status") != "COMPLETED" || strAttr(got, "internalStatus") != "STOPPED" {
		t.Errorf("item after confirm: %v", got)
	}
	if !strings.Contains(m.screen, "COMPLETED") {
		t.Error("row not redrawn")
	}
}

func TestFlowGuardFailureMessage(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_lost", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	tm, snaps := runConsole(t, w.options(), 120, 40)
	tm.Type("x")
	await(t, snaps, "the confirmation", dialogWith("Release session sess_lost?"))
	// Another operator's write lands while the dialog is open.
	w.set(data.TableSessions, sessKey("sess_lost"), data.Item{"internalStatus": sv("ACTIVE"), "updatedAt": sv("2026-11-21T11:58:00Z")})
	tm.Type("y")
	m := await(t, snaps, "the guard failure", flashHas("not released: changed since seen: internalStatus was READY, is now ACTIVE"))
	if !strings.Contains(m.screen, "not released: changed since seen") {
		t.Error("failure not on screen")
	}
	if strAttr(w.get(data.TableSessions, sessKey("sess_lost")), "status") != "RUNNING" {
		t.Error("the write went through")
	}
}

func TestFlowBulkProgressAndSummary(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_placeholder", "COMPLETED", "STOPPED", fixedNow.Add(-time.Hour)) // Sessions pane loads
	for _, id := range []string{"sb-1", "sb-2", "sb-3", "sb-4", "sb-5"} {
		w.sandbox(id, time.Hour)
	}
	tm, snaps := runConsole(t, w.options(), 100, 30)
	tm.Type("5")
	await(t, snaps, "the sandboxes", func(s snap) bool { return s.sandboxes.Rows == 5 })
	for i := 0; i < 5; i++ {
		tm.Send(tea.KeyPressMsg{Code: ' ', Text: " "}) // marks and moves down
	}
	await(t, snaps, "five marks", func(s snap) bool { return s.marked == 5 })
	tm.Type("D")
	await(t, snaps, "the bulk confirmation", dialogWith("Apply to 5 sandboxes?"))
	tm.Type("y")
	m := await(t, snaps, "the summary", dialogWith("5 rows: 5 succeeded, 0 guard failed, 0 errors"))
	if !strings.Contains(m.flash, "5 of 5 succeeded") {
		t.Errorf("flash %q", m.flash)
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	await(t, snaps, "the summary to close", func(s snap) bool { return s.mode == "normal" })
	for _, id := range []string{"sb-1", "sb-2", "sb-3", "sb-4", "sb-5"} {
		if s := strAttr(w.get(data.TableSandboxes, sbKey(id)), "status"); s != "pending_deletion" {
			t.Errorf("%s: %s", id, s)
		}
	}
}

// TestGoldenConfirmDialog pins the dialog's layout at both sizes (run with
// -update after a deliberate change and read the diff).
func TestGoldenConfirmDialog(t *testing.T) {
	w := newActWorld(t)
	w.tenant = "golden-tenant" // a fixed name: it is on screen
	w.session("sess_golden", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := start(t, w.options(), size[0], size[1])
			m, _ = press(t, m, "x")
			out := stripANSI(m.Render())
			checkFrame(t, out, size[0], size[1])
			golden.RequireEqual(t, out)
		})
	}
}

// writeGate holds the first UpdateItem at the server's door until the test
// opens it, so the test can stop a bulk run while a row is in flight.
type writeGate struct {
	entered chan struct{}
	open    chan struct{}
	once    bool
}

func (g *writeGate) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") && !g.once {
		g.once = true // only the program's single bulk goroutine writes
		close(g.entered)
		<-g.open
	}
	return http.DefaultTransport.RoundTrip(req)
}

func TestFlowBulkStopsAfterTheCurrentRow(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_placeholder", "COMPLETED", "STOPPED", fixedNow.Add(-time.Hour))
	ids := []string{"sb-s1", "sb-s2", "sb-s3"}
	for _, id := range ids {
		w.sandbox(id, time.Hour)
	}
	g := &writeGate{entered: make(chan struct{}), open: make(chan struct{})}
	tm, snaps := runConsole(t, w.withClient(g, false), 100, 30)
	tm.Type("5")
	await(t, snaps, "the sandboxes", func(s snap) bool { return s.sandboxes.Rows == 3 })
	for range ids {
		tm.Send(tea.KeyPressMsg{Code: ' ', Text: " "}) // marks and moves down
	}
	await(t, snaps, "three marks", func(s snap) bool { return s.marked == 3 })
	tm.Type("D")
	await(t, snaps, "the bulk confirmation", dialogWith("Apply to 3 sandboxes?"))
	tm.Type("y")
	select {
	case <-g.entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the first write never started")
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	await(t, snaps, "the stop notice", dialogWith("stopping after the current row"))
	close(g.open)
	s := await(t, snaps, "the summary", dialogWith("3 rows: 1 succeeded, 0 guard failed, 2 errors"))
	if !strings.Contains(s.screen, "Errors (2)") || strings.Count(s.screen, "stopped by the operator before this row") != 2 {
		t.Errorf("summary:\n%s", s.screen)
	}
	var pending int
	for _, id := range ids {
		if strAttr(w.get(data.TableSandboxes, sbKey(id)), "status") == "pending_deletion" {
			pending++
		}
	}
	if pending != 1 {
		t.Errorf("%d rows written, want exactly the one in flight", pending)
	}
}
