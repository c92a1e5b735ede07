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
}

func runColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "run", Title: "RUN", Width: 10, Flex: 2, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 10, Priority: 9},
		{Key: "user", Title: "USER", Width: 8, Flex: 1, Priority: 3},
		{Key: "env", Title: "ENV", Width: 4, Priority: 5},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 8, Relative: Relative},
		{Key: "updated", Title: "UPDATED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "nodes", Title: "NODES", Width: 5, Align: vtable.Right, Priority: 6},
		{Key: "edges", Title: "EDGES", Width: 5, Align: vtable.Right, Priority: 4},
		{Key: "exposed", Title: "EXPOSED", Width: 7, Align: vtable.Right, Priority: 6},
		{Key: "stores", Title: "STORES", Width: 6, Align: vtable.Right, Priority: 4},
		{Key: "failure", Title: "FAILURE", Width: 10, Flex: 2, Priority: 2},
	}
}

func runRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	g, _ := r.(data.GraphRun)
	row := vtable.Row{Cells: []vtable.Cell{
		{Text: g.ID()},
		statusCell(g.Status, th),
		{Text: g.UserID()},
		{Text: g.Environment},
		timeCell(g.CreatedAt, now),
		timeCell(g.UpdatedAt, now),
		numCell(g.NodeCount),
		numCell(g.EdgeCount),
		numCell(g.InternetExposedCount),
		numCell(g.DatastoreCount),
		{Text: g.FailureReason},
	}}
	if g.InternetExposedCount.Sign() > 0 {
		row.Cells[8] = restyle(row.Cells[8], warnCell("", th))
	}
	return row
}

// NewRuns builds the pane: a user's runs, else one run by id, else it
// waits for :runs / :run.
func NewRuns(c *Context, userID, runID string) *Runs {
	p := &Runs{base: base{ctx: c, id: PaneRuns}}
	p.lists = []*list{newList(c, PaneRuns, "runs", runColumns(), runRow)}
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
	p.user, p.runID = userID, ""
	id := userID
	p.setScope(0, data.RunsByUser(id), nil)
	p.lists[0].naturalOrder("created", true) // SK RUN#<timestamp>#…, newest first
	p.lists[0].fixColumns("user")
}

// ShowUser lists a user's runs, newest first.
func (p *Runs) ShowUser(userID string) tea.Cmd {
	p.scopeUser(userID)
	return p.reload()
}

// ShowRun finds one run by its id (GSI1).
func (p *Runs) ShowRun(runID string) tea.Cmd {
	p.scopeRun(runID)
	return p.reload()
}

func (p *Runs) scopeRun(runID string) {
	p.user, p.runID = "", runID
	id := runID
	p.setScope(0, data.RunByID(id), nil)
	p.lists[0].naturalOrder("", false)
	p.lists[0].selectID = id
}

func (p *Runs) Title() string {
	switch {
	case p.user != "":
		return "Runs · user " + p.user
	case p.runID != "":
		return "Runs · run " + p.runID
	}
	return "Runs"
}

// IDs are the loaded run ids, for command completion.
func (p *Runs) IDs() []string { return p.ids(50) }
