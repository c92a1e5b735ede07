package views

import (
	"time"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Wallcrawler projects have no index to list them by: one project is read
// by id (the Sessions pane's project sub-view, `:project`), and the only
// way to see them all is an explicit scan, shown in the Sessions pane with
// these columns.
var projectsPresenter = presenter{
	table: data.TableProjects, kind: "projects", pane: PaneSessions,
	columns: projectColumns, row: projectRow,
	summary: []string{"name", "status", "concurrency"},
}

func projectColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "project", Title: "PROJECT", Width: 14, Fit: true, Priority: 10},
		{Key: "name", Title: "NAME", Width: 10, Fit: true, Priority: 7},
		{Key: "status", Title: "STATUS", Width: 8, Priority: 9},
		{Key: "owner", Title: "OWNER", Width: 10, Fit: true, Priority: 5},
		{Key: "concurrency", Title: "QUOTA", Width: 5, Align: vtable.Right, Priority: 8, Whole: true},
		{Key: "timeout", Title: "TIMEOUT", Width: 7, Align: vtable.Right, Priority: 3, Whole: true},
		{Key: "tier", Title: "TIER", Width: 8, Priority: 4},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 6, Relative: Relative},
	}
}

func projectRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	p, _ := r.(data.Project)
	timeout := p.DefaultTimeoutSeconds.String() // as stored when not a duration
	if p.DefaultTimeout > 0 {
		timeout = p.DefaultTimeout.String()
	}
	return vtable.Row{Cells: []vtable.Cell{
		{Text: p.ProjectID},
		{Text: p.Name},
		statusCell(p.Status, th),
		{Text: p.OwnerID},
		numCell(p.Concurrency),
		{Text: timeout},
		{Text: p.BillingTier},
		timeCell(p.CreatedAt, now),
	}}
}

func init() {
	registerPresenter(projectsPresenter)
}
