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

// The live tail, a sub-model of the root (liveTail): batches from the
// feed go to every pane as records (Tail: the Stream pane shows them) and
// as views.Change (Apply: the list panes update rows), and to an open
// confirmation; tables without a stream are polled instead. The tables'
// stream health lives here: the title line, the status bar and the
// polling decision read it.

// DefaultFallbackInterval is how often a pane showing a table without a
// stream re-reads its rows.
const DefaultFallbackInterval = 5 * time.Second

// liveTail is the live tail's sub-model. It owns the feed, each table's
// stream health, the redraw and poll timers, the reader's demand and the
// shard turnover, and handles its own messages (Update). It reaches the
// panes and the message line through the root it is given, which only
// routes to it.
type liveTail struct {
	ctx      *views.Context
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

func newLiveTail(ctx *views.Context, o Options) liveTail {
	l := liveTail{ctx: ctx, feed: o.Feed, health: map[data.TableID]stream.Health{}, demand: o.Demand, loc: o.Location, fallback: o.FallbackInterval}
	if l.loc == nil {
		l.loc = time.Local
	}
	if l.fallback <= 0 {
		l.fallback = DefaultFallbackInterval
	}
	return l
}

// Update handles the live tail's own messages: a batch from the feed, a
// poll's answer, the poll and redraw timers, a reconnect's grace ending.
// handled is false for any other message.
func (l *liveTail) Update(r *Model, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case livefeed.BatchMsg:
		return l.onBatch(r, msg), true
	case views.PollMsg:
		return l.onPollDone(r, msg), true
	case pollTickMsg:
		return l.onPollTick(r), true
	case redrawMsg:
		return l.onRedraw(), true
	case healthSettleMsg:
		return nil, true // the redraw shows a reconnect that outlasted its grace
	}
	return nil, false
}

// adopt follows a new connection's feed (where.go): what the previous
// reader reported is dropped.
func (l *liveTail) adopt(feed *livefeed.Feed, demand func([]data.TableID)) {
	l.feed, l.demand = feed, demand
	l.health = map[data.TableID]stream.Health{}
	l.lineage = nil // the new reader's shard turnover counts from zero
	l.reconnect = nil
	l.demandSent, l.wanted = "", nil
}

// redrawMsg ends highlights: it only makes the program draw again.
type redrawMsg struct{}

// pollTickMsg asks the shown pane to re-read its rows if its table has no
// stream.
type pollTickMsg struct{}

// liveInit starts the feed and the polling timer.
func (l *liveTail) Init() tea.Cmd {
	if l.feed == nil {
		return nil
	}
	return tea.Batch(l.feed.Next(), l.pollTick())
}

func (l *liveTail) pollTick() tea.Cmd {
	return l.ctx.After(l.fallback, pollTickMsg{})
}

// onBatch applies one batch in whatever mode the console is in: the root
// keeps the health, every pane gets the records (Tail) and the changes
// (Apply), so does an open confirmation, and the feed is always asked for
// the next one.
func (l *liveTail) onBatch(r *Model, b livefeed.BatchMsg) tea.Cmd {
	if b.From != nil && b.From != l.feed {
		// Made by the feed of a connection the console has left: its
		// records belong to another env, and that feed is closed.
		return nil
	}
	var cmds []tea.Cmd
	for _, h := range b.Health {
		cmds = append(cmds, l.noteHealth(r.panes, h))
		if h.NotAllowed {
			l.streamNotAllowed(r, h)
		}
		if h.Table != "" {
			l.health[h.Table] = h
		}
		if h.Replaced {
			cmds = append(cmds, l.streamReplaced(r, h))
		}
	}
	for _, p := range r.panes {
		if p.tail != nil {
			p.tail.Tail(b.Records, b.Dropped)
		}
	}
	l.noteLineage(b.Lineage)
	cmds = append(cmds, noteSeen(l.ctx.Seen, b.Records))
	if len(b.Records) > 0 {
		changes := toChanges(b.Records)
		cmds = append(cmds, r.changesToDialog(changes))
		for _, p := range r.panes {
			if p.apply != nil {
				cmds = append(cmds, p.apply.Apply(changes))
			}
		}
		cmds = append(cmds, l.changed())
	}
	if b.Dropped > 0 {
		// Records were lost between the reader and here, so rows may be
		// stale in ways no later record will fix: read them again.
		for _, p := range r.panes {
			if p.poll != nil {
				cmds = append(cmds, p.poll.Reload())
			}
		}
		r.setFlash(plural(b.Dropped, "stream record")+" dropped (the console fell behind): lists reloaded", true)
	}
	if l.feed != nil {
		cmds = append(cmds, l.feed.Next())
	}
	return tea.Batch(cmds...)
}

// streamReplaced: a table's stream was replaced (the table re-created or
// its stream re-enabled). Every pane drops what it showed of the table and
// reads it again, and the operator is told why the rows went away.
func (l *liveTail) streamReplaced(r *Model, h stream.Health) tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range r.panes {
		if p.replaced != nil {
			cmds = append(cmds, p.replaced.Replaced(h.Table))
		}
	}
	span := l.gapSpan(h)
	if span != "" {
		span = " (changes " + span + " may be missing)"
	}
	r.setFlash(string(h.Table)+": stream replaced — table re-created or stream re-enabled"+span+": reloaded", true)
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
func (l *liveTail) changed() tea.Cmd {
	if l.feed == nil {
		// Without a live tail (tests driving the model by hand) nothing
		// needs a timer: the next key redraws.
		return nil
	}
	now := time.Now()
	l.lastChange = now
	if !l.redrawAt.IsZero() {
		return nil
	}
	l.redrawAt = now.Add(views.HighlightFor)
	return l.ctx.After(views.HighlightFor, redrawMsg{})
}

// onRedraw re-arms the redraw while newer highlights are still showing.
func (l *liveTail) onRedraw() tea.Cmd {
	l.redrawAt = time.Time{}
	left := time.Until(l.lastChange.Add(views.HighlightFor))
	if left <= 0 {
		return nil
	}
	l.redrawAt = time.Now().Add(left)
	return l.ctx.After(left, redrawMsg{})
}

// onPollTick polls the shown pane when its table has no stream (or its
// stream stopped), and always re-arms the timer. A tick that comes while a
// refresh is still running is dropped by the pane.
func (l *liveTail) onPollTick(r *Model) tea.Cmd {
	var cmd tea.Cmd
	if p := r.panes[r.active]; l.needsPolling(p.shownTable()) {
		cmd = p.poll.Poll()
	}
	return tea.Batch(cmd, l.pollTick())
}

// onPollDone merges a refresh into its pane.
func (l *liveTail) onPollDone(r *Model, msg views.PollMsg) tea.Cmd {
	p := r.slotOf(msg.Pane)
	if p == nil || p.poll == nil {
		return nil
	}
	return tea.Batch(p.poll.PollDone(msg), l.changed())
}

// Health is table t's last reported stream health (raw, not debounced).
func (m Model) Health(t data.TableID) (stream.Health, bool) {
	h, ok := m.live.health[t]
	return h, ok
}

// needsPolling: the table has no stream, or its reader stopped.
func (l *liveTail) needsPolling(t data.TableID) bool {
	if t == "" {
		return false
	}
	h, ok := l.health[t]
	return ok && (h.State == stream.StatePolling || h.State == stream.StateOff)
}

// liveLabel is the shown table's live state for the title line: "live",
// "polling every 5s", "reconnecting", "gap", "off"; "" until the reader
// has reported on that table (or without a live tail).
func (l *liveTail) label(p *slot) string {
	t := p.shownTable()
	if t == "" {
		return ""
	}
	h, ok := l.shownHealth(t)
	if !ok {
		return ""
	}
	switch h.State {
	case stream.StatePolling:
		if h.NotAllowed {
			return "stream not allowed: polling every " + shortDuration(l.fallback)
		}
		return "polling every " + shortDuration(l.fallback)
	case stream.StateOff:
		return "stream off: polling every " + shortDuration(l.fallback)
	case stream.StateGap:
		if span := l.gapSpan(h); span != "" {
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
		if l.wanted != nil && !l.wanted[t] {
			return "live (slow)"
		}
	}
	return string(h.State)
}

// gapSpan is the span of changes a gap report says may be missing,
// "12:03:10–12:18:40" ("" when the report has none).
func (l *liveTail) gapSpan(h stream.Health) string {
	if h.GapTo.IsZero() {
		return ""
	}
	to := h.GapTo.In(l.loc).Format(time.TimeOnly)
	if h.GapFrom.IsZero() {
		return "before " + to
	}
	return h.GapFrom.In(l.loc).Format(time.TimeOnly) + "–" + to
}

// healthSummary counts tables by stream state, compactly enough for 80
// columns: "2 live 7 slow 1 polling" (live: read at full rate because a
// pane shows it; slow: read every few seconds because none does). Other
// states name their tables, since those are the ones an operator must
// look at, and a gap its span. "" until the reader has reported (or
// without a live tail).
func (l *liveTail) healthSummary() string {
	var nLive, nSlow, nPoll, nPaused int
	var bad []string
	signIn := ""
	for _, s := range data.Schemas() {
		h, ok := l.shownHealth(s.ID)
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
			if l.wanted != nil && !l.wanted[s.ID] {
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
			bad = append(bad, strings.TrimSpace(string(s.ID)+" gap "+l.gapSpan(h)))
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
	if l := l.lineageSummary("", false); l != "" && len(parts) > 0 {
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
func (l *liveTail) streamHealthLine(shown *slot) string {
	var first, ok, slow []string
	for _, s := range data.Schemas() {
		h, known := l.shownHealth(s.ID)
		switch {
		case !known:
		case signedOut(h):
			if !slices.Contains(first, h.Detail) {
				first = append([]string{h.Detail}, first...)
			}
		case h.State == stream.StateLive && l.wanted != nil && !l.wanted[s.ID]:
			slow = append(slow, string(s.ID))
		case h.State == stream.StateLive:
			ok = append(ok, string(s.ID))
		case h.State == stream.StateGap:
			first = append(first, strings.TrimSpace(string(s.ID)+" gap "+l.gapSpan(h)))
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
	if d := shown.demand; d != nil {
		if ts, _ := d.LiveTables(true); len(ts) == 1 {
			narrowed = ts[0]
		}
	}
	if l := l.lineageSummary(narrowed, true); l != "" {
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

// signedOut: the table's tail waits for an SSO sign-in; its Detail says
// what to run (data/stream: SignedOut).
func signedOut(h stream.Health) bool {
	return (h.State == stream.StateReconnecting || h.State == stream.StateThrottled) && strings.HasPrefix(h.Detail, stream.SignedOut)
}
