// Package views holds the panes of the console, one file per pane, each
// implementing Pane over one shared base (list.go). Panes never talk to
// DynamoDB directly: they ask data.Store from a tea.Cmd and get the answer
// back as a message addressed to them.
package views

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// PaneID names a pane; it is also the order of the tab bar.
type PaneID int

const (
	PaneSessions PaneID = iota
	PaneRuns
	PaneInbox
	PaneDelegations
	PaneSandboxes
	PaneStream
	NumPanes
)

// Name is the tab label.
func (id PaneID) Name() string {
	switch id {
	case PaneSessions:
		return "Sessions"
	case PaneRuns:
		return "Runs"
	case PaneInbox:
		return "Inbox"
	case PaneDelegations:
		return "Delegations"
	case PaneSandboxes:
		return "Sandboxes"
	case PaneStream:
		return "Stream"
	}
	return "?"
}

// Pane is what the root model needs from a pane. Panes are pointers that
// change in Update; the root owns them and is the only caller.
type Pane interface {
	ID() PaneID
	// Title is the pane name with its scope, e.g. "Sessions · project p-1".
	// It is raw text (it may hold tenant ids): the root sanitises it.
	Title() string
	// Init starts the first load of the current scope.
	Init() tea.Cmd
	// Update handles a key (only when the pane has focus and no prompt or
	// dialog does) or any message addressed to this pane.
	Update(msg tea.Msg) tea.Cmd
	// View renders the pane into exactly the size last given to SetSize.
	View() string
	SetSize(width, height int)
	// Help lists the pane-specific bindings for the help screen.
	Help() []key.Binding

	// Selected is the raw item under the cursor.
	Selected() (data.Item, bool)
	// Marked are the raw items marked with space (for bulk actions), and
	// how many of them the current filter hides.
	Marked() (items []data.Item, hidden int)

	// SetFilter narrows the loaded rows by a filter expression
	// (views/filter: text, !text, ~regex, field=value, field!=value);
	// "" clears it. A bad expression is returned, one line, and the
	// rows stay as they were.
	SetFilter(text string) error
	// Filter is the current filter text.
	Filter() string
	// SortBy orders the rows by a column, named by key or title
	// (case-insensitive); "" returns to the natural order. An unknown
	// column is an error and the order stays.
	SortBy(column string, desc bool) error
	// SortColumns are the titles of the columns on screen, left to right
	// (the numbers the sort-by-column keys use); nil when the pane cannot
	// be sorted.
	SortColumns() []string
	// ExportRows are the rows `:export` writes: the marked ones, else
	// those the filter shows.
	ExportRows() (ExportSet, error)
	// Back handles esc in normal mode: it closes the detail view, else
	// cancels a running load. It reports whether it did anything, so the
	// root can fall back to clearing the filter.
	Back() bool
	// Cancel stops a running load (ctrl+c). It reports whether one ran.
	Cancel() bool
	// Status is what the status bar shows for this pane.
	Status() Status

	// Apply is the extension point for the live tail: it receives stream
	// records (any table) and updates rows in place — upsert when the new
	// image is in the pane's scope, remove when it left the scope or was
	// deleted. Panes that do not show a table ignore them.
	Apply(changes []Change) tea.Cmd
}

// Status is a pane's state for the status bar.
type Status struct {
	Loading bool
	// Progress of a load-all, 0..1; negative when no load-all runs.
	Progress float64
	Rows     int     // rows loaded
	Visible  int     // rows passing the filter
	More     bool    // another page exists
	Consumed float64 // read capacity of the last request
	HasReq   bool    // Consumed is meaningful
	Err      string  // one line, already described; "" when fine
	Note     string  // transient information ("load cancelled")
	// Sort is the explicit sort in force ("EXPIRES ↓"), "" for the
	// natural order; Sortable is false for a pane with no sort at all.
	Sort     string
	Sortable bool
	// Waiting says what a load that has taken a second or more waits for
	// and for how long ("waiting for Query on StatusIndex · 12s · esc
	// cancels"); Waited is that time.
	Waiting string
	Waited  time.Duration
}

// Change is one item change from DynamoDB Streams as the panes consume it.
// The live-tail reader (data/stream) produces its own record type; the root
// converts it to this small, UI-side shape so panes stay independent of the
// reader's internals.
type Change struct {
	Table data.TableID
	// Event is INSERT, MODIFY or REMOVE.
	Event string
	Keys  data.Item
	// Old and New are the images the stream view type provides (nil when
	// absent). A REMOVE has no New.
	Old, New data.Item
	// TTL is true for a delete done by DynamoDB's TTL process.
	TTL bool
}

var (
	_ Pane = (*Sessions)(nil)
	_ Pane = (*Runs)(nil)
	_ Pane = (*Inbox)(nil)
	_ Pane = (*Delegations)(nil)
	_ Pane = (*Sandboxes)(nil)
	_ Pane = (*Stream)(nil)
)
