package views

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/themes"
	"opsdeck/views/inert"
	"opsdeck/views/vtable"
)

// Sub-views of the Sessions pane: the project's sessions, its API keys and
// the browser contexts its sessions use.
const (
	subSessions = iota
	subAPIKeys
	subContexts
	subProject
)

// Sessions lists Wallcrawler sessions by project (newest first), by stored
// status (soonest expiry first) or one session by id, with the project's
// concurrency quota beside its count of RUNNING sessions.
type Sessions struct {
	base
	project   string // the project in scope ("" when listing by status)
	status    string
	sessionID string

	quota quotaState
}

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
	err     error
}

func (m quotaMsg) PaneID() PaneID { return m.pane }

// quotaPages caps the count's pages (1 MB of the project's sessions each):
// a project with a long history shows "≥ N" rather than reading it all.
const quotaPages = 20

var sessionsPresenter = presenter{
	table: data.TableSessions, kind: "sessions", pane: PaneSessions,
	columns: sessionColumns, row: sessionRow,
	order:   map[string]string{"createdAt": "created", "expiresAt": "expires"},
	hides:   map[string]string{"projectId": "project"},
	summary: []string{"status", "projectId", "region", "expiresAt"},
}

func sessionColumns() []vtable.Column {
	return []vtable.Column{
		// Width 19 is a whole session id (sess_ + 14): the id is what on-call
		// copies and searches for, so the minimum never cuts one.
		{Key: "session", Title: "SESSION", Width: 19, Flex: 3, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 9, Priority: 9},
		{Key: "internal", Title: "INTERNAL", Width: 12, Priority: 4},
		{Key: "project", Title: "PROJECT", Width: 10, Flex: 2, Priority: 6},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "expires", Title: "EXPIRES", Width: 9, Priority: 8, Relative: Relative},
		{Key: "region", Title: "REGION", Width: 9, Priority: 2},
		{Key: "keepalive", Title: "KEEP", Width: 4, Priority: 1},
		{Key: "retries", Title: "RETRY", Width: 5, Align: vtable.Right, Priority: 3, Whole: true},
	}
}

func sessionRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	s, _ := r.(data.Session)
	status := s.SDKStatus
	if status == "" {
		status = s.Status // unknown value: show what is stored
	}
	keep := ""
	if s.KeepAlive {
		keep = "yes"
	}
	expires, tag := timeCellOf(s.Meta, "expiresAt", s.ExpiresAt, now, th), ""
	// A session still RUNNING past its expiry is what on-call looks for.
	if status == data.SessionRunning && !s.ExpiresAt.IsZero() && s.ExpiresAt.Before(now) {
		tag, expires = "!", restyle(expires, errorCell("", th))
	}
	return vtable.Row{Tag: tag, Cells: []vtable.Cell{
		{Text: s.SessionID},
		statusCell(status, th),
		{Text: s.InternalStatus},
		{Text: s.ProjectID},
		timeCell(s.CreatedAt, now),
		expires,
		{Text: s.Region},
		{Text: keep},
		numCell(s.RetryCount),
	}}
}

var apiKeysPresenter = presenter{
	table: data.TableAPIKeys, kind: "API keys", pane: PaneSessions,
	columns: apiKeyColumns, row: apiKeyRow,
	summary: []string{"name", "status", "projectId"},
}

func apiKeyColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "key", Title: "KEY", Width: 14, Flex: 2, Priority: 10},
		{Key: "name", Title: "NAME", Width: 10, Flex: 2, Priority: 6},
		{Key: "status", Title: "STATUS", Width: 8, Priority: 9},
		{Key: "projects", Title: "PROJECTS", Width: 8, Align: vtable.Right, Priority: 4, Whole: true},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "lastused", Title: "LAST USED", Width: 9, Priority: 8, Relative: Relative},
	}
}

func apiKeyRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	k, _ := r.(data.APIKey)
	return vtable.Row{Cells: []vtable.Cell{
		{Text: k.ID()},
		{Text: k.Name},
		statusCell(k.Status, th),
		intCell(int64(1 + len(k.ProjectIDs))),
		timeCell(k.CreatedAt, now),
		timeCell(k.LastUsedAt, now),
	}}
}

var contextsPresenter = presenter{
	table: data.TableContexts, kind: "contexts", pane: PaneSessions,
	columns: contextColumns, row: contextRow,
	hides:   map[string]string{"projectId": "project"},
	summary: []string{"status", "projectId"},
}

func contextColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "context", Title: "CONTEXT", Width: 14, Flex: 2, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 8, Priority: 9},
		{Key: "project", Title: "PROJECT", Width: 10, Flex: 1, Priority: 6},
		{Key: "storage", Title: "STORAGE KEY", Width: 12, Flex: 3, Priority: 4},
		{Key: "updated", Title: "UPDATED", Width: 9, Priority: 7, Relative: Relative},
	}
}

func contextRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	c, _ := r.(data.BrowserContext)
	return vtable.Row{Cells: []vtable.Cell{
		{Text: c.ContextID},
		statusCell(c.Status, th),
		{Text: c.ProjectID},
		{Text: c.StorageKey},
		timeCell(c.UpdatedAt, now),
	}}
}

// NewSessions builds the pane. With a project it lists that project's
// sessions; otherwise sessions by status (default RUNNING).
func NewSessions(c *Context, projectID, status string) *Sessions {
	p := &Sessions{base: base{ctx: c, id: PaneSessions}}
	p.lists = []*list{
		newList(c, PaneSessions, sessionsPresenter),
		newList(c, PaneSessions, apiKeysPresenter),
		newList(c, PaneSessions, contextsPresenter),
		newList(c, PaneSessions, projectsPresenter),
	}
	v := c.Keys.NextView.Help().Key // as rebound
	p.lists[subAPIKeys].hint = "API keys are listed per project: :sessions <projectId>, then " + v + " — or :apikey <hash>"
	p.lists[subContexts].hint = "contexts are listed per project: :sessions <projectId>, then " + v + " — or :context <id>"
	p.lists[subProject].hint = "no project in scope — :project <projectId>"
	p.header = p.quotaLine
	if projectID != "" {
		p.scopeProject(projectID)
	} else {
		if status == "" {
			status = data.SessionRunning
		}
		p.scopeStatus(status)
	}
	return p
}

// Init loads the first page and, with a project in scope, its quota.
func (p *Sessions) Init() tea.Cmd {
	cmd := p.base.Init()
	if p.project != "" && p.quota.req == 0 {
		cmd = tea.Batch(cmd, p.loadQuota())
	}
	return cmd
}

// ShowProject lists a project's sessions and loads its quota.
func (p *Sessions) ShowProject(projectID string) tea.Cmd {
	p.scopeProject(projectID)
	return tea.Batch(p.reload(), p.loadQuota())
}

// ShowStatus lists sessions whose stored status is status, soonest expiry
// first.
func (p *Sessions) ShowStatus(status string) tea.Cmd {
	p.scopeStatus(status)
	return p.reload()
}

// ShowSession lists the one session with this id, selected.
func (p *Sessions) ShowSession(sessionID string) tea.Cmd {
	p.scopeSession(sessionID)
	return p.reload()
}

func (p *Sessions) scopeProject(projectID string) {
	p.project, p.status, p.sessionID = projectID, "", ""
	p.resetQuota(0)
	id := projectID
	p.setScope(subSessions, data.SessionsByProject(id), nil)
	p.lists[subAPIKeys].setScope(data.APIKeysByProject(id), nil)
	// Contexts are found through the project's sessions (the table has no
	// projectId index); for the live tail, a context row belongs here when
	// it names this project.
	p.lists[subContexts].setScope(data.ContextsOfProject(id), nil)
	// The project's own record, for its detail and its transitions.
	p.lists[subProject].setScope(data.ProjectByID(id), nil)
	p.lists[subProject].missing = "no project with id " + id
	p.cur = subSessions
}

func (p *Sessions) scopeStatus(status string) {
	p.project, p.status, p.sessionID = "", status, ""
	p.resetQuota(0)
	p.lists[subAPIKeys].clearScope()
	p.lists[subContexts].clearScope()
	p.lists[subProject].clearScope()
	st := status
	p.setScope(subSessions, data.SessionsByStatus(st), nil)
}

func (p *Sessions) scopeSession(sessionID string) {
	p.project, p.status, p.sessionID = "", "", sessionID
	p.resetQuota(0)
	p.lists[subAPIKeys].clearScope()
	p.lists[subContexts].clearScope()
	p.lists[subProject].clearScope()
	id := sessionID
	p.setScope(subSessions, data.SessionByID(id), nil)
	p.lists[subSessions].selectID = id
}

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
	p.quota = quotaState{gen: gen}
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
		msg.running, msg.partial, msg.err = int(c.N), c.Partial, err
		return msg
	}
}

// Update adds the sub-view key and the quota answer to the base.
func (p *Sessions) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case quotaMsg:
		if m.req != p.quota.req {
			return nil
		}
		p.quota.loading = false
		if p.quota.cancel != nil {
			p.quota.cancel() // its read is over; release the context
			p.quota.cancel = nil
		}
		p.quota.err = ""
		if m.err != nil {
			p.quota.err = data.Describe(m.err)
		} else {
			p.quota.project, p.quota.found, p.quota.running, p.quota.partial = m.project, m.found, m.running, m.partial
			p.quota.shown = true
		}
		if p.quota.dirty {
			return p.refreshQuota()
		}
		return nil
	case quotaRefreshMsg:
		return p.onQuotaRefresh(m)
	case tea.KeyPressMsg:
		if !p.DetailOpen() && key.Matches(m, p.ctx.Keys.NextView) {
			return p.show((p.cur + 1) % len(p.lists))
		}
		if key.Matches(m, p.ctx.Keys.Reload) && !p.DetailOpen() {
			return tea.Batch(p.base.Update(msg), p.loadQuota())
		}
	}
	return p.base.Update(msg)
}

// Help puts the sub-view key in the footer hint of this pane (the keymap's
// binding, so a rebinding shows).
func (p *Sessions) Help() []key.Binding { return []key.Binding{p.ctx.Keys.NextView} }

// Title names the scope: "Sessions · project p-1", "Sessions · status
// RUNNING", "API keys · project p-1", or what a lookup found ("API keys ·
// key …").
func (p *Sessions) Title() string {
	if t := p.lookupTitle(); t != "" {
		return t
	}
	what := []string{"Sessions", "API keys", "Contexts", "Project"}[p.cur]
	switch {
	case p.project != "":
		return what + " · project " + p.project
	case p.sessionID != "":
		return what + " · session " + p.sessionID
	case p.status != "":
		return what + " · status " + p.status + " (soonest expiry first)"
	}
	return what
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

// IDs are the loaded ids, for command completion.
func (p *Sessions) IDs() []string { return p.ids(50) }

// Project is the project in scope, "" when none.
func (p *Sessions) Project() string { return p.project }

// PaneSessions lists Wallcrawler's sessions, API keys and contexts.
const PaneSessions PaneID = "sessions"

// sessionStatuses are the documented session states (completion, and the
// case a typed one is given in).
var sessionStatuses = []string{data.SessionRunning, "COMPLETED", "ERROR", "TIMED_OUT"}

func sessionsPane() PaneSpec {
	return PaneSpec{
		ID: PaneSessions, Name: "Sessions", Short: "Sess", DefaultKey: "1",
		New: func(c *Context, s Scopes) Pane { return NewSessions(c, s.ProjectID, s.SessionStatus) },
		Commands: []CommandSpec{
			{
				Name: "sessions", Usage: ":sessions [projectId|status=S]", Arg: ArgOptional,
				Opts: []OptSpec{{Key: "status", Values: sessionStatuses}}, OneOpt: true, ArgOrOpt: "a project id",
				Complete: func(p Pane) []string {
					if pr := p.(*Sessions).Project(); pr != "" {
						return []string{pr}
					}
					return nil
				},
				Run: func(p Pane, a Args) tea.Cmd {
					s := p.(*Sessions)
					switch {
					case a.Arg != "":
						return s.ShowProject(a.Arg)
					case a.Opt("status") != "":
						return s.ShowStatus(a.Opt("status"))
					}
					return s.ShowStatus(data.SessionRunning)
				},
			},
			{
				Name: "session", Usage: ":session <sessionId>", Arg: ArgRequired,
				Complete: func(p Pane) []string { return p.(*Sessions).IDs() },
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*Sessions).ShowSession(a.Arg) },
			},
			{
				Name: "project", Usage: ":project <projectId>", Arg: ArgRequired,
				Complete: func(p Pane) []string { return p.(*Sessions).shownValues("projectId") },
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*Sessions).ShowProjectRecord(a.Arg) },
			},
			{
				Name: "apikey", Usage: ":apikey <apiKeyHash>", Arg: ArgRequired,
				Complete: func(p Pane) []string { return p.(*Sessions).Values(data.TableAPIKeys, "apiKeyHash", completeMax) },
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*Sessions).ShowAPIKey(a.Arg) },
			},
			{
				Name: "context", Usage: ":context <contextId>", Arg: ArgRequired,
				Complete: func(p Pane) []string { return p.(*Sessions).shownValues("contextId") },
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*Sessions).ShowContext(a.Arg) },
			},
		},
	}
}
