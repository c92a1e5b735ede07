// Package views holds the panes of the console, one file (or folder) per
// pane, each implementing Pane — most over one shared base (base.go,
// list.go). Panes never talk to DynamoDB directly: they ask data.Store from
// a tea.Cmd and get the answer back as a message addressed to them. The
// root finds the panes through the Registry (registry.go).
package views

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/themes"
)

// PaneID names a pane. Each pane's file declares its own; the tab order is
// the Registry's.
type PaneID string

// Name is the pane's tab label, from the Registry ("?" for an unknown id).
func (id PaneID) Name() string {
	if s, ok := Spec(id); ok {
		return s.Name
	}
	return "?"
}

// Pane is what the root asks of every pane: who it is, its keys, its
// view and its status line. Everything else a pane may do is an optional
// capability below, each a small interface; the root resolves them once,
// when it builds the panes (ui/slot.go), and keeps the handles, so it
// never type-asserts a pane in its hot paths and never tests which pane
// it is. A pane implements only what it does: no no-op methods. Panes are
// pointers that change in Update; the root owns them and is the only
// caller.
type Pane interface {
	ID() PaneID
	// Title is the pane name with its scope, e.g. "Sessions · project p-1".
	// It is raw text (it may hold tenant ids): the root sanitises it.
	Title() string
	// Init starts the first load of the current scope (nothing when it
	// has loaded already).
	Init() tea.Cmd
	// Update handles a key (only when the pane has focus and no prompt or
	// dialog does) or any message addressed to this pane.
	Update(msg tea.Msg) tea.Cmd
	// View renders the pane into exactly the size last given to SetSize.
	View() string
	SetSize(width, height int)
	// Help lists the pane-specific bindings for the help screen.
	Help() []key.Binding
	// Status is what the title line and the status bar show for this pane.
	Status() Status
}

// Selector: a pane with a row under a cursor.
type Selector interface {
	// Selected is the raw item under the cursor.
	Selected() (data.Item, bool)
	// SelectedRecord is the row under the cursor with its table (a jump's
	// starting point).
	SelectedRecord() (table data.TableID, item data.Item, ok bool)
}

// Marker: a pane whose rows the guarded actions act on, one or marked.
type Marker interface {
	// Marked are the raw items marked with space (for bulk actions), and
	// how many of them the current filter hides. ClearMarks unmarks them
	// (after a bulk action ran).
	Marked() (items []data.Item, hidden int)
	ClearMarks()
	// MarkAll marks every loaded row the current filter shows: how many
	// rows are marked now, and whether pages not loaded yet exist (their
	// rows are not marked).
	MarkAll() (marked int, more bool)
	// DetailOpen: the detail view covers the table (actions and `S` then
	// wait for it to close).
	DetailOpen() bool
	// Partial: Selected or Marked may give items with only the attributes
	// the columns show (the list reads no more, whole.go); the root reads
	// whole items by key before it plans an action on them.
	Partial() bool
}

// Filterable: a pane whose rows the filter line narrows.
type Filterable interface {
	// SetFilter narrows the loaded rows by a filter expression
	// (views/filter: text, !text, ~regex, field=value, field!=value);
	// "" clears it. A bad expression is returned, one line, and the
	// rows stay as they were.
	SetFilter(text string) error
	// Filter is the current filter text.
	Filter() string
}

// Sortable: a pane that orders its rows by a column (or says why not).
type Sortable interface {
	// SortBy orders the rows by a column, named by key or title
	// (case-insensitive); "" returns to the natural order. An unknown
	// column is an error and the order stays.
	SortBy(column string, desc bool) error
	// SortColumns are the titles of the columns on screen, left to right
	// (the numbers the sort-by-column keys use); nil when the pane cannot
	// be sorted.
	SortColumns() []string
}

// Exporter: a pane `:export` writes from (or that says why it cannot).
type Exporter interface {
	// ExportRows are the rows `:export` writes: the marked ones, else
	// those the filter shows.
	ExportRows() (ExportSet, error)
}

// Backer: a pane that uses esc in normal mode.
type Backer interface {
	// Back closes the detail view, else cancels a running load. It
	// reports whether it did anything, so the root can fall back to
	// clearing the filter.
	Back() bool
}

// Canceller: a pane whose loads ctrl+c stops.
type Canceller interface {
	// Cancel stops a running load. It reports whether one ran.
	Cancel() bool
}

// Applier: a pane that takes the live tail's changes (any table): rows
// are updated in place — upserted when the new image is in the pane's
// scope, removed when it left the scope or was deleted.
type Applier interface {
	Apply(changes []Change) tea.Cmd
}

// RecordTail: a pane that shows the live tail's batches as the reader
// delivered them, whole records and how many were dropped before they
// reached the console (the Stream pane).
type RecordTail interface {
	Tail(recs []stream.Record, dropped int)
}

// LiveDemand: a pane that needs tables' streams read at full rate.
type LiveDemand interface {
	// LiveTables are the tables whose stream the pane needs read at full
	// rate; shown says whether it is on screen. all: every table.
	LiveTables(shown bool) (tables []data.TableID, all bool)
}

// Poller: a pane of one table's rows, polled while that table has no
// stream.
type Poller interface {
	// ShownTable is the table of the rows on screen ("" for none): its
	// stream health is the title's live label, and it is polled while it
	// has no stream.
	ShownTable() data.TableID
	// Poll starts an in-place refresh of the shown rows; nil when one is
	// running, the pane has not loaded yet, a load is running, or it is
	// backing off after errors. The answer (a PollMsg) goes to PollDone.
	Poll() tea.Cmd
	PollDone(PollMsg) tea.Cmd
	// Reload restarts every list that was loaded (after the live feed
	// dropped records, so in-place updates may have been missed).
	Reload() tea.Cmd
}

// Scanner: a pane `S` scans from, which shows the scan's result.
type Scanner interface {
	// ScanTarget is the table `S` scans from here, ShowScan shows a scan's
	// result in place of the query lists, ShownScan / ScanTitle tell
	// whether one is shown (and its title).
	ScanTarget() (data.TableID, bool)
	ShowScan(r ScanResult)
	ShownScan() (ScanResult, bool)
	ScanTitle() (string, bool)
}

// Retimer: a pane with times on screen that change with the clock.
type Retimer interface {
	// Retime re-renders the shown rows against the clock; it and LiveTimes
	// report whether a live time column is on screen (the root keeps its
	// one-second clock running only then).
	Retime() bool
	LiveTimes() bool
	// NextRetime is when the shown rows next look different by the clock
	// alone (a relative time's label, an expiry passing); zero: never. The
	// root's clock sleeps until then, so an idle console stays idle.
	NextRetime() time.Time
}

// Themed: a pane that restyles what it already shows (the root has set
// Context.Theme first).
type Themed interface {
	SetTheme(th themes.Theme)
}

// Scoper: a pane that lists a scope, which jumps and the overview open.
type Scoper interface {
	// ShowScope lists exactly sc (a number of the overview, a jump from a
	// related item) when sc is of a table this pane lists; ok false
	// otherwise.
	ShowScope(sc data.Scope) (cmd tea.Cmd, ok bool)
	// CurrentScope is the scope the pane shows (a jump's way back); zero
	// when there is none.
	CurrentScope() data.Scope
}

// Alerter: a pane with thresholds, shown in the status bar whichever pane
// is on screen.
type Alerter interface {
	// Alerts are the thresholds crossed now, one short line each.
	Alerts() []string
}

// Backgrounder: a pane that works from start-up whether or not it is
// shown (the overview's first count, when alerts are configured); the
// root starts it once, with Init.
type Backgrounder interface {
	Background() tea.Cmd
}

// Reconnector: a pane that holds what it read through a connection.
type Reconnector interface {
	// Reconnect drops everything read through the previous connection
	// (rows, counts, records, a scan result) and keeps the scope: the
	// console switched env, profile or region (the root has set
	// Context.Store first). The next Init loads again (reconnect.go).
	Reconnect()
}

// Replacer: a pane that reads tables whose stream can be replaced.
type Replacer interface {
	// Replaced: table t's stream was replaced by a new one (the table
	// re-created, or its stream re-enabled). What the pane shows of t is
	// dropped at once and read again (replaced.go).
	Replaced(t data.TableID) tea.Cmd
}

// Status is a pane's state for the title line and the status bar.
type Status struct {
	Loading bool
	// Progress of a load-all, 0..1; negative when no load-all runs.
	Progress float64
	Rows     int // rows loaded
	// Noun is what Rows counts when it is not rows ("number" on the
	// overview); "" means rows.
	Noun     string
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
	// Tail: the pane is the live tail itself (Stream). Its title counts
	// records on its own, and the status bar shows every table's stream
	// state where another pane's note would go.
	Tail bool
}

// Change is one item change from DynamoDB Streams as the list panes
// consume it. The live-tail reader (data/stream) produces its own record
// type; the root converts it to this small, UI-side shape so list panes
// stay independent of the reader's internals.
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
	// At, Shard and Seq place the change in its stream: the record's
	// ApproximateCreationDateTime (rounded down; zero for the console's
	// own writes) and its shard and sequence number. Counts use them to
	// tell a change they already saw from one they did not
	// (data.ReadSpan.Place).
	At            time.Time
	Shard, Seq    string
	NotBy, ReadBy time.Time // made after NotBy, before ReadBy (stream.Record)
}

// Placed is the change as the data layer places it against a count.
func (c Change) Placed() data.ChangeAt {
	return data.ChangeAt{Table: c.Table, Event: c.Event, Keys: c.Keys, Old: c.Old, New: c.New, At: c.At, Shard: c.Shard, Seq: c.Seq, NotBy: c.NotBy, ReadBy: c.ReadBy}
}
