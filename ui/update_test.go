package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data"
	"opsdeck/views"
)

func stripANSI(s string) string { return ansi.Strip(s) }

// attr reads a string attribute of a raw item ("" when absent or not S).
func attr(it data.Item, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

func TestOpensOnSessionsWithRowsAndQuota(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	if m.Active() != views.PaneSessions {
		t.Fatalf("active pane = %v, want Sessions", m.Active())
	}
	st := m.slotOf(views.PaneSessions).Status()
	if st.Rows == 0 || st.Loading || st.Err != "" {
		t.Fatalf("sessions status = %+v, want rows loaded without error", st)
	}
	out := screen(m, w.prefix)
	if !strings.Contains(out, "running / quota") {
		t.Errorf("quota header missing:\n%s", out)
	}
	if !strings.Contains(out, "Sessions · project "+w.rep.Defaults.SessionsProject) {
		t.Errorf("title does not name the scope:\n%s", out)
	}
}

func TestPaneSwitching(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	steps := []struct {
		key  string
		want views.PaneID
	}{
		{"tab", views.PaneRuns},
		{"tab", views.PaneInbox},
		{"shift+tab", views.PaneRuns},
		{"5", views.PaneSandboxes},
		{"6", views.PaneStream},
		{"tab", views.PaneOverview},
		{"tab", views.PaneSessions}, // wraps
		{"shift+tab", views.PaneOverview},
		{"0", views.PaneOverview},
		{"shift+tab", views.PaneStream},
		{"4", views.PaneDelegations},
		{"1", views.PaneSessions},
	}
	for _, s := range steps {
		m, _ = press(t, m, s.key)
		if m.Active() != s.want {
			t.Fatalf("after %q active = %v, want %v", s.key, m.Active(), s.want)
		}
	}
	// Every list pane loaded its demo scope when first shown.
	for _, id := range []views.PaneID{views.PaneRuns, views.PaneInbox, views.PaneDelegations, views.PaneSandboxes} {
		if st := m.Pane(id).Status(); st.Rows == 0 || st.Err != "" {
			t.Errorf("%v: status %+v, want rows", id.Name(), st)
		}
	}
}

func TestCursorMovesAndDetailOpensAndCloses(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	p := m.slotOf(views.PaneSessions)
	first, ok := p.sel.Selected()
	if !ok {
		t.Fatal("nothing selected after load")
	}
	m, _ = press(t, m, "j", "j")
	second, _ := p.sel.Selected()
	if attr(first, "sessionId") == attr(second, "sessionId") {
		t.Fatal("j did not move the cursor")
	}
	m, _ = press(t, m, "g")
	top, _ := p.sel.Selected()
	if attr(top, "sessionId") != attr(first, "sessionId") {
		t.Fatalf("g: selected %q, want the first row %q", attr(top, "sessionId"), attr(first, "sessionId"))
	}
	m, _ = press(t, m, "G")
	bottom, _ := p.sel.Selected()
	if attr(bottom, "sessionId") == attr(first, "sessionId") {
		t.Fatal("G did not move to the last row")
	}

	m, _ = press(t, m, "enter")
	out := screen(m, w.prefix)
	if !strings.Contains(out, "sessions · "+attr(bottom, "sessionId")) || !strings.Contains(out, "signingKey") {
		t.Fatalf("enter did not open the detail view of the selected session:\n%s", out)
	}
	m, quit := press(t, m, "esc")
	if quit || strings.Contains(screen(m, w.prefix), "signingKey") {
		t.Fatal("esc did not go back to the list")
	}
	if _, quit = press(t, m, "q"); !quit {
		t.Fatal("q did not quit")
	}
}

func TestKeysGoOnlyToTheFocusedPrompt(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, ":")
	m, quit := press(t, m, "q", "2", "tab")
	if quit {
		t.Fatal("q typed into the command line quit the program")
	}
	if m.Active() != views.PaneSessions || m.Mode() != "command" {
		t.Fatalf("keys leaked out of the command line: active %v, mode %s", m.Active(), m.Mode())
	}
	m, _ = press(t, m, "esc")
	if m.Mode() != "normal" {
		t.Fatalf("esc left mode %s", m.Mode())
	}
	// The help screen takes the keyboard too, and ? closes it.
	m, _ = press(t, m, "?")
	if m.Mode() != "help" || !strings.Contains(screen(m, w.prefix), ":sessions [projectId|status=S]") {
		t.Fatalf("help screen not shown:\n%s", screen(m, w.prefix))
	}
	m, _ = press(t, m, "3")
	if m.Active() != views.PaneSessions {
		t.Fatal("a key reached the panes while help was open")
	}
	m, _ = press(t, m, "?")
	if m.Mode() != "normal" {
		t.Fatal("? did not close help")
	}
}

func TestFilterNarrowsAndEscClears(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	p := m.slotOf(views.PaneSessions)
	all := p.Status().Visible
	m, _ = press(t, m, "/")
	m = typeText(t, m, "TIMED_OUT")
	st := p.Status()
	if st.Visible == 0 || st.Visible >= all {
		t.Fatalf("filter TIMED_OUT shows %d of %d rows", st.Visible, all)
	}
	if it, _ := p.sel.Selected(); attr(it, "status") != "TIMED_OUT" && attr(it, "internalStatus") != "TIMED_OUT" {
		t.Fatalf("selected row does not match the filter: %v", attr(it, "sessionId"))
	}
	m, _ = press(t, m, "enter") // keep the filter, back to normal mode
	if m.Mode() != "normal" || p.filter.Filter() != "TIMED_OUT" {
		t.Fatalf("enter: mode %s filter %q", m.Mode(), p.filter.Filter())
	}
	m, _ = press(t, m, "esc")
	if p.filter.Filter() != "" || p.Status().Visible != all {
		t.Fatalf("esc did not clear the filter: %q, %d rows", p.filter.Filter(), p.Status().Visible)
	}
	_ = m
}

func TestMarkRows(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	p := m.slotOf(views.PaneSessions)
	// space marks and moves down: rows 1 and 3 marked, the cursor on 4.
	m, _ = press(t, m, "space", "j", "space")
	items, hidden := p.marks.Marked()
	if len(items) != 2 || hidden != 0 {
		t.Fatalf("marked %d (hidden %d), want 2", len(items), hidden)
	}
	m, _ = press(t, m, "k", "space")
	if items, _ = p.marks.Marked(); len(items) != 1 {
		t.Fatalf("space did not unmark: %d marked", len(items))
	}
}

func TestCommands(t *testing.T) {
	w := seeded(t)
	d, h := w.rep.Defaults, w.rep.Hostile
	cases := []struct {
		line  string
		pane  views.PaneID
		title string
		// check inspects every loaded row's raw item.
		check func(t *testing.T, it data.Item)
		rows  int // exact row count when > 0
	}{
		{line: "sessions " + d.SessionsProject, pane: views.PaneSessions, title: "Sessions · project " + d.SessionsProject,
			check: func(t *testing.T, it data.Item) {
				if attr(it, "projectId") != d.SessionsProject {
					t.Errorf("row of project %q", attr(it, "projectId"))
				}
			}},
		{line: "sessions status=running", pane: views.PaneSessions, title: "Sessions · status RUNNING",
			check: func(t *testing.T, it data.Item) {
				if attr(it, "status") != "RUNNING" {
					t.Errorf("row with status %q", attr(it, "status"))
				}
			}},
		{line: "sessions", pane: views.PaneSessions, title: "Sessions · status RUNNING"},
		{line: "runs " + d.RunsUser, pane: views.PaneRuns, title: "Runs · user " + d.RunsUser,
			check: func(t *testing.T, it data.Item) {
				if attr(it, "PK") != "USER#"+d.RunsUser {
					t.Errorf("run of %q", attr(it, "PK"))
				}
			}},
		{line: "inbox " + d.InboxUser + " status=failed", pane: views.PaneInbox, title: "status failed*",
			check: func(t *testing.T, it data.Item) {
				if !strings.HasPrefix(attr(it, "status#timestamp"), "failed") {
					t.Errorf("event with status key %q", attr(it, "status#timestamp"))
				}
			}},
		{line: "inbox " + d.InboxUser + " type=order.", pane: views.PaneInbox, title: "type order.*",
			check: func(t *testing.T, it data.Item) {
				if !strings.HasPrefix(attr(it, "event_type#timestamp"), "order.") {
					t.Errorf("event with type key %q", attr(it, "event_type#timestamp"))
				}
			}},
		{line: "inbox " + d.InboxUser + " type=order. status=failed", pane: views.PaneInbox, title: "type order.* · status failed*",
			check: func(t *testing.T, it data.Item) {
				if !strings.HasPrefix(attr(it, "event_type#timestamp"), "order.") || !strings.HasPrefix(attr(it, "status#timestamp"), "failed") {
					t.Errorf("event %q / %q", attr(it, "event_type#timestamp"), attr(it, "status#timestamp"))
				}
			}},
		{line: "delegations " + d.Audience, pane: views.PaneDelegations, title: "Delegations · audience " + d.Audience,
			check: func(t *testing.T, it data.Item) {
				if attr(it, "audience") != d.Audience {
					t.Errorf("delegation to %q", attr(it, "audience"))
				}
			}},
		{line: "subscriptions " + d.Customer, pane: views.PaneDelegations, title: "Subscriptions · customer " + d.Customer,
			check: func(t *testing.T, it data.Item) {
				if attr(it, "customer") != d.Customer {
					t.Errorf("subscription of %q", attr(it, "customer"))
				}
			}},
		{line: "consumers " + d.Consumer, pane: views.PaneDelegations, title: "Consumers · consumer " + d.Consumer,
			check: func(t *testing.T, it data.Item) {
				if attr(it, "consumer") != d.Consumer {
					t.Errorf("consumer %q", attr(it, "consumer"))
				}
			}},
		{line: "sandboxes", pane: views.PaneSandboxes, title: "Sandboxes · status available",
			check: func(t *testing.T, it data.Item) {
				if attr(it, "status") != "available" {
					t.Errorf("sandbox %q", attr(it, "status"))
				}
			}},
		{line: "sandboxes status=allocated", pane: views.PaneSandboxes, title: "Sandboxes · status allocated"},
		{line: "sandboxes track=" + d.Track, pane: views.PaneSandboxes, title: "Sandboxes · track " + d.Track,
			check: func(t *testing.T, it data.Item) {
				if attr(it, "allocated_to_track") != d.Track {
					t.Errorf("sandbox of %q", attr(it, "allocated_to_track"))
				}
			}},
		{line: "sandboxes key=" + d.Track, pane: views.PaneSandboxes, title: "Sandboxes · key " + d.Track},
		{line: "stream sessions", pane: views.PaneStream, title: "Stream · sessions"},
		{line: "stream", pane: views.PaneStream, title: "Stream · all tables"},
		{line: "sessions " + h.Project, pane: views.PaneSessions, title: "Sessions · project " + h.Project},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			m := start(t, w.options(), 120, 40)
			m, quit := runLine(t, m, tc.line)
			if quit {
				t.Fatal("command quit")
			}
			if m.Active() != tc.pane {
				t.Fatalf("active = %v, want %v", m.Active(), tc.pane)
			}
			p := m.slotOf(tc.pane)
			if !strings.Contains(p.Title(), tc.title) {
				t.Fatalf("title %q does not contain %q", p.Title(), tc.title)
			}
			if m.Flash() != "" {
				t.Fatalf("unexpected message %q", m.Flash())
			}
			st := p.Status()
			if st.Err != "" || st.Loading {
				t.Fatalf("status %+v", st)
			}
			if tc.check != nil {
				if st.Rows == 0 {
					t.Fatal("no rows")
				}
				// Walk every row through the cursor and check its item.
				m, _ = press(t, m, "g")
				for i := 0; i < st.Rows; i++ {
					it, ok := p.sel.Selected()
					if !ok {
						t.Fatalf("row %d not selectable", i)
					}
					tc.check(t, it)
					m, _ = press(t, m, "j")
				}
			}
		})
	}
}

func TestSessionAndRunCommandsSelectThatItem(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "G")
	target, _ := m.slotOf(views.PaneSessions).sel.Selected()
	id := attr(target, "sessionId")
	m, _ = runLine(t, m, "session "+id)
	p := m.slotOf(views.PaneSessions)
	got, ok := p.sel.Selected()
	if !ok || attr(got, "sessionId") != id || p.Status().Rows != 1 {
		t.Fatalf(":session %s: selected %q of %d rows", id, attr(got, "sessionId"), p.Status().Rows)
	}

	m, _ = press(t, m, "2")
	run, _ := m.slotOf(views.PaneRuns).sel.Selected()
	runID := attr(run, "runId")
	m, _ = runLine(t, m, "run "+runID)
	got, ok = m.slotOf(views.PaneRuns).sel.Selected()
	if m.Active() != views.PaneRuns || !ok || attr(got, "runId") != runID {
		t.Fatalf(":run %s selected %q", runID, attr(got, "runId"))
	}

	m, _ = runLine(t, m, "session sess_does_not_exist")
	if st := m.slotOf(views.PaneSessions).Status(); st.Rows != 0 || st.Err != "" {
		t.Fatalf("missing session: %+v", st)
	}
	if !strings.Contains(screen(m, w.prefix), "no sessions in this scope") {
		t.Errorf("missing session not explained:\n%s", screen(m, w.prefix))
	}
}

func TestCommandErrorsAreOneLineAndChangeNothing(t *testing.T) {
	w := seeded(t)
	for _, line := range []string{"nosuch", "runs", "inbox u type=a type=b", "sandboxes a b", "stream nope", "sessions p status=RUNNING", "session"} {
		t.Run(line, func(t *testing.T) {
			m := start(t, w.options(), 80, 24)
			before := m.slotOf(views.PaneSessions).Title()
			m, quit := runLine(t, m, line)
			if quit {
				t.Fatal("quit on a bad command")
			}
			if m.Flash() == "" || strings.Contains(m.Flash(), "\n") {
				t.Fatalf("message %q, want one line", m.Flash())
			}
			if m.Active() != views.PaneSessions || m.slotOf(views.PaneSessions).Title() != before || m.Mode() != "normal" {
				t.Fatal("a bad command changed the view")
			}
			// The whole message is readable at 80 columns (the footer
			// gives it the full width) and the status bar flags it.
			lines := strings.Split(screen(m, w.prefix), "\n")
			if len(lines) != 24 || !strings.Contains(lines[23], m.Flash()) || !strings.Contains(lines[22], "│ ") {
				t.Fatalf("error %q not shown whole:\n%s", m.Flash(), strings.Join(lines, "\n"))
			}
		})
	}
}

func TestQuitCommand(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 80, 24)
	if _, quit := runLine(t, m, "q"); !quit {
		t.Fatal(":q did not quit")
	}
}

func TestCommandHistoryAndCompletion(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = runLine(t, m, "sandboxes")
	m, _ = runLine(t, m, "stream")
	m, _ = press(t, m, ":")
	m, _ = press(t, m, "up")
	if got := m.input.Value(); got != "stream" {
		t.Fatalf("↑ once = %q, want stream", got)
	}
	m, _ = press(t, m, "up")
	if got := m.input.Value(); got != "sandboxes" {
		t.Fatalf("↑ twice = %q, want sandboxes", got)
	}
	m, _ = press(t, m, "down", "down")
	if got := m.input.Value(); got != "" {
		t.Fatalf("↓ past the newest = %q, want the empty draft", got)
	}
	m = typeText(t, m, "sa")
	m, _ = press(t, m, "tab", "tab") // sandbox, then sandboxes
	if got := m.input.Value(); got != "sandboxes" {
		t.Fatalf("tab completed %q", got)
	}
	m = typeText(t, m, " status=a")
	m, _ = press(t, m, "tab")
	first := m.input.Value()
	m, _ = press(t, m, "tab")
	second := m.input.Value()
	if first == second || !strings.HasPrefix(first, "sandboxes status=a") || !strings.HasPrefix(second, "sandboxes status=a") {
		t.Fatalf("tab cycle: %q then %q", first, second)
	}
	m, _ = press(t, m, "enter")
	if !strings.HasPrefix(m.slotOf(views.PaneSandboxes).Title(), "Sandboxes · status a") {
		t.Fatalf("completed command ran as %q", m.slotOf(views.PaneSandboxes).Title())
	}
}

func TestReadOnlyBadge(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.ReadOnly = true
	m := start(t, o, 80, 24)
	lines := strings.Split(screen(m, w.prefix), "\n")
	if !strings.HasPrefix(lines[len(lines)-2], " RO ") {
		t.Fatalf("no RO badge in the status bar: %q", lines[len(lines)-2])
	}
}

// cellWidth is the display width of an unstyled line.
func cellWidth(s string) int { return ansi.StringWidth(s) }

func TestResizeReflows(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "enter") // the detail view reflows too
	for _, size := range [][2]int{{80, 24}, {200, 50}, {60, 15}, {120, 40}} {
		nm, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m = nm.(Model)
		checkFrame(t, screen(m, w.prefix), size[0], size[1])
		m, _ = press(t, m, "esc")
		checkFrame(t, screen(m, w.prefix), size[0], size[1])
		m, _ = press(t, m, "enter")
	}
	// Absurdly small terminals never panic and never overflow.
	for _, size := range [][2]int{{20, 5}, {1, 1}, {10, 2}, {0, 0}} {
		nm, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m = nm.(Model)
		if lines := strings.Split(m.Render(), "\n"); len(lines) > max(size[1], 1) {
			t.Fatalf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
	}
}

func TestCopyReportsWhatWasCopied(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = press(t, m, "c")
	if !strings.Contains(m.Flash(), "copied") || !strings.Contains(m.Flash(), "secrets masked") {
		t.Fatalf("copy from the list: %q", m.Flash())
	}
	m, _ = press(t, m, "enter", "s", "c")
	if !strings.Contains(m.Flash(), "copied") || strings.Contains(m.Flash(), "masked") {
		t.Fatalf("copy after reveal: %q", m.Flash())
	}
}

func TestCtrlCWithoutALoadDoesNotQuit(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 80, 24)
	m, quit := press(t, m, "ctrl+c")
	if quit || !strings.Contains(m.Flash(), "nothing to cancel") {
		t.Fatalf("ctrl+c: quit=%v flash=%q", quit, m.Flash())
	}
}
