package ui

import (
	"fmt"

	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
)

// TestDemandFollowsTheScreen: the reader is told to read at full rate
// exactly the tables on screen — the shown pane's, all of them on the
// unnarrowed Stream pane, the Stream pane's narrowing always — and is told
// again only when that changes.
func TestDemandFollowsTheScreen(t *testing.T) {
	w := seeded(t)
	var calls []string
	o := w.options()
	o.Demand = func(full []data.TableID) { calls = append(calls, fmt.Sprint(full)) }
	m := start(t, o, 120, 30)
	last := func() string {
		if len(calls) == 0 {
			return "(none)"
		}
		return calls[len(calls)-1]
	}
	expect := func(when, want string) {
		t.Helper()
		if got := last(); got != want {
			t.Errorf("%s: demand %s, want %s (all calls %v)", when, got, want, calls)
		}
	}
	expect("at start on Sessions", "[sessions]")
	n := len(calls)
	m, _ = press(t, m, "j", "k")
	if len(calls) != n {
		t.Errorf("moving the cursor re-sent the demand: %v", calls[n:])
	}
	m, _ = press(t, m, "6")
	expect("on the Stream pane", fmt.Sprint(tableIDs()))
	m, _ = runLine(t, m, "stream events")
	expect("Stream pane narrowed to events", "[events]")
	m, _ = press(t, m, "2")
	expect("on Runs with the Stream pane narrowed", "[graph-runs events]")

	// The status bar says which tables are read at full rate.
	for _, s := range data.Schemas() {
		m = batch(t, m, livefeed.BatchMsg{Health: []stream.Health{{Table: s.ID, State: stream.StateLive}}})
	}
	if st := statusLine(m); !strings.Contains(st, "tail 2 live 8 slow") {
		t.Errorf("status bar %q, want \"tail 2 live 8 slow\"", st)
	}
}

func tableIDs() []data.TableID {
	var ids []data.TableID
	for _, s := range data.Schemas() {
		ids = append(ids, s.ID)
	}
	return ids
}

func statusLine(m Model) string {
	lines := strings.Split(stripANSI(m.Render()), "\n")
	return lines[len(lines)-2]
}

// TestThrottledAndGapSpanShown: "throttled" is shown with its reason, and
// a gap names the span of changes that may be missing, in the title and
// the status bar.
func TestThrottledAndGapSpanShown(t *testing.T) {
	r := newHealthRig(t)
	r.m.live.loc = time.UTC
	r.report(stream.StateThrottled, "LimitExceededException")
	r.expect("throttled", "throttled (LimitExceededException)", "sessions throttled")
	nm, _ := r.m.Update(livefeed.BatchMsg{Health: []stream.Health{{Table: data.TableSessions, State: stream.StateGap,
		Detail: "records trimmed", GapFrom: time.Date(2026, 11, 21, 12, 3, 10, 0, time.UTC), GapTo: time.Date(2026, 11, 21, 12, 18, 40, 0, time.UTC)}}})
	r.m = nm.(Model)
	r.expect("gap", "gap 12:03:10–12:18:40", "sessions gap 12:03:10–12:18:40")
}
