package views

import (
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/themes"
	"opsdeck/views/streamview"
)

// Stream is the Stream pane: a Pane adapter around streamview.Model, which
// does the real work. It gets raw stream records from the root (through
// Live().Append), not views.Change, because it shows every table's records
// and their old and new images as they came.
type Stream struct {
	ctx  *Context
	live *streamview.Model
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
	m := streamview.New(streamview.Options{
		Theme:    c.Theme,
		Keys:     c.Keys,
		Buffer:   o.Buffer,
		Location: o.Location,
		Mask:     secret.Default,
	})
	m.SetTable(table)
	return &Stream{ctx: c, live: m}
}

// Live is the model behind the pane: the root appends records and health
// to it.
func (s *Stream) Live() *streamview.Model { return s.live }

// Show narrows the tail to one table, "" for all.
func (s *Stream) Show(table data.TableID) tea.Cmd { s.live.SetTable(table); return nil }

func (s *Stream) ID() PaneID                  { return PaneStream }
func (s *Stream) Title() string               { return s.live.Title() }
func (s *Stream) Init() tea.Cmd               { return nil }
func (s *Stream) Update(msg tea.Msg) tea.Cmd  { return s.live.Update(msg) }
func (s *Stream) View() string                { return s.live.View() }
func (s *Stream) SetSize(w, h int)            { s.live.SetSize(max(w, 0), max(h, 0)) }
func (s *Stream) Help() []key.Binding         { return s.live.Help() }
func (s *Stream) Marked() ([]data.Item, int)  { return nil, 0 }
func (s *Stream) SetFilter(text string) error { return s.live.SetFilter(text) }

// SortBy: the Stream pane keeps arrival order, the order records happened.
func (s *Stream) SortBy(string, bool) error {
	return errors.New("the Stream pane keeps arrival order (newest last); sort works in the table panes")
}
func (s *Stream) SortColumns() []string    { return nil }
func (s *Stream) Filter() string           { return s.live.Filter() }
func (s *Stream) Back() bool               { return s.live.Back() }
func (s *Stream) Cancel() bool             { return false }
func (s *Stream) SetTheme(th themes.Theme) { s.live.SetTheme(th) }

// Apply ignores changes: this pane is fed whole records through Live.
func (s *Stream) Apply([]Change) tea.Cmd { return nil }

// Status reports the records held; there is never a load running.
func (s *Stream) Status() Status {
	n := s.live.Len()
	return Status{Progress: -1, Rows: n, Visible: n}
}

// Selected is the selected record's item: its new image, else its old one,
// else its keys (a KEYS_ONLY stream).
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

// ExportRows: the Stream pane's records are not items of one table.
func (s *Stream) ExportRows() (ExportSet, error) {
	return ExportSet{}, errors.New("export works in the table panes; the Stream pane's c copies a record")
}
