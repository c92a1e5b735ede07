package views

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data"
)

// The Overview and the quota line place each stream record against the
// count it would move (data.ReadSpan.Place): what the count saw moves
// nothing, what came after moves it, the rest makes it ≈ and a re-count
// late enough to settle it is armed. No database: the spans and the
// records' bounds are given.

func placedSession(id, status string) data.Item {
	return data.Item{"sessionId": data.S(id), "projectId": data.S("p-1"), "status": data.S(status),
		"expiresAt": data.N(ovTestNow.Unix() + 3600), "createdAt": data.S("2026-11-23T08:00:00Z")}
}

type armed struct {
	d   time.Duration
	msg tea.Msg
}

// spannedOverview is a counted overview whose sessions numbers were read
// over span: RUNNING 5 (alert >= 5), COMPLETED 2.
func spannedOverview(t *testing.T, span data.ReadSpan) (*Overview, *[]armed) {
	t.Helper()
	timers := &[]armed{}
	ctx := &Context{Now: func() time.Time { return ovTestNow }, Timer: func(d time.Duration, m tea.Msg) tea.Cmd {
		*timers = append(*timers, armed{d, m})
		return nil
	}}
	p := countedOverview(t, OverviewOptions{Alerts: []data.Threshold{{Metric: data.MetricSessionsRunning, Op: ">=", Value: 5}}})
	theme := p.ctx.Theme
	ctx.Theme, ctx.Keys = theme, p.ctx.Keys
	p.ctx = ctx
	for i := range p.ov.Tallies {
		tl := &p.ov.Tallies[i]
		tl.Span = span
		switch tl.Key {
		case data.MetricSessionsRunning:
			tl.N = 5
		case data.MetricSessionsCompleted:
			tl.N = 2
		}
	}
	return p, timers
}

func sessionsNumbers(p *Overview) (running, completed data.Tally) {
	for _, tl := range p.ov.Tallies {
		switch tl.Key {
		case data.MetricSessionsRunning:
			running = tl
		case data.MetricSessionsCompleted:
			completed = tl
		}
	}
	return
}

func TestOverviewNeverCountsAChangeTwice(t *testing.T) {
	from := time.Now().Add(-time.Second)
	span := data.ReadSpan{From: from, To: from.Add(100 * time.Millisecond), Slack: 50 * time.Millisecond}
	minute := from.Truncate(time.Minute)
	completed := Change{Table: data.TableSessions, Event: "MODIFY", Old: placedSession("s1", "RUNNING"), New: placedSession("s1", "COMPLETED"),
		At: minute, Shard: "sh", Seq: "100"}

	// The recipe: completed just before `r`, its record read
	// after the count. Neither number moves; both say ≈; so does the alert.
	p, timers := spannedOverview(t, span)
	c := completed
	c.NotBy, c.ReadBy = from.Add(-2*time.Second), from.Add(500*time.Millisecond)
	p.Apply([]Change{c})
	run, done := sessionsNumbers(p)
	if run.N != 5 || done.N != 2 || !run.Estimated || !done.Estimated {
		t.Fatalf("a change the count may hold: RUNNING %d (≈ %v), COMPLETED %d (≈ %v)", run.N, run.Estimated, done.N, done.Estimated)
	}
	if screen := ansi.Strip(p.View()); !strings.Contains(screen, "≈5") || !strings.Contains(screen, "≈2") {
		t.Fatalf("the numbers do not say they are estimates:\n%s", screen)
	}
	if al := p.Alerts(); len(al) != 1 || !strings.Contains(al[0], "sessions.running ≈5 (>= 5)") {
		t.Fatalf("the alert does not say its number is an estimate: %q", al)
	}
	settle := false
	for _, a := range *timers {
		if m, ok := a.msg.(overviewTickMsg); ok && m.settle && a.d >= data.CountSlack {
			settle = true
		}
	}
	if !settle {
		t.Fatalf("no re-count armed to settle it: %+v", *timers)
	}

	// The same change read well before the count started: the count has it.
	p, _ = spannedOverview(t, span)
	c = completed
	c.ReadBy = from.Add(-time.Second)
	p.Apply([]Change{c})
	if run, done := sessionsNumbers(p); run.N != 5 || done.N != 2 || run.Estimated || done.Estimated {
		t.Fatalf("a change the count saw moved it: %d %d", run.N, done.N)
	}

	// Made after the count (not there when the shard was read after it):
	// exact, and the alert ends.
	p, _ = spannedOverview(t, span)
	c = completed
	c.NotBy, c.ReadBy = span.To.Add(time.Second), span.To.Add(2*time.Second)
	p.Apply([]Change{c})
	if run, done := sessionsNumbers(p); run.N != 4 || done.N != 3 || run.Estimated || done.Estimated {
		t.Fatalf("a change after the count: RUNNING %d COMPLETED %d", run.N, done.N)
	}
	if al := p.Alerts(); len(al) != 0 {
		t.Fatalf("an alert on a number that fell under it: %q", al)
	}
}

// TestOverviewPlacesChangesThatCameDuringItsCount: records that arrived
// while the count ran (or just before it started) are placed against it
// when it answers, not applied on top of it.
func TestOverviewPlacesChangesThatCameDuringItsCount(t *testing.T) {
	p, _ := spannedOverview(t, data.ReadSpan{})
	from := time.Now()
	p.counting, p.req = true, 7
	old := Change{Table: data.TableSessions, Event: "MODIFY", Old: placedSession("s1", "RUNNING"), New: placedSession("s1", "COMPLETED"),
		At: from.Truncate(time.Minute), ReadBy: from.Add(-time.Second)}
	p.Apply([]Change{old})
	ov := p.ov
	ov.Tallies = append([]data.Tally(nil), p.ov.Tallies...)
	for i := range ov.Tallies {
		ov.Tallies[i].Span = data.ReadSpan{From: from, To: from.Add(100 * time.Millisecond), Slack: 50 * time.Millisecond}
		ov.Tallies[i].Estimated = false
	}
	p.Update(overviewCountedMsg{req: 7, ov: ov})
	if run, done := sessionsNumbers(p); run.N != 5 || done.N != 2 || run.Estimated || done.Estimated {
		t.Fatalf("a change read before the count was applied on top of it: RUNNING %d COMPLETED %d", run.N, done.N)
	}
}

func TestQuotaPlacesChangesAgainstItsCount(t *testing.T) {
	from := time.Now().Add(-time.Second)
	span := data.ReadSpan{From: from, To: from.Add(100 * time.Millisecond), Slack: 50 * time.Millisecond}
	p := quotaSessions(t)
	p.quota.span = span
	ch := Change{Table: data.TableSessions, Event: "MODIFY", Old: placedSession("q-1", "RUNNING"), New: placedSession("q-1", "COMPLETED"),
		At: from.Truncate(time.Minute)}

	c := ch
	c.ReadBy = from.Add(-time.Second) // the count saw it
	p.Apply([]Change{c})
	if h := p.quotaLine(120); !strings.Contains(h, "project p-1 · 2 running / quota 5") {
		t.Fatalf("a change the count saw moved it: %q", h)
	}
	c = ch
	c.NotBy, c.ReadBy = from.Add(-time.Second), from.Add(time.Second) // cannot tell
	if cmd := p.Apply([]Change{c}); cmd == nil || !p.quota.pending {
		t.Fatal("no re-read armed for a change that cannot be placed")
	}
	if h := p.quotaLine(120); !strings.Contains(h, "≈2 running / quota 5") {
		t.Fatalf("an unplaced change does not make the count ≈: %q", h)
	}
	// The re-read answers: exact again.
	p.quota.req, p.quota.loading = 43, true
	p.Update(quotaMsg{pane: PaneSessions, req: 43, found: true, running: 1, project: data.Project{ProjectID: "p-1", Concurrency: data.IntNumber(5)},
		span: data.ReadSpan{From: time.Now().Add(time.Minute), To: time.Now().Add(time.Minute)}})
	if h := p.quotaLine(120); !strings.Contains(h, " 1 running / quota 5") || strings.Contains(h, "≈") {
		t.Fatalf("after the re-read: %q", h)
	}
	c = ch
	c.Old, c.New = ch.New, ch.Old
	c.At, c.NotBy = time.Now().Add(2*time.Minute), time.Now().Add(2*time.Minute) // made after the re-read
	p.Apply([]Change{c})
	if h := p.quotaLine(120); !strings.Contains(h, " 2 running / quota 5") || strings.Contains(h, "≈") {
		t.Fatalf("a change after the count: %q", h)
	}
}
