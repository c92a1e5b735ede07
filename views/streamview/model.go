// Package streamview is the Stream pane: a live log of every table's
// DynamoDB Streams records, newest at the bottom.
//
// The model is self-contained: the root hands it records (Append) as they
// arrive in batches (the tables' stream health is the root's), routes keys
// to Update while
// the pane has focus, and draws it with View. Every string that reaches the
// screen has gone through the inert sanitiser; record text is sanitised once
// on arrival, so a frame only cuts cached strings to width and costs the same
// with 100 or 10,000 records.
package streamview

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/filter"
	"opsdeck/views/inert"
)

// DefaultBuffer is how many records the pane keeps before dropping the
// oldest.
const DefaultBuffer = 10_000

// DefaultBufferBytes is how much memory the kept records may take before
// the oldest are dropped: 10,000 records of a few KB fit, and 80 records of
// the largest items DynamoDB allows (400 KB, both images) do too.
const DefaultBufferBytes = 64 << 20

// Options configure a Model.
type Options struct {
	Theme themes.Theme
	Keys  keymap.Map
	// Buffer is the number of records kept (DefaultBuffer when 0).
	Buffer int
	// BufferBytes bounds the memory of the records kept
	// (DefaultBufferBytes when 0); the oldest go first, the newest record
	// is always kept.
	BufferBytes int64
	// Location is the time zone of the time column (time.Local when nil).
	// Tests fix it so golden files do not depend on the machine.
	Location *time.Location
	// Mask hides secrets in summaries and in the comparison (pass
	// secret.Default). Nil shows every value as stored.
	Mask MaskFunc
	// Summary names each table's identifying attributes for the summary
	// column (pass views.Summary); nil: the first attributes by name.
	Summary SummaryFunc
	// Now is the clock that stamps a record's arrival, which the ARRIVED
	// column shows (time.Now when nil; tests fix it).
	Now func() time.Time
}

type mode int

const (
	modeList   mode = iota
	modeFilter      // typing a filter: every key goes to the prompt
	modeDiff        // old and new image side by side
)

// Model is the Stream pane. Use it through a pointer; the zero value is not
// usable, call New.
type Model struct {
	theme   themes.Theme
	keys    keymap.Map
	loc     *time.Location
	mask    MaskFunc
	summary SummaryFunc
	now     func() time.Time

	buf *buffer
	vis view

	table  data.TableID // "" = every table
	filter string       // as typed
	expr   filter.Expr  // the filter parsed
	input  string       // the prompt's text while typing

	mode    mode
	paused  bool
	pauseAt uint64 // while paused, records with seq ≥ pauseAt stay hidden
	follow  bool   // keep the cursor on the newest record
	cursor  uint64 // seq of the selected record
	top     uint64 // seq of the first row drawn

	upstreamDropped int // records the live feed dropped before they got here

	width, height int
	diff          *diffView

	// The column layout and its cache generation (see entry.line).
	lay         layout
	layoutW     int
	layoutTable data.TableID
	gen         uint64
}

// New returns an empty pane that follows the newest record.
func New(o Options) *Model {
	n := o.Buffer
	if n <= 0 {
		n = DefaultBuffer
	}
	nb := o.BufferBytes
	if nb <= 0 {
		nb = DefaultBufferBytes
	}
	loc := o.Location
	if loc == nil {
		loc = time.Local
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	keys := o.Keys
	if len(keys.Up.Keys()) == 0 {
		// A zero keymap would leave the pane deaf; fall back to the defaults.
		keys = keymap.Default()
	}
	return &Model{
		theme:   o.Theme,
		keys:    keys,
		loc:     loc,
		mask:    o.Mask,
		summary: o.Summary,
		now:     now,
		buf:     newBuffer(n, nb),
		follow:  true,
	}
}

// summaryOf is the table's identifying attributes (Options.Summary).
func (m *Model) summaryOf(t data.TableID) []string {
	if m.summary == nil {
		return nil
	}
	return m.summary(t)
}

// Append adds records in arrival order, stamped with the clock: the list
// is in the order records arrived, newest at the bottom, and its ARRIVED
// column says when. (A record's own time, ApproximateCreationDateTime, is
// rounded to the minute by DynamoDB Streams, and records of different
// tables arrive through different shards: shown in the list it would read
// as exact and out of order. The comparison gives it, as a minute.) While
// paused records are kept (and counted as new) but not shown; when the
// buffer is full the oldest go.
func (m *Model) Append(recs []stream.Record) {
	arrived := m.now()
	for i := range recs {
		e := entry{rec: recs[i], arrived: arrived, cols: rowCells(recs[i], arrived, m.loc, m.mask, m.summaryOf(recs[i].Table))}
		e.hay = haystack(e.cols)
		for c, s := range e.cols {
			e.widths[c] = inert.Width(s)
		}
		e.size = entrySize(&e)
		m.buf.push(e)
		seq := m.buf.next - 1
		if e, _ := m.buf.get(seq); m.matches(e) {
			m.vis.add(seq)
		}
	}
	m.vis.trim(m.buf.first)
	m.settle()
}

// NoteDropped counts records lost before they reached the pane (the live
// feed's backlog overflowed), so the pane can say so.
func (m *Model) NoteDropped(n int) {
	if n > 0 {
		m.upstreamDropped += n
	}
}

// Dropped is how many records the operator cannot see any more: pushed out
// of the bounded buffer (by count or by bytes), plus lost upstream.
func (m *Model) Dropped() int { return int(m.buf.dropped) + m.upstreamDropped }

// Len is the number of records held.
func (m *Model) Len() int { return m.buf.len() }

// Bytes is the approximate memory the records held take.
func (m *Model) Bytes() int64 { return m.buf.bytes }

// Count is the number of records held in the current narrowing: every
// record, or those of the table `:stream <table>` chose.
func (m *Model) Count() int {
	if m.table == "" {
		return m.buf.len()
	}
	return m.buf.perTable[m.table]
}

// SetTable narrows the pane to one table (`:stream sessions`); "" shows
// every table again.
func (m *Model) SetTable(t data.TableID) {
	if t == m.table {
		return
	}
	m.table = t
	m.rebuild()
}

// SetTheme restyles the pane (the root re-syncs the theme after a change).
func (m *Model) SetTheme(th themes.Theme) {
	m.theme = th
	m.gen++ // cached rows carry the old colours
}

// Table is the current narrowing ("" for every table).
func (m *Model) Table() data.TableID { return m.table }

// SetFilter narrows the list by a filter expression (views/filter: text,
// !text, ~regex, field=value over the columns and the records' images);
// "" clears it. A bad expression is returned and the list is unchanged.
// The root's own filter prompt may call it instead of letting the pane run
// its prompt.
func (m *Model) SetFilter(text string) error {
	if text == m.filter {
		return nil
	}
	e, err := filter.Parse(text)
	if err != nil {
		return err
	}
	m.filter, m.expr = text, e
	m.rebuild()
	return nil
}

// Filter is the current filter text.
func (m *Model) Filter() string { return m.filter }

// SetPaused pauses or resumes the pane. Resuming shows what arrived in
// between; if the cursor was following, it follows on to the newest.
func (m *Model) SetPaused(p bool) {
	if p == m.paused {
		return
	}
	m.paused = p
	m.pauseAt = m.buf.next
	m.settle()
}

// Paused reports whether the pane is paused.
func (m *Model) Paused() bool { return m.paused }

// NewWhilePaused is how many records (passing the narrowing and filter)
// arrived since the pause and are waiting to be shown.
func (m *Model) NewWhilePaused() int {
	if !m.paused {
		return 0
	}
	return m.vis.len() - m.shown()
}

// Capturing reports whether the pane wants every key (its filter prompt is
// open), so the root must not interpret them as global bindings.
func (m *Model) Capturing() bool { return m.mode == modeFilter }

// InDiff reports whether the old/new comparison is open.
func (m *Model) InDiff() bool { return m.mode == modeDiff }

// Selected returns the record under the cursor.
func (m *Model) Selected() (stream.Record, bool) {
	e, ok := m.selectedEntry()
	if !ok {
		return stream.Record{}, false
	}
	return e.rec, true
}

func (m *Model) selectedEntry() (*entry, bool) {
	if m.shown() == 0 {
		return nil, false
	}
	return m.buf.get(m.vis.at(m.cursorIndex()))
}

// SetSize sets the area View draws into.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	if m.diff != nil {
		m.diff.resize(w, h)
	}
	m.settle()
}

// Title is the pane title with its scope. It is raw text; the root
// sanitises titles (table ids are ours, but keep one rule for all panes).
func (m *Model) Title() string {
	t := "Stream · all tables"
	if m.table != "" {
		t = "Stream · " + string(m.table)
	}
	if m.paused {
		t += " · paused"
	}
	return t
}

// Help lists the pane's own bindings.
func (m *Model) Help() []key.Binding {
	return []key.Binding{m.keys.Pause, m.keys.Filter, m.keys.Enter, m.keys.Reveal, m.keys.Copy, m.keys.Back, m.keys.Top, m.keys.Bottom}
}

// Back handles esc: it closes the comparison, else the filter prompt, else
// clears the filter. It reports whether it did anything.
func (m *Model) Back() bool {
	switch {
	case m.mode == modeDiff:
		m.mode, m.diff = modeList, nil
		return true
	case m.mode == modeFilter:
		m.mode = modeList
		m.SetFilter("")
		return true
	case m.filter != "":
		m.SetFilter("")
		return true
	}
	return false
}

// count formats n with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	if n < 1000 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
