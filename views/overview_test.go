package views

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/terminal"
)

var ovTestNow = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// countedOverview is a pane holding a count made at ovTestNow, as if the
// store had answered it: sandboxes 3 available (alert < 5), 40 allocated,
// u-1 with 2 failed events (alert > 0).
func countedOverview(t *testing.T, opts OverviewOptions) *Overview {
	t.Helper()
	ctx := &Context{Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return ovTestNow }}
	p := NewOverview(ctx, opts)
	plan := p.Plan()
	var ov data.Overview
	ov.Plan, ov.At = plan, ovTestNow
	for _, m := range plan.Metrics(ovTestNow) {
		tl := data.Tally{Metric: m, CountedAt: ovTestNow, Consumed: 0.5}
		switch {
		case m.Key == data.MetricSandboxesAvailable:
			tl.N = 3
		case m.Key == data.MetricSandboxesAllocated:
			tl.N = 40
		case m.Key == data.MetricEventsFailed && m.Subject == "u-1":
			tl.N = 2
		}
		ov.Tallies = append(ov.Tallies, tl)
	}
	p.req = 1
	p.counting = true
	p.Update(overviewCountedMsg{req: 1, ov: ov})
	p.SetSize(100, 30)
	return p
}

var ovAlerts = []data.Threshold{{Metric: data.MetricSandboxesAvailable, Op: "<", Value: 5}, {Metric: data.MetricEventsFailed, Op: ">", Value: 0}}

func TestOverviewMarksAlertsWithAGlyph(t *testing.T) {
	p := countedOverview(t, OverviewOptions{Users: []string{"u-1", "u-2"}, Alerts: ovAlerts})
	screen := ansi.Strip(p.View())
	if !strings.Contains(screen, "!3") || !strings.Contains(screen, "!2") {
		t.Fatalf("alerting numbers carry no glyph:\n%s", screen)
	}
	if strings.Contains(screen, "!40") {
		t.Fatalf("a number under no threshold is marked:\n%s", screen)
	}
	got := p.Alerts()
	if len(got) != 2 || !strings.Contains(got[0], "sandboxes.available 3 (< 5)") || !strings.Contains(got[1], "events.failed[u-1] 2 (> 0)") {
		t.Fatalf("alerts for the status bar: %q", got)
	}
}

func TestOverviewEnterOpensTheNumbersScope(t *testing.T) {
	p := countedOverview(t, OverviewOptions{Users: []string{"u-1"}})
	// The cursor starts on the first number (available); down reaches the
	// sessions row, down again u-1's inbox row, right its retrying.
	for _, k := range []tea.KeyPressMsg{{Code: 'j'}, {Code: 'j'}, {Code: 'l'}} {
		p.Update(k)
	}
	cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter did nothing")
	}
	msg, ok := cmd().(OpenScopeMsg)
	if !ok {
		t.Fatalf("enter sent %T", cmd())
	}
	if want := data.EventsByStatus("u-1", "retrying#"); msg.Scope != want {
		t.Fatalf("opened %s, want %s", msg.Scope, want)
	}
}

func TestOverviewMovesWithTheTailAndRingsOnANewAlert(t *testing.T) {
	p := countedOverview(t, OverviewOptions{Alerts: ovAlerts, Bell: true})
	sbx := func(status string) data.Item {
		return data.Item{"PK": data.S("SBX#a"), "SK": data.S("META"), "status": data.S(status), "allocated_at": data.N(0)}
	}
	// One more available: 4, still under 5, no new alert, no bell.
	if cmd := p.Apply([]Change{{Table: data.TableSandboxes, Event: "INSERT", New: sbx("available")}}); cmd != nil {
		if _, ring := cmd().(terminal.Msg); ring {
			t.Fatal("rang for an alert already on")
		}
	}
	if !strings.Contains(ansi.Strip(p.View()), "!4") {
		t.Fatalf("the tail did not move the number:\n%s", ansi.Strip(p.View()))
	}
	// An allocated sandbox goes stale: stale > 0 is not configured, so
	// nothing rings; a configured threshold crossed by a change rings.
	p.opts.Alerts = append(p.opts.Alerts, data.Threshold{Metric: data.MetricSandboxesStale, Op: ">", Value: 0})
	cmd := p.Apply([]Change{{Table: data.TableSandboxes, Event: "MODIFY", Old: sbx("allocated"), New: sbx("stale")}})
	rang := false
	if cmd != nil {
		for _, m := range drainBatch(cmd) {
			if r, ok := m.(terminal.Msg); ok && r.Seq == "\a" {
				rang = true
			}
		}
	}
	if !rang {
		t.Fatal("a newly crossed threshold did not ring the bell")
	}
}

func drainBatch(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, drainBatch(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func TestOverviewCountsUsersItSees(t *testing.T) {
	p := countedOverview(t, OverviewOptions{Users: []string{"u-1"}})
	p.Apply([]Change{{Table: data.TableEvents, Event: "INSERT", New: data.Item{"user_id": data.S("u-9")}}})
	if got := p.Plan().InboxUsers(); len(got) != 2 || got[1] != "u-9" {
		t.Fatalf("plan users %v", got)
	}
	// An inbox user is not a graph-runs user: the two are other tenants.
	if got := p.Plan().RunsUsers(); len(got) != 1 {
		t.Fatalf("runs users %v", got)
	}
	// A hostile id is drawn inert.
	p.Apply([]Change{{Table: data.TableEvents, Event: "INSERT", New: data.Item{"user_id": data.S("evil\x1b[2J")}}})
	if strings.Contains(p.View(), "\x1b[2J") {
		t.Fatal("a user id reached the terminal as a control sequence")
	}
}

// BenchmarkOverviewFrame draws the overview at 120×40 with six users per
// service and four projects (what the console watches at most by itself),
// coloured, with alerts: the frame budget is 2 ms.
//
//	go test ./views/ -run '^$' -bench OverviewFrame
func BenchmarkOverviewFrame(b *testing.B) {
	ctx := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return ovTestNow }}
	users := []string{"user-1", "user-2", "user-3", "user-4", "user-5", "user-6"}
	p := NewOverview(ctx, OverviewOptions{EventUsers: users, RunUsers: users, Alerts: ovAlerts})
	p.seenProjects = []string{"proj-a", "proj-b", "proj-c", "proj-d"}
	var ov data.Overview
	ov.Plan, ov.At = p.Plan(), ovTestNow
	for i, m := range ov.Plan.Metrics(ovTestNow) {
		ov.Tallies = append(ov.Tallies, data.Tally{Metric: m, N: int64(i % 7), CountedAt: ovTestNow, Consumed: 0.5})
	}
	p.req, p.counting = 1, true
	p.Update(overviewCountedMsg{req: 1, ov: ov})
	p.SetSize(120, 36)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.View()
	}
}

// After a switch of connection the numbers of the old one are gone at
// once, and a count that was running when the switch came is not taken:
// its answer starts a count through the new connection instead.
func TestOverviewReconnectForgetsTheOldConnectionsNumbers(t *testing.T) {
	p := countedOverview(t, OverviewOptions{Users: []string{"u-1"}, Alerts: ovAlerts})
	if len(p.Alerts()) == 0 {
		t.Fatal("precondition: the counted overview alerts")
	}
	p.Reconnect()
	if got := p.Alerts(); len(got) != 0 {
		t.Fatalf("alerts of the old connection after Reconnect: %q", got)
	}
	if screen := ansi.Strip(p.View()); strings.Contains(screen, "!3") || strings.Contains(screen, "40") {
		t.Fatalf("old numbers still shown after Reconnect:\n%s", screen)
	}
	if p.Title() != "Overview" {
		t.Fatalf("title %q after Reconnect", p.Title())
	}

	// A count in flight when the switch comes.
	old := countedOverview(t, OverviewOptions{Users: []string{"u-1"}, Alerts: ovAlerts})
	answer := overviewCountedMsg{req: 7, ov: old.ov}
	p.ctx.Store = data.NewStore(nil, data.Tables{})
	p.req, p.counting = 7, true
	p.Reconnect()
	p.Update(answer)
	if len(p.Alerts()) != 0 || p.have {
		t.Fatal("the answer of a count through the old connection was taken")
	}
	if !p.counting || p.req == 7 {
		t.Fatalf("no count through the new connection started (counting %v, req %d)", p.counting, p.req)
	}
}
