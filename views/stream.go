package views

import (
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/data/stream"
	"opsdeck/themes"
	"opsdeck/views/streamview"
)

// PaneStream is the live tail of every table's change records.
const PaneStream PaneID = "stream"

func streamPane() PaneSpec {
	return PaneSpec{
		ID: PaneStream, Name: "Stream", Short: "Stream", DefaultKey: "6",
		New: func(c *Context, s Scopes) Pane {
			return NewStream(c, s.StreamTable, StreamOptions{Buffer: s.StreamBuffer, Location: s.Location})
		},
		Commands: []CommandSpec{{
			Name: "stream", Usage: ":stream [table]", Arg: ArgOptional, TableArg: true,
			Run: func(p Pane, a Args) tea.Cmd { return p.(*Stream).Show(data.TableID(a.Arg)) },
		}},
	}
}

// Stream is the Stream pane: a Pane adapter around streamview.Model, which
// does the real work. It takes the reader's raw records (Tail), not
// views.Change, because it shows every table's records and their old and
// new images as they came.
type Stream struct {
	ctx  *Context
	live *streamview.Model
	opts StreamOptions
	w, h int
}

// StreamOptions tune the Stream pane.
type StreamOptions struct {
	// Buffer is how many records it keeps (streamview.DefaultBuffer when 0).
	Buffer int
	// Location is the time zone of its time column (time.Local when nil);
	// tests fix it so golden files do not depend on the machine.
	Location *time.Location
}

// NewStream builds the pane; table narrows it to one table ("" = all).
func NewStream(c *Context, table data.TableID, o StreamOptions) *Stream {
	m := newStreamModel(c, o)
	m.SetTable(table)
	return &Stream{ctx: c, live: m, opts: o}
}

func newStreamModel(c *Context, o StreamOptions) *streamview.Model {
	return streamview.New(streamview.Options{
		Theme:    c.Theme,
		Keys:     c.Keys,
		Buffer:   o.Buffer,
		Location: o.Location,
		Mask:     secret.Default,
		Summary:  Summary,
		Now:      c.now, // stamps arrivals (ARRIVED) with the console's clock
	})
}

// Live is the model behind the pane (tests read what it holds).
func (s *Stream) Live() *streamview.Model { return s.live }

// Tail appends the batch's records as they came.
func (s *Stream) Tail(recs []stream.Record, dropped int) {
	s.live.Append(recs)
	s.live.NoteDropped(dropped)
}

// LiveTables: the table the tail is narrowed to, shown or not (its records
// must not fall behind); every table while it is shown unnarrowed.
func (s *Stream) LiveTables(shown bool) ([]data.TableID, bool) {
	if t := s.live.Table(); t != "" {
		return []data.TableID{t}, false
	}
	return nil, shown
}

// Show narrows the tail to one table, "" for all.
func (s *Stream) Show(table data.TableID) tea.Cmd { s.live.SetTable(table); return nil }

// Init: the root feeds the tail (Tail); there is nothing to load.
func (s *Stream) Init() tea.Cmd { return nil }

func (s *Stream) ID() PaneID                 { return PaneStream }
func (s *Stream) Title() string              { return s.live.Title() }
func (s *Stream) Update(msg tea.Msg) tea.Cmd { return s.live.Update(msg) }
func (s *Stream) View() string               { return s.live.View() }
func (s *Stream) SetSize(w, h int) {
	s.w, s.h = max(w, 0), max(h, 0)
	s.live.SetSize(s.w, s.h)
}
func (s *Stream) Help() []key.Binding         { return s.live.Help() }
func (s *Stream) SetFilter(text string) error { return s.live.SetFilter(text) }
func (s *Stream) Filter() string              { return s.live.Filter() }
func (s *Stream) Back() bool                  { return s.live.Back() }
func (s *Stream) SetTheme(th themes.Theme)    { s.live.SetTheme(th) }

// Status reports the records held; there is never a load running.
func (s *Stream) Status() Status {
	n := s.live.Len()
	return Status{Progress: -1, Rows: n, Visible: n, Tail: true}
}

// Selected is the selected record's item: its new image, else its old one,
// else its keys (a KEYS_ONLY stream).
// SelectedRecord is the selected record's item (new image, else old, else
// keys) and table: a jump shows the item in its pane.
func (s *Stream) SelectedRecord() (data.TableID, data.Item, bool) {
	r, ok := s.live.Selected()
	if !ok {
		return "", nil, false
	}
	it, ok := s.Selected()
	return r.Table, it, ok
}

func (s *Stream) Selected() (data.Item, bool) {
	r, ok := s.live.Selected()
	if !ok {
		return nil, false
	}
	switch {
	case len(r.New) > 0:
		return r.New, true
	case len(r.Old) > 0:
		return r.Old, true
	case len(r.Keys) > 0:
		return r.Keys, true
	}
	return nil, false
}

// SortBy: the Stream pane keeps arrival order, the order records happened.
func (s *Stream) SortBy(string, bool) error {
	return errors.New("the Stream pane keeps arrival order (newest last); sort works in the table panes")
}

// SortColumns: none, the records keep arrival order (SortBy says so).
func (s *Stream) SortColumns() []string { return nil }

// ExportRows: the Stream pane's records are not items of one table.
func (s *Stream) ExportRows() (ExportSet, error) {
	return ExportSet{}, errors.New("export works in the table panes; the Stream pane's c copies a record")
}

func init() {
	registerPane(900, streamPane)
}

// The Stream pane's capabilities, checked by the compiler (see listPane).
var _ interface {
	Pane
	Selector
	Filterable
	Sortable
	Exporter
	Backer
	RecordTail
	LiveDemand
	Themed
	Reconnector
} = (*Stream)(nil)
