package views

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views/inert"
)

// Stream is a placeholder until the live-tail issue fills it: it says so,
// and lists which tables have a DynamoDB stream (the others will be polled).
type Stream struct {
	ctx   *Context
	table data.TableID // "" = all tables
	w, h  int
}

// NewStream builds the placeholder; table narrows it to one table.
func NewStream(c *Context, table data.TableID) *Stream { return &Stream{ctx: c, table: table} }

// Show narrows the (future) tail to one table, "" for all.
func (s *Stream) Show(table data.TableID) tea.Cmd { s.table = table; return nil }

func (s *Stream) ID() PaneID { return PaneStream }
func (s *Stream) Title() string {
	if s.table != "" {
		return "Stream · " + string(s.table)
	}
	return "Stream · all tables"
}
func (s *Stream) Init() tea.Cmd               { return nil }
func (s *Stream) Update(tea.Msg) tea.Cmd      { return nil }
func (s *Stream) SetSize(w, h int)            { s.w, s.h = max(w, 0), max(h, 0) }
func (s *Stream) Help() []key.Binding         { return nil }
func (s *Stream) Selected() (data.Item, bool) { return nil, false }
func (s *Stream) Marked() ([]data.Item, int)  { return nil, 0 }
func (s *Stream) SetFilter(string)            {}
func (s *Stream) Filter() string              { return "" }
func (s *Stream) Back() bool                  { return false }
func (s *Stream) Cancel() bool                { return false }
func (s *Stream) Status() Status              { return Status{Progress: -1} }
func (s *Stream) Apply([]Change) tea.Cmd      { return nil }

func (s *Stream) View() string {
	th := s.ctx.Theme
	lines := []string{
		th.Title.Render(inert.Pad("Live tail is not built yet.", s.w)),
		inert.Pad("", s.w),
		inert.Pad("This pane will show every table's DynamoDB Streams records as they", s.w),
		inert.Pad("happen (the live-tail issue). Until then, r reloads a pane.", s.w),
		inert.Pad("", s.w),
		th.Header.Render(inert.Pad("Tables and their streams:", s.w)),
	}
	for _, sc := range data.Schemas() {
		if s.table != "" && sc.ID != s.table {
			continue
		}
		mode := "no stream: will poll"
		if sc.Stream != data.StreamNone {
			mode = "stream " + string(sc.Stream)
		}
		name := s.ctx.Tables.Name(sc.ID)
		lines = append(lines, inert.Pad("  "+padRight(string(sc.ID), 14)+padRight(name, 38)+mode, s.w))
	}
	for len(lines) < s.h {
		lines = append(lines, strings.Repeat(" ", s.w))
	}
	return strings.Join(lines[:s.h], "\n")
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}
