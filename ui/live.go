package ui

import (
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// The live tail in the root model: batches from the feed go to every pane
// as records (Tail: the Stream pane shows them) and as views.Change (Apply:
// the list panes update rows), and to an open confirmation; tables without
// a stream are polled instead. The tables' stream health lives here, in
// the root: the title line, the status bar and the polling decision read
// it.

// DefaultFallbackInterval is how often a pane showing a table without a
// stream re-reads its rows.
const DefaultFallbackInterval = 5 * time.Second

// liveState is the root's live-tail bookkeeping.
type liveState struct {
	feed     *livefeed.Feed // nil: no live tail
	fallback time.Duration
	// health is each table's last reported stream health (raw: shownHealth
	// debounces it for display).
	health map[data.TableID]stream.Health
	// redrawAt is when the scheduled redraw fires (zero: none scheduled);
	// lastChange is when the last change was applied. Both are wall-clock:
	// they are about the terminal, not the data.
	redrawAt   time.Time
	lastChange time.Time
	// reconnect tracks tables that left live, for the debounced display
	// (live_health.go).
	reconnect map[data.TableID]reconnectSeen
	// demand is the reader's demand hook and what it was last told
	// (live_demand.go); loc formats gap spans.
	demand     func([]data.TableID)
	demandSent string
	wanted     map[data.TableID]bool // nil: every table at full rate
	loc        *time.Location
	// lineage is each table's shard turnover so far (live_lineage.go).
	lineage map[data.TableID]stream.Lineage
}

func (m *Model) initLive(o Options) {
	m.live.feed = o.Feed
	m.live.health = map[data.TableID]stream.Health{}
	m.live.demand = o.Demand
	m.live.loc = o.Location
	if m.live.loc == nil {
		m.live.loc = time.Local
	}
	m.live.fallback = o.FallbackInterval
	if m.live.fallback <= 0 {
		m.live.fallback = DefaultFallbackInterval
	}
}

// redrawMsg ends highlights: it only makes the program draw again.
type redrawMsg struct{}

// pollTickMsg asks the shown pane to re-read its rows if its table has no
// stream.
type pollTickMsg struct{}

// liveInit starts the feed and the polling timer.
func (m Model) liveInit() tea.Cmd {
	if m.live.feed == nil {
		return nil
	}
	return tea.Batch(m.live.feed.Next(), m.pollTick())
}

func (m Model) pollTick() tea.Cmd {
	return m.ctx.After(m.live.fallback, pollTickMsg{})
}

// onBatch applies one batch in whatever mode the console is in: the root
// keeps the health, every pane gets the records (Tail) and the changes
// (Apply), so does an open confirmation, and the feed is always asked for
// the next one.
func (m Model) onBatch(b livefeed.BatchMsg) (Model, tea.Cmd) {
	if b.From != nil && b.From != m.live.feed {
		// Made by the feed of a connection the console has left: its
		// records belong to another env, and that feed is closed.
		return m, nil
	}
	var cmds []tea.Cmd
	for _, h := range b.Health {
		cmds = append(cmds, m.noteHealth(h))
		if h.NotAllowed {
			m.streamNotAllowed(h)
		}
		if h.Table != "" {
			m.live.health[h.Table] = h
		}
		if h.Replaced {
			cmds = append(cmds, m.streamReplaced(h))
		}
	}
	for _, p := range m.panes {
		if p.tail != nil {
			p.tail.Tail(b.Records, b.Dropped)
		}
	}
	m.noteLineage(b.Lineage)
	cmds = append(cmds, noteSeen(m.ctx.Seen, b.Records))
	if len(b.Records) > 0 {
		changes := toChanges(b.Records)
		cmds = append(cmds, m.changesToDialog(changes))
		for _, p := range m.panes {
			if p.apply != nil {
				cmds = append(cmds, p.apply.Apply(changes))
			}
		}
		cmds = append(cmds, m.changed())
	}
	if b.Dropped > 0 {
		// Records were lost between the reader and here, so rows may be
		// stale in ways no later record will fix: read them again.
		for _, p := range m.panes {
			if p.poll != nil {
				cmds = append(cmds, p.poll.Reload())
			}
		}
		m.setFlash(plural(b.Dropped, "stream record")+" dropped (the console fell behind): lists reloaded", true)
	}
	if m.live.feed != nil {
		cmds = append(cmds, m.live.feed.Next())
	}
	return m, tea.Batch(cmds...)
}

// streamReplaced: a table's stream was replaced (the table re-created or
// its stream re-enabled). Every pane drops what it showed of the table and
// reads it again, and the operator is told why the rows went away.
func (m *Model) streamReplaced(h stream.Health) tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range m.panes {
		if p.replaced != nil {
			cmds = append(cmds, p.replaced.Replaced(h.Table))
		}
	}
	span := m.gapSpan(h)
	if span != "" {
		span = " (changes " + span + " may be missing)"
	}
	m.setFlash(string(h.Table)+": stream replaced — table re-created or stream re-enabled"+span+": reloaded", true)
	return tea.Batch(cmds...)
}

// toChanges converts reader records to the panes' change shape.
func toChanges(recs []stream.Record) []views.Change {
	out := make([]views.Change, len(recs))
	for i, r := range recs {
		out[i] = views.Change{Table: r.Table, Event: r.EventName, Keys: r.Keys, Old: r.Old, New: r.New, TTL: r.TTL,
			At: r.ApproxTime, Shard: r.Shard, Seq: r.Seq, NotBy: r.NotBy, ReadBy: r.ReadBy}
	}
	return out
}

// changed notes that rows were just highlighted and schedules one redraw
// for when the highlight ends, unless one is already due late enough.
func (m *Model) changed() tea.Cmd {
	if m.live.feed == nil {
		// Without a live tail (tests driving the model by hand) nothing
		// needs a timer: the next key redraws.
		return nil
	}
	now := time.Now()
	m.live.lastChange = now
	if !m.live.redrawAt.IsZero() {
		return nil
	}
	m.live.redrawAt = now.Add(views.HighlightFor)
	return m.ctx.After(views.HighlightFor, redrawMsg{})
}

// onRedraw re-arms the redraw while newer highlights are still showing.
func (m Model) onRedraw() (Model, tea.Cmd) {
	m.live.redrawAt = time.Time{}
	left := time.Until(m.live.lastChange.Add(views.HighlightFor))
	if left <= 0 {
		return m, nil
	}
	m.live.redrawAt = time.Now().Add(left)
	return m, m.ctx.After(left, redrawMsg{})
}

// onPollTick polls the shown pane when its table has no stream (or its
// stream stopped), and always re-arms the timer. A tick that comes while a
// refresh is still running is dropped by the pane.
func (m Model) onPollTick() (Model, tea.Cmd) {
	var cmd tea.Cmd
	if p := m.panes[m.active]; m.needsPolling(p.shownTable()) {
		cmd = p.poll.Poll()
	}
	return m, tea.Batch(cmd, m.pollTick())
}

// onPollDone merges a refresh into its pane.
func (m Model) onPollDone(msg views.PollMsg) (Model, tea.Cmd) {
	p := m.slotOf(msg.Pane)
	if p == nil || p.poll == nil {
		return m, nil
	}
	return m, tea.Batch(p.poll.PollDone(msg), m.changed())
}

// Health is table t's last reported stream health (raw, not debounced).
func (m Model) Health(t data.TableID) (stream.Health, bool) {
	h, ok := m.live.health[t]
	return h, ok
}

// needsPolling: the table has no stream, or its reader stopped.
func (m Model) needsPolling(t data.TableID) bool {
	if t == "" {
		return false
	}
	h, ok := m.live.health[t]
	return ok && (h.State == stream.StatePolling || h.State == stream.StateOff)
}

// liveLabel is the shown table's live state for the title line: "live",
// "polling every 5s", "reconnecting", "gap", "off"; "" until the reader
// has reported on that table (or without a live tail).
func (m Model) liveLabel(p *slot) string {
	t := p.shownTable()
	if t == "" {
		return ""
	}
	h, ok := m.shownHealth(t)
	if !ok {
		return ""
	}
	switch h.State {
	case stream.StatePolling:
		if h.NotAllowed {
			return "stream not allowed: polling every " + shortDuration(m.live.fallback)
		}
		return "polling every " + shortDuration(m.live.fallback)
	case stream.StateOff:
		return "stream off: polling every " + shortDuration(m.live.fallback)
	case stream.StateGap:
		if span := m.gapSpan(h); span != "" {
			return "gap " + span
		}
		fallthrough
	case stream.StateReconnecting, stream.StateThrottled:
		if signedOut(h) {
			// What to run is the whole news; the state adds nothing.
			return inert.Line(h.Detail, 60)
		}
		// Say why, briefly: the title must keep room for the pane's name.
		if h.Detail != "" {
			return string(h.State) + " (" + inert.Line(h.Detail, 32) + ")"
		}
	case stream.StateLive:
		if m.live.wanted != nil && !m.live.wanted[t] {
			return "live (slow)"
		}
	}
	return string(h.State)
}

// gapSpan is the span of changes a gap report says may be missing,
// "12:03:10–12:18:40" ("" when the report has none).
func (m Model) gapSpan(h stream.Health) string {
	if h.GapTo.IsZero() {
		return ""
	}
	to := h.GapTo.In(m.live.loc).Format(time.TimeOnly)
	if h.GapFrom.IsZero() {
		return "before " + to
	}
	return h.GapFrom.In(m.live.loc).Format(time.TimeOnly) + "–" + to
}

// healthSummary counts tables by stream state, compactly enough for 80
// columns: "2 live 7 slow 1 polling" (live: read at full rate because a
// pane shows it; slow: read every few seconds because none does). Other
// states name their tables, since those are the ones an operator must
// look at, and a gap its span. "" until the reader has reported (or
// without a live tail).
func (m Model) healthSummary() string {
	var nLive, nSlow, nPoll, nPaused int
	var bad []string
	signIn := ""
	for _, s := range data.Schemas() {
		h, ok := m.shownHealth(s.ID)
		if !ok {
			continue
		}
		if signedOut(h) {
			// Every table waits for the same sign-in: say it once, and
			// briefly (the status bar cuts at 40 cells; the title and the
			// message line give the whole command).
			signIn = strings.TrimSuffix(stream.SignedOut, ": ")
			continue
		}
		switch h.State {
		case stream.StateLive:
			if m.live.wanted != nil && !m.live.wanted[s.ID] {
				nSlow++
			} else {
				nLive++
			}
		case stream.StatePolling:
			if h.NotAllowed {
				bad = append(bad, string(s.ID)+" polling (stream denied)")
				continue
			}
			nPoll++
		case stream.StatePaused:
			nPaused++
		case stream.StateGap:
			bad = append(bad, strings.TrimSpace(string(s.ID)+" gap "+m.gapSpan(h)))
		default:
			bad = append(bad, string(s.ID)+" "+string(h.State))
		}
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{nLive, "live"}, {nSlow, "slow"}, {nPoll, "polling"}, {nPaused, "paused"}} {
		if c.n > 0 {
			parts = append(parts, strconv.Itoa(c.n)+" "+c.what)
		}
	}
	parts = append(parts, bad...)
	if signIn != "" {
		parts = append([]string{signIn}, parts...)
	}
	if l := m.lineageSummary("", false); l != "" && len(parts) > 0 {
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

func shortDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.Itoa(int(d/time.Second)) + "s"
	}
	return d.String()
}

// streamHealthLine is every table's stream state for the Stream pane's
// status bar: the tables that need attention first, named with their
// state, then the live ones, so a narrow terminal cuts the least useful
// part: "graph-runs reconnecting · sandboxes polling · live: sessions events".
func (m Model) streamHealthLine() string {
	var first, ok, slow []string
	for _, s := range data.Schemas() {
		h, known := m.shownHealth(s.ID)
		switch {
		case !known:
		case signedOut(h):
			if !slices.Contains(first, h.Detail) {
				first = append([]string{h.Detail}, first...)
			}
		case h.State == stream.StateLive && m.live.wanted != nil && !m.live.wanted[s.ID]:
			slow = append(slow, string(s.ID))
		case h.State == stream.StateLive:
			ok = append(ok, string(s.ID))
		case h.State == stream.StateGap:
			first = append(first, strings.TrimSpace(string(s.ID)+" gap "+m.gapSpan(h)))
		case h.NotAllowed:
			first = append(first, string(s.ID)+" polling (stream denied)")
		default:
			first = append(first, string(s.ID)+" "+string(h.State))
		}
	}
	// Shard turnover before the list of live tables: a narrow terminal
	// cuts the end of the line, and a rollover is news, the list is not.
	// A Stream pane narrowed to one table counts that table's.
	var narrowed data.TableID
	if d := m.panes[m.active].demand; d != nil {
		if ts, _ := d.LiveTables(true); len(ts) == 1 {
			narrowed = ts[0]
		}
	}
	if l := m.lineageSummary(narrowed, true); l != "" {
		first = append(first, l)
	}
	if len(ok) > 0 {
		first = append(first, "live: "+strings.Join(ok, " "))
	}
	if len(slow) > 0 {
		first = append(first, "slow: "+strings.Join(slow, " "))
	}
	return strings.Join(first, " · ")
}

// signedOut: the table's tail waits for an SSO sign-in; its Detail says
// what to run (data/stream: SignedOut).
func signedOut(h stream.Health) bool {
	return (h.State == stream.StateReconnecting || h.State == stream.StateThrottled) && strings.HasPrefix(h.Detail, stream.SignedOut)
}

// noteSeen adds the ids in the live tail's records to the seen index, off
// the UI's goroutine (the index is safe for concurrent use; the records
// are not changed after the batch is made).
func noteSeen(seen *views.Seen, recs []stream.Record) tea.Cmd {
	if seen == nil || len(recs) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, r := range recs {
			if len(r.New) > 0 {
				seen.Items(r.Table, []data.Item{r.New})
			}
		}
		return nil
	}
}
