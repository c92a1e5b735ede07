package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Runs lists AppLens graph runs: a user's runs newest first, or one run by
// id through GSI1. The precomputed summary counts are columns.
type Runs struct {
	base
	user, runID string
	terms       []string // comparison terms (terms_panes.go)
}

var runsPresenter = presenter{
	table: data.TableGraphRuns, kind: "runs", pane: PaneRuns,
	columns: runColumns, row: runRow,
	order:   map[string]string{"SK": "created"}, // RUN#<timestamp>#<runId>
	hides:   map[string]string{"PK": "user"},
	summary: []string{"runId", "status", "environment"},
}

func runColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "run", Title: "RUN", Width: 10, Fit: true, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 10, Priority: 9},
		{Key: "user", Title: "USER", Width: 8, Fit: true, Priority: 3},
		{Key: "env", Title: "ENV", Width: 4, Priority: 5},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 8, Relative: Relative},
		{Key: "updated", Title: "UPDATED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "nodes", Title: "NODES", Width: 5, Align: vtable.Right, Priority: 6, Whole: true},
		{Key: "edges", Title: "EDGES", Width: 5, Align: vtable.Right, Priority: 4, Whole: true},
		{Key: "exposed", Title: "EXPOSED", Width: 7, Align: vtable.Right, Priority: 6, Whole: true},
		{Key: "stores", Title: "STORES", Width: 6, Align: vtable.Right, Priority: 4, Whole: true},
		{Key: "failure", Title: "FAILURE", Width: 10, Fit: true, Priority: 2},
	}
}

func runRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	g, _ := r.(data.GraphRun)
	exposed := numCell(g.InternetExposedCount)
	if g.InternetExposedCount.Sign() > 0 {
		exposed = restyle(exposed, warnCell("", th))
	}
	status, tag := statusCell(g.Status, th), ""
	if troubleOf(g, now) {
		// Stale in PROCESSING or UPLOADED.
		status, tag = errorCell(g.Status, th), "!"
	}
	return vtable.Row{Tag: tag, Cells: []vtable.Cell{
		{Text: g.ID()},
		status,
		{Text: g.UserID()},
		{Text: g.Environment},
		timeCell(g.CreatedAt, now),
		timeCell(g.UpdatedAt, now),
		numCell(g.NodeCount),
		numCell(g.EdgeCount),
		exposed,
		numCell(g.DatastoreCount),
		{Text: g.FailureReason},
	}}
}

// NewRuns builds the pane: a user's runs, else one run by id, else it
// waits for :runs / :run.
func NewRuns(c *Context, userID, runID string) *Runs {
	p := &Runs{base: base{ctx: c, id: PaneRuns}}
	p.lists = []*list{newList(c, PaneRuns, runsPresenter)}
	p.lists[0].hint = "no user selected — :runs <userId> lists a user's runs, :run <runId> finds one run"
	switch {
	case userID != "":
		p.scopeUser(userID)
	case runID != "":
		p.scopeRun(runID)
	}
	return p
}

func (p *Runs) scopeUser(userID string) {
	p.user, p.runID, p.terms = userID, "", nil
	id := userID
	p.setScope(0, data.RunsByUser(id), nil)
}

// ShowUser lists a user's runs, newest first, narrowed by comparison
// terms (a server-side filter) when given.
func (p *Runs) ShowUser(userID string, terms []string) tea.Cmd {
	sc, err := withTerms(data.RunsByUser(userID), terms, p.ctx)
	if err != nil {
		p.refuseTerms(":runs", err)
		return nil
	}
	p.user, p.runID, p.terms = userID, "", terms
	p.setScope(0, sc, nil)
	return p.reload()
}

// ShowRun finds one run by its id (GSI1).
func (p *Runs) ShowRun(runID string) tea.Cmd {
	p.scopeRun(runID)
	return p.reload()
}

func (p *Runs) scopeRun(runID string) {
	p.user, p.runID, p.terms = "", runID, nil
	id := runID
	p.setScope(0, data.RunByID(id), nil)
	p.lists[0].selectID = id
}

func (p *Runs) Title() string {
	if t, ok := p.scopedTitle("Runs"); ok {
		return t
	}
	switch {
	case p.user != "":
		return "Runs · user " + p.user + termsLabel(p.terms)
	case p.runID != "":
		return "Runs · run " + p.runID
	}
	return "Runs"
}

// IDs are the loaded run ids, for command completion.
func (p *Runs) IDs() []string { return p.ids(50) }

// PaneRuns lists AppLens's graph runs.
const PaneRuns PaneID = "runs"

func runsPane() PaneSpec {
	ids := func(p Pane) []string { return p.(*Runs).IDs() }
	return PaneSpec{
		ID: PaneRuns, Name: "Runs", Short: "Runs", DefaultKey: "2",
		New: func(c *Context, s Scopes) Pane { return NewRuns(c, s.UserID, s.RunID) },
		Commands: []CommandSpec{
			{
				Name: "runs", Usage: ":runs <userId> [terms]", Arg: ArgRequired, Seen: data.KindRunUser,
				Terms: true, TermsTable: data.TableGraphRuns,
				Run: func(p Pane, a Args) tea.Cmd { return p.(*Runs).ShowUser(a.Arg, a.TermList()) },
			},
			{
				Name: "run", Usage: ":run <runId>", Arg: ArgRequired, Complete: ids, Seen: data.KindRun,
				Run: func(p Pane, a Args) tea.Cmd { return p.(*Runs).ShowRun(a.Arg) },
			},
		},
	}
}

func init() {
	registerPresenter(runsPresenter)
	registerPane(20, runsPane)
}
