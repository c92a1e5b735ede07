package views

import (
	"context"
	"fmt"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/views/inert"
)

// The Sessions pane's quota line: a project's RUNNING sessions against its
// concurrency limit, counted in data (Store.Count of SessionsRunningInProject) under a deadline,
// and kept current by the live tail (sessions_quota_live.go).

// quotaState is the header's data: the project record and how many of its
// sessions are RUNNING, loaded by its own request.
type quotaState struct {
	req     uint64
	loading bool
	project data.Project
	found   bool
	running int
	partial bool // stopped counting at the page cap
	err     string
	// shown: the values above are an answer (kept on screen while a
	// re-read runs). dirty: a change came while the count was loading, so
	// its answer may miss it; read again. pending/gen: a debounced re-read
	// (sessions_quota_live.go).
	shown   bool
	dirty   bool
	pending bool
	gen     uint64
	since   time.Time // when the read in flight was sent
	// span is when the shown count read; a change is placed against it
	// (data.ReadSpan.Place): one it saw moves nothing, one that may or
	// may not be in it makes the number approximate (≈) until a re-read.
	span   data.ReadSpan
	approx bool
	recent recentLog // changes received lately, placed against the next count
	// cancel stops the read in flight (a newer one, or the project left
	// the pane).
	cancel context.CancelFunc
}

type quotaMsg struct {
	pane    PaneID
	req     uint64
	project data.Project
	found   bool
	running int
	partial bool
	span    data.ReadSpan
	err     error
}

func (m quotaMsg) PaneID() PaneID { return m.pane }

// quotaPages caps the count's pages (each data.BulkPageItems of the
// project's sessions, RUNNING or not, or 1 MB of them, whichever is less):
// a project with a long history shows "≥ N" rather than reading, and
// paying for, it all.
const quotaPages = 20

// loadQuota fetches the project and counts its RUNNING sessions.
func (p *Sessions) loadQuota() tea.Cmd {
	if p.project == "" || p.ctx.Store == nil {
		return nil
	}
	p.resetQuota(p.quota.gen)
	return p.refreshQuota()
}

// resetQuota forgets the quota, stopping its read in flight.
func (p *Sessions) resetQuota(gen uint64) {
	if p.quota.cancel != nil {
		p.quota.cancel()
	}
	p.quota = quotaState{gen: gen, recent: p.quota.recent}
}

// refreshQuota reads the project and the count again; what is shown stays
// until the answer comes.
func (p *Sessions) refreshQuota() tea.Cmd {
	if p.project == "" || p.ctx.Store == nil {
		return nil
	}
	p.quota.req, p.quota.loading, p.quota.dirty = reqSeq.Add(1), true, false
	p.quota.since = p.ctx.now()
	var (
		req     = p.quota.req
		pane    = p.id
		id      = p.project
		st      = p.ctx.Store
		timeout = p.ctx.readTimeout()
	)
	if p.quota.cancel != nil {
		p.quota.cancel() // a newer read replaces the one in flight
	}
	qctx, cancel := context.WithCancel(context.Background())
	p.quota.cancel = cancel
	return func() tea.Msg {
		// The project and every page of the count share one deadline.
		ctx, cancel := context.WithTimeout(qctx, timeout)
		defer cancel()
		msg := quotaMsg{pane: pane, req: req}
		proj, err := st.Page(ctx, data.ProjectByID(id), data.PageRequest{})
		if err != nil {
			msg.err = err
			return msg
		}
		if len(proj.Items) > 0 {
			msg.project, msg.found = proj.Items[0].(data.Project)
		}
		c, err := st.Count(ctx, data.SessionsRunningInProject(id), quotaPages)
		msg.running, msg.partial, msg.span, msg.err = int(c.N), c.Partial, c.Span, err
		return msg
	}
}

// quotaLine is the header: the project's concurrency quota beside its count
// of RUNNING sessions.
func (p *Sessions) quotaLine(width int) string {
	th := p.ctx.Theme
	var text string
	var style = th.Muted
	switch {
	case p.project == "":
		text = "no project in scope — :sessions <projectId> shows its quota, API keys and contexts"
	case p.quota.loading && !p.quota.shown:
		text = "project " + p.project + " · quota loading…"
		if w := p.ctx.now().Sub(p.quota.since); w >= time.Second && !p.quota.since.IsZero() {
			text += " " + shortDuration(w.Truncate(time.Second))
		}
	case p.quota.err != "":
		text, style = "project "+p.project+" · quota unavailable: "+p.quota.err, th.Error
	case !p.quota.found:
		text, style = "project "+p.project+" · not found in wallcrawler-projects", th.Warn
	default:
		q := p.quota.project
		n := strconv.Itoa(p.quota.running)
		if p.quota.partial {
			n = "≥" + n
		}
		if p.quota.approx {
			n = "≈" + n
		}
		// The quota as stored: a value beyond int64 or with a fraction is
		// shown as it is, an unreadable one as "?", never another number.
		text = fmt.Sprintf("project %s · %s running / quota %s", p.project, n, q.Concurrency)
		if q.Name != "" {
			text += " · " + q.Name
		}
		if q.Status != "" {
			text += " · " + q.Status
		}
		style = th.StatusValue
		if quota, ok := q.Concurrency.Float64(); ok && quota > 0 && float64(p.quota.running) >= quota {
			style = th.Warn
			text += " · AT QUOTA"
		}
	}
	// The project's name and status are tenant data: masked like cells.
	text, _ = secret.Text(text)
	return style.Render(inert.Pad(text, width))
}
