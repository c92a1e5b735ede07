package views

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/terminal"
)

// The Overview pane: how bad is it, service by service, on one screen. Its
// numbers are data.Overview tallies — counted by Query (Select=COUNT), moved
// by the live tail with the same scopes, re-counted on a timer and on the
// reload key — and enter on one opens the owning pane on exactly its scope.

// OverviewOptions configure the overview (config `watch:`, `overview:`,
// `alerts:` and `actions:`).
type OverviewOptions struct {
	Users []string // watched users (config watch.users)
	// EventUsers and RunUsers start the users seen in one service's table
	// (the demo's tenants).
	EventUsers, RunUsers []string
	ExpiringWithin       time.Duration
	StaleRun             time.Duration
	RetryMax             int
	DeletionFailingAt    int           // sandboxes.deletion_failing's threshold (config overview.deletion_failing_at)
	Recount              time.Duration // full re-count period (DefaultRecount when 0)
	Alerts               []data.Threshold
	Bell                 bool // ring the terminal bell when an alert starts
}

// DefaultRecount is how often the overview re-counts everything when the
// config does not say.
const DefaultRecount = time.Minute

// Bounds on what the console adds to the watched users and projects on its
// own (what it has seen): each is a few queries per re-count.
const (
	maxSeenUsers    = 6
	maxSeenProjects = 4
	// maxUnsettled: changes kept while a count runs; past it, every tally
	// of a changed table is marked estimated.
	maxUnsettled = 2000
	// planSettle is how soon a newly seen user or project is counted.
	planSettle = 3 * time.Second
)

// PaneOverview is the incident view: how bad is it, at a glance.
const PaneOverview PaneID = "overview"

func overviewPane() PaneSpec {
	return PaneSpec{
		ID: PaneOverview, Name: "Overview", Short: "Ovw", DefaultKey: "0",
		New: func(c *Context, s Scopes) Pane { return NewOverview(c, s.Overview) },
		Commands: []CommandSpec{{
			Name: "overview", Usage: ":overview [envs]", Words: []string{"envs"},
			Run: func(p Pane, a Args) tea.Cmd {
				if a.Words[0] == "envs" {
					// The pane under the screen counts too: it is what
					// esc returns to.
					return tea.Batch(p.Init(), p.(*Overview).envs())
				}
				return p.Init()
			},
		}},
	}
}

// Overview is the overview pane.
type Overview struct {
	ctx  *Context
	opts OverviewOptions

	seenEvents, seenRuns, seenProjects []string

	ov   data.Overview
	have bool // a count has come back

	counting bool
	req      int
	cancel   context.CancelFunc
	// during holds the changes that arrived while the count ran (and
	// those of the CountSlack before it: an index may not have had them
	// yet); overflow lists the tables of those past maxUnsettled. All are
	// placed against the count when it answers (data.Overview.Apply).
	during   []Change
	overflow map[data.TableID]bool
	// recent are the changes received lately, kept for the next count's
	// during.
	recent recentLog
	// settle: a count to settle changes that could not be placed is armed
	// or ran since the last periodic count (one per period, at most).
	settle  bool
	dirty   bool // the plan grew since the count started
	tickGen int
	err     string

	cursor int // index into ov.Tallies
	top    int // first line shown
	// scrolled: pgup/pgdn moved the view away from the cursor; the
	// cursor's next move brings it back (overview_view.go).
	scrolled      bool
	width, height int

	firing map[string]bool // alerts on at the last count or change

	// orphan: the count in flight was started through a connection the
	// console has since left (Reconnect); its answer is dropped and a
	// count through the new connection starts instead.
	orphan bool

	paintCache *[numRoles]themes.Paint
	paintTheme string
}

// NewOverview builds the pane; Init counts.
func NewOverview(ctx *Context, opts OverviewOptions) *Overview {
	if opts.Recount <= 0 {
		opts.Recount = DefaultRecount
	}
	return &Overview{ctx: ctx, opts: opts, firing: map[string]bool{}}
}

// overviewCountedMsg is a re-count's answer.
type overviewCountedMsg struct {
	req int
	ov  data.Overview
}

// overviewTickMsg is the re-count timer; gen drops superseded timers.
// settle: armed to settle changes that could not be placed.
type overviewTickMsg struct {
	gen    int
	settle bool
}

// settleDelay is how soon after a change that could not be placed against
// the count a settling count starts: late enough that the change is
// before it.
const settleDelay = planSettle

// Both reach the pane whether or not it is shown: the numbers (and the
// alerts in the status bar) stay current from any pane.
func (overviewCountedMsg) PaneID() PaneID { return PaneOverview }
func (overviewTickMsg) PaneID() PaneID    { return PaneOverview }

// ID names the pane.
func (p *Overview) ID() PaneID { return PaneOverview }

// Plan is what the next count covers: configured users first, then the
// ones seen; the projects seen.
func (p *Overview) Plan() data.OverviewPlan {
	return data.OverviewPlan{
		Users:          slices.Clone(p.opts.Users),
		EventUsers:     append(slices.Clone(p.opts.EventUsers), p.seenEvents...),
		RunUsers:       append(slices.Clone(p.opts.RunUsers), p.seenRuns...),
		Projects:       slices.Clone(p.seenProjects),
		ExpiringWithin: p.opts.ExpiringWithin, StaleRun: p.opts.StaleRun, RetryMax: p.opts.RetryMax,
		DeletionFailingAt: p.opts.DeletionFailingAt,
		MaxPages:          data.DefaultCountPages,
	}
}

// Init counts, the first time.
func (p *Overview) Init() tea.Cmd {
	if p.have || p.counting {
		return nil
	}
	return p.recount()
}

// backgroundDelay keeps the first count off the first page's way.
const backgroundDelay = 2 * time.Second

// Background counts soon after start-up when alerts are configured: the
// status bar shows them from any pane, the overview need not be opened.
func (p *Overview) Background() tea.Cmd {
	if len(p.opts.Alerts) == 0 || p.ctx == nil {
		return nil
	}
	return p.armTimer(backgroundDelay)
}

// recount starts a full count (cancelling one that runs) and re-arms the
// timer.
func (p *Overview) recount() tea.Cmd {
	if p.ctx == nil || p.ctx.Store == nil {
		p.err = "no connection"
		return nil
	}
	if p.cancel != nil {
		p.cancel()
	}
	p.req++
	p.counting, p.dirty, p.during, p.overflow = true, false, p.recent.since(time.Now()), nil
	req, st, plan, now := p.req, p.ctx.Store, p.Plan(), p.ctx.now()
	ctx, cancel := context.WithTimeout(context.Background(), p.ctx.readTimeout())
	p.cancel = cancel
	return func() tea.Msg {
		defer cancel()
		return overviewCountedMsg{req: req, ov: st.CountOverview(ctx, plan, now)}
	}
}

func (p *Overview) armTimer(d time.Duration) tea.Cmd {
	p.tickGen++
	return p.ctx.After(d, overviewTickMsg{gen: p.tickGen})
}

// applyOne places one change against the count shown and reports whether
// it could not be placed (the numbers it moves are estimates now).
func (p *Overview) applyOne(c Change) (unplaced bool) {
	n := p.ov.Unplaced
	p.ov.Apply(c.Placed())
	return p.ov.Unplaced > n
}

// settleLater arms one count to settle what could not be placed, unless
// one was armed since the last periodic count.
func (p *Overview) settleLater() tea.Cmd {
	if p.settle || p.counting {
		return nil
	}
	p.settle = true
	p.tickGen++
	return p.ctx.After(settleDelay, overviewTickMsg{gen: p.tickGen, settle: true})
}

// Update handles the count's answer, the timer and keys.
func (p *Overview) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case overviewCountedMsg:
		if msg.req != p.req {
			return nil
		}
		if p.orphan {
			// Counted through the connection the console has left: count
			// again through the new one (this keeps the timer's chain).
			p.orphan, p.counting = false, false
			return p.recount()
		}
		return p.counted(msg.ov)
	case overviewTickMsg:
		if msg.gen != p.tickGen || p.counting {
			return nil
		}
		if !msg.settle {
			p.settle = false
		}
		return p.recount()
	case tea.KeyPressMsg:
		return p.key(msg)
	}
	return nil
}

func (p *Overview) counted(ov data.Overview) tea.Cmd {
	p.counting, p.cancel, p.have, p.err = false, nil, true, ""
	during := p.during
	for t := range p.overflow {
		ov.MarkEstimated(t)
	}
	p.during, p.overflow = nil, nil
	p.ov = ov
	// The changes that arrived while it counted, placed against it: those
	// it saw move nothing, those it cannot have seen move it, the rest
	// make their numbers estimates.
	unplaced := false
	for _, c := range during {
		unplaced = p.applyOne(c) || unplaced
	}
	p.cursor = min(p.cursor, max(len(ov.Tallies)-1, 0))
	next := p.opts.Recount
	if p.dirty {
		next = planSettle
	}
	cmds := []tea.Cmd{p.armTimer(next), p.alerted()}
	if unplaced && !p.dirty {
		cmds = append(cmds, p.settleLater())
	}
	return tea.Batch(cmds...)
}

// alerted recomputes the alerts on; with the bell configured it rings when
// one starts (not for those already on at the first count: the operator is
// looking at them).
func (p *Overview) alerted() tea.Cmd {
	now := map[string]bool{}
	started := false
	for _, t := range p.ov.Tallies {
		if _, on := t.Alerting(p.opts.Alerts); on {
			id := t.Key + "\x00" + t.Subject
			now[id] = true
			started = started || !p.firing[id]
		}
	}
	first := p.firing == nil
	p.firing = now
	if started && !first && p.opts.Bell {
		return terminal.Write("\a")
	}
	return nil
}

// Apply moves the numbers by the live tail's changes, and learns the users
// and projects they name.
func (p *Overview) Apply(changes []Change) tea.Cmd {
	grew, unplaced := false, false
	now := time.Now()
	for _, c := range changes {
		grew = p.learn(c) || grew
		p.recent.add(c, now)
		if !p.have && !p.counting {
			continue
		}
		if p.counting {
			if len(p.during) < maxUnsettled {
				p.during = append(p.during, c)
			} else {
				if p.overflow == nil {
					p.overflow = map[data.TableID]bool{}
				}
				p.overflow[c.Table] = true
			}
			continue
		}
		unplaced = p.applyOne(c) || unplaced
	}
	var cmds []tea.Cmd
	if p.have && !p.counting {
		cmds = append(cmds, p.alerted())
	}
	if unplaced {
		cmds = append(cmds, p.settleLater())
	}
	if grew {
		if p.counting {
			p.dirty = true
		} else if p.have {
			cmds = append(cmds, p.armTimer(planSettle))
		}
	}
	return tea.Batch(cmds...)
}

// learn adds the user or project a change names to those seen (bounded).
func (p *Overview) learn(c Change) bool {
	img := c.New
	if img == nil {
		img = c.Old
	}
	if img == nil {
		img = c.Keys
	}
	plan := p.Plan()
	add := func(seen *[]string, known []string, v string, limit int) bool {
		if v == "" || slices.Contains(known, v) || len(*seen) >= limit {
			return false
		}
		*seen = append(*seen, v)
		return true
	}
	switch c.Table {
	case data.TableEvents:
		return add(&p.seenEvents, plan.InboxUsers(), attrString(img, "user_id"), maxSeenUsers)
	case data.TableGraphRuns:
		u, ok := strings.CutPrefix(attrString(img, "PK"), "USER#")
		return ok && add(&p.seenRuns, plan.RunsUsers(), u, maxSeenUsers)
	case data.TableSessions:
		return add(&p.seenProjects, plan.Projects, attrString(img, "projectId"), maxSeenProjects)
	}
	return false
}

// See adds a user or project the operator looked at elsewhere (an Inbox,
// a project's sessions) to the overview's plan.
func (p *Overview) See(user, project string) {
	c := Change{}
	switch {
	case user != "":
		c = Change{Table: data.TableEvents, Keys: data.Item{"user_id": data.S(user)}}
	case project != "":
		c = Change{Table: data.TableSessions, Keys: data.Item{"projectId": data.S(project)}}
	}
	if p.learn(c) && !p.counting {
		p.dirty = true
	}
}

func attrString(it data.Item, a string) string {
	if v, ok := it[a].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// Title says when the numbers were counted and what that cost.
func (p *Overview) Title() string {
	switch {
	case !p.have && p.counting:
		return "Overview · counting…"
	case !p.have:
		return "Overview"
	}
	var b strings.Builder
	b.WriteString("Overview · counted ")
	b.WriteString(Relative(p.ov.At, p.ctx.now()))
	if p.stale() {
		b.WriteString(" · STALE")
	}
	if p.counting {
		b.WriteString(" · re-counting…")
	}
	return b.String()
}

// stale: the last count is older than two re-count periods (counts keep
// failing, or the timer was starved), so even live-moved numbers may have
// drifted from the tables (a window that slid, a missed change).
func (p *Overview) stale() bool {
	return p.have && p.ctx.now().Sub(p.ov.At) > 2*p.opts.Recount
}

// Alerts are the thresholds crossed now, one line each, for the status bar.
func (p *Overview) Alerts() []string {
	var out []string
	for _, t := range p.ov.Tallies {
		th, on := t.Alerting(p.opts.Alerts)
		if !on {
			continue
		}
		s := t.Key
		if t.Subject != "" {
			s += "[" + t.Subject + "]"
		}
		s += " " + countText(t) + " (" + th.Op + " " + itoa(th.Value) + ")"
		out = append(out, s)
	}
	return out
}

// LiveTables: while shown, the overview's numbers move with these tables'
// streams at full rate; hidden, the reader's slow rate still brings their
// changes (and the alerts), a little later.
func (p *Overview) LiveTables(shown bool) ([]data.TableID, bool) {
	if !shown {
		return nil, false
	}
	return []data.TableID{data.TableSessions, data.TableEvents, data.TableGraphRuns, data.TableSandboxes}, false
}

// Status is the re-count's cost for the status bar.
func (p *Overview) Status() Status {
	st := Status{Progress: -1, Loading: p.counting, Rows: len(p.ov.Tallies), Visible: len(p.ov.Tallies), Noun: "number"}
	if p.have {
		st.HasReq, st.Consumed = true, p.ov.Consumed
	}
	st.Err = p.err
	return st
}

// Cancel stops a running count.
func (p *Overview) Cancel() bool {
	if !p.counting || p.cancel == nil {
		return false
	}
	p.cancel()
	p.cancel, p.counting = nil, false
	p.req++ // its answer is dropped
	return true
}

func (p *Overview) SetSize(w, h int) { p.width, p.height = w, h }

func init() {
	registerPane(1000, overviewPane)
}

// The Overview's capabilities, checked by the compiler (see listPane).
var _ interface {
	Pane
	Canceller
	Applier
	LiveDemand
	Alerter
	Backgrounder
	Reconnector
	Replacer
} = (*Overview)(nil)
