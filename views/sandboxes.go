package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Sandboxes lists the Sandbox Broker pool by status (default available), by
// track or by idempotency key. An allocation past its
// window (lab_duration_hours, at most the broker's 4 hours) is marked "!"
// and its status reads "expired".
type Sandboxes struct {
	base
	by, value string // by: "status", "track" or "key"
}

// Sandboxes by status keep the STATUS column: an allocation past its window
// reads "(expired)" there. All three indexes sort by allocated_at.
var sandboxesPresenter = presenter{
	table: data.TableSandboxes, kind: "sandboxes", pane: PaneSandboxes,
	columns: sandboxColumns, row: sandboxRow,
	order:   map[string]string{"allocated_at": "allocated"},
	hides:   map[string]string{"allocated_to_track": "track"},
	summary: []string{"status", "name", "allocated_to_track"},
}

func sandboxColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "sandbox", Title: "SANDBOX", Width: 12, Fit: true, Priority: 10},
		{Key: "name", Title: "NAME", Width: 10, Fit: true, Priority: 5},
		{Key: "status", Title: "STATUS", Width: 19, Priority: 9},
		{Key: "track", Title: "TRACK", Width: 10, Fit: true, Priority: 7},
		{Key: "allocated", Title: "ALLOCATED", Width: 9, Priority: 6, Relative: Relative},
		{Key: "deadline", Title: "DEADLINE", Width: 9, Priority: 8, Relative: Relative},
		{Key: "hours", Title: "LAB H", Width: 5, Align: vtable.Right, Priority: 3, Whole: true},
		{Key: "delretries", Title: "DEL RETRY", Width: 9, Align: vtable.Right, Priority: 2, Whole: true},
		{Key: "external", Title: "EXTERNAL", Width: 10, Fit: true, Priority: 1},
	}
}

func sandboxRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	s, _ := r.(data.Sandbox)
	status := statusCell(s.Status, th)
	if s.Status != "" && !data.KnownSandboxStatus(s.Status) {
		// Not a status of the broker's: shown as unknown, not coloured as
		// if opsdeck knew what it meant.
		status = warnCell(s.Status+"?", th)
	}
	deadline := timeCell(time.Time{}, now) // only an allocated sandbox has a deadline
	if s.Status == data.SandboxAllocated {
		if due, ok := s.AllocationDeadline(); ok {
			deadline = timeCell(due, now)
		} else {
			// No readable allocation time or window: the deadline is
			// unknown (the detail view says why), never a guessed one.
			deadline = warnCell("?", th).SortLast()
		}
	}
	row := vtable.Row{}
	if s.AllocationExpired(now) {
		status = errorCell(s.Status+" (expired)", th)
		row.Tag = "!"
		deadline = restyle(deadline, errorCell("", th))
	}
	row.Cells = []vtable.Cell{
		{Text: s.ID()},
		{Text: s.Name},
		status,
		{Text: s.AllocatedToTrack},
		timeCellOf(s.Meta, "allocated_at", s.AllocatedAt, now, th),
		deadline,
		numCell(s.LabDurationHours),
		numCell(s.DeletionRetryCount),
		{Text: s.ExternalID},
	}
	return row
}

// NewSandboxes builds the pane; by is "status", "track" or "key" (default
// status=available).
func NewSandboxes(c *Context, by, value string) *Sandboxes {
	p := &Sandboxes{base: base{ctx: c, id: PaneSandboxes}}
	p.lists = []*list{newList(c, PaneSandboxes, sandboxesPresenter)}
	if by == "" || value == "" {
		by, value = "status", data.SandboxAvailable
	}
	p.scope(by, value)
	return p
}

func (p *Sandboxes) scope(by, value string) {
	p.by, p.value = by, value
	v := value
	switch by {
	case "track":
		p.setScope(0, data.SandboxesByTrack(v), nil)
	case "key":
		p.setScope(0, data.SandboxesByIdempotencyKey(v), nil)
	default:
		p.by = "status"
		p.setScope(0, data.SandboxesByStatus(v), nil)
	}
}

// Show lists sandboxes by "status", "track" or "key"; an empty by means
// status=available.
func (p *Sandboxes) Show(by, value string) tea.Cmd {
	if by == "" || value == "" {
		by, value = "status", data.SandboxAvailable
	}
	p.scope(by, value)
	return p.reload()
}

func (p *Sandboxes) Title() string {
	if t := p.lookupTitle(); t != "" {
		return t
	}
	if t, ok := p.scopedTitle("Sandboxes"); ok {
		return t
	}
	return "Sandboxes · " + p.by + " " + p.value
}

// PaneSandboxes lists Sandbox Broker's pool.
const PaneSandboxes PaneID = "sandboxes"

// sandboxStatuses are the documented sandbox states.
var sandboxStatuses = data.SandboxStatuses

func sandboxesPane() PaneSpec {
	return PaneSpec{
		ID: PaneSandboxes, Name: "Sandboxes", Short: "Sandbx", DefaultKey: "5",
		New: func(c *Context, s Scopes) Pane {
			by, val := "status", s.SandboxStatus
			switch {
			case s.SandboxKey != "":
				by, val = "key", s.SandboxKey
			case s.SandboxTrack != "":
				by, val = "track", s.SandboxTrack
			}
			return NewSandboxes(c, by, val)
		},
		Commands: []CommandSpec{{
			Name: "sandboxes", Usage: ":sandboxes [status=S|track=T|key=K]",
			Opts:   []OptSpec{{Key: "status", Values: sandboxStatuses}, {Key: "track", Seen: data.KindTrack}, {Key: "key", Seen: data.KindSandbox}},
			OneOpt: true,
			Run: func(p Pane, a Args) tea.Cmd {
				k, v := a.FirstOpt()
				return p.(*Sandboxes).Show(k, v)
			},
		}, {
			Name: "sandbox", Usage: ":sandbox <sandbox_id>", Arg: ArgRequired,
			Complete: func(p Pane) []string { return p.(*Sandboxes).Values(data.TableSandboxes, "sandbox_id", completeMax) },
			Run:      func(p Pane, a Args) tea.Cmd { return p.(*Sandboxes).ShowSandbox(a.Arg) },
		}},
	}
}

// ShowSandbox is `:sandbox <sandbox_id>`: one sandbox (GetItem on PK
// "SBX#<id>", SK "META").
func (p *Sandboxes) ShowSandbox(sandboxID string) tea.Cmd {
	return p.lookup(0, data.SandboxByID(sandboxID), "Sandbox · "+sandboxID, "no sandbox with id "+sandboxID)
}

func init() {
	registerPresenter(sandboxesPresenter)
	registerPane(50, sandboxesPane)
}
