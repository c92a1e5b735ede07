package views

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/views/inert"
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
	p.lists[subSessions].readOnly(SessionListAttrs...)
	v := c.Keys.NextView.Help().Key // as rebound
	p.lists[subAPIKeys].hint = "API keys are listed per project: :sessions <projectId>, then " + v + " — or :apikey <hash>"
	p.lists[subContexts].hint = "contexts are listed per project: :sessions <projectId>, then " + v + " — or :context <id>"
	p.lists[subProject].hint = "no project in scope — :project <projectId>"
	p.header = p.headerLine
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

// ShowScope lists exactly sc: sessions of a status, of an expiry window,
// a project's RUNNING ones (with the project's quota, API keys and
// contexts beside them).
func (p *Sessions) ShowScope(sc data.Scope) (tea.Cmd, bool) {
	if sc.Table != data.TableSessions {
		// An API key or a context (a jump): its own list.
		return p.base.ShowScope(sc)
	}
	project := ""
	if sc.PKAttr == "projectId" {
		project = sc.PKValue
	}
	if project != "" {
		p.scopeProject(project)
	} else {
		p.scopeStatus(sc.PKValue)
	}
	p.shown = sc
	p.setScope(subSessions, sc, nil)
	return tea.Batch(p.reload(), p.loadQuota()), true
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
			p.quota.span, p.quota.approx = m.span, false
			p.quota.shown = true
		}
		if p.quota.dirty {
			return p.refreshQuota()
		}
		if m.err != nil {
			return nil
		}
		// What arrived just before the count started: placed against it.
		return p.placeQuota(p.quota.recent.since(m.span.From))
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
	if t, ok := p.scopedTitle(what); ok {
		return t
	}
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

// headerLine is the line above the table: the project's quota, except in
// the API keys view of a project, where it says what that list cannot
// show. projectId-index finds a key by its primary projectId only; a key
// that reaches the project through its projectIds list is in no index, so
// only a Scan finds it — offered, never run, with its cost asked first.
func (p *Sessions) headerLine(width int) string {
	if p.cur != subAPIKeys || p.project == "" {
		return p.quotaLine(width)
	}
	return p.ctx.Theme.Warn.Render(inert.Line(APIKeysViaProjectIDsNote(p.project), width))
}

// APIKeysViaProjectIDsNote is what the API keys view of project says
// about the keys it cannot list.
func APIKeysViaProjectIDsNote(project string) string {
	return "keys reaching " + project + " through projectIds are not listed (no index; only a Scan finds them): :scan api-keys projectIds=" + project
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
				Seen: data.KindProject,
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
				Name: "session", Usage: ":session <sessionId>", Arg: ArgRequired, Seen: data.KindSession,
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

// ShowProjectRecord is `:project <projectId>`: the project's own record
// (GetItem on wallcrawler-projects) in the project sub-view, with the
// project in scope for the other sub-views and the quota header, as
// `:sessions <projectId>` would have it.
func (p *Sessions) ShowProjectRecord(projectID string) tea.Cmd {
	p.scopeProject(projectID)
	return tea.Batch(
		p.lookup(subProject, data.ProjectByID(projectID), "Project · "+projectID, "no project with id "+projectID),
		p.loadQuota())
}

// ShowAPIKey is `:apikey <apiKeyHash>`: one API key by its primary key
// (GetItem). No project is in scope: the key's own projectId says which.
// A raw key typed in place of the hash is looked up by its hash
// (data.APIKeyLookup) and shown only as the mask.
func (p *Sessions) ShowAPIKey(hashOrKey string) tea.Cmd {
	p.unscope()
	s, hashed := data.APIKeyLookup(hashOrKey)
	if hashed {
		return p.lookup(subAPIKeys, s, "API keys · key "+secret.Mask+" (by its SHA-256 "+s.PKValue+")",
			"no API key with the hash of the key typed ("+s.PKValue+")")
	}
	return p.lookup(subAPIKeys, s, "API keys · key "+hashOrKey, "no API key with hash "+hashOrKey)
}

// ShowContext is `:context <contextId>`: one browser context (GetItem).
func (p *Sessions) ShowContext(contextID string) tea.Cmd {
	p.unscope()
	return p.lookup(subContexts, data.ContextByID(contextID), "Contexts · context "+contextID, "no browser context with id "+contextID)
}

// unscope leaves the Sessions pane with no project, status or session in
// scope: every sub-view shows its hint until a lookup fills one.
func (p *Sessions) unscope() {
	p.project, p.status, p.sessionID = "", "", ""
	p.resetQuota(p.quota.gen)
	for _, l := range p.lists {
		l.clearScope()
	}
}

func init() {
	registerPane(10, sessionsPane)
}
