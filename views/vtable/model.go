package vtable

import (
	"slices"
	"time"

	"opsdeck/themes"
)

// highlight is a "recently changed" flash on a row (cols empty) or cells.
type highlight struct {
	cols  []int
	until time.Time
}

// Model is the table. Use it by value in the owning pane and call the pointer
// methods on that value; Update returns the updated copy, bubbletea style.
// Copies share row storage, so keep one live copy.
type Model struct {
	cols   []Column
	theme  themes.Theme
	width  int
	height int

	all   []*entry // insertion order; may hold removed entries until compacted
	byID  map[string]*entry
	dead  int      // removed entries still in all
	view  []*entry // filtered + sorted: what the cursor walks
	seq   uint64
	marks map[string]struct{}

	filter   string
	pred     Predicate // nil: filter is a plain substring
	sortCol  int       // -1: insertion order
	sortDesc bool
	// natCol/natDesc is the natural order (SetNaturalOrder): the order the
	// rows' query returns them in, used while no explicit sort is chosen.
	natCol  int // -1: none, insertion order
	natDesc bool

	cursor int // index into view
	offset int // first view index on screen

	highlights map[string]highlight
	// hlSweepAt is the highlight count at which expired ones are swept
	// next (see Highlight).
	hlSweepAt int
	now       func() time.Time
	// labelsAt is the moment live time labels are drawn against (zero:
	// the clock at each draw). Any change to the rows or the window moves
	// it to the clock, and so does the owner's clock (LabelsAt); a frame
	// drawn for anything else shows the same labels, so an idle screen
	// whose labels change at scattered seconds is not redrawn at each.
	labelsAt time.Time

	layout layout
	empty  string
	paints *paints // theme styles reduced to escape sequences (paint.go)
}

// New returns an empty table.
func New(cols []Column, th themes.Theme) Model {
	m := Model{theme: th, sortCol: -1, natCol: -1}
	m.init()
	m.repaint()
	m.SetColumns(cols)
	return m
}

func (m *Model) init() {
	if m.byID == nil {
		m.byID = make(map[string]*entry)
	}
	if m.marks == nil {
		m.marks = make(map[string]struct{})
	}
	if m.highlights == nil {
		m.highlights = make(map[string]highlight)
	}
	if m.now == nil {
		m.now = time.Now
	}
}

// SetTheme restyles the table.
func (m *Model) SetTheme(th themes.Theme) {
	m.theme = th
	m.repaint()
}

// SetSize sets the outer size: View returns exactly h lines of w cells.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.relayout()
	m.clampScroll()
}

// Size returns the size set by SetSize.
func (m Model) Size() (w, h int) { return m.width, m.height }

// SetColumns replaces the columns. The sort is kept when the column index is
// still valid.
func (m *Model) SetColumns(cols []Column) {
	m.cols = slices.Clone(cols)
	if m.sortCol >= len(m.cols) || (m.sortCol >= 0 && m.cols[m.sortCol].Hidden) {
		// A sort on a column the operator cannot see would be invisible.
		m.sortCol = -1
	}
	if m.natCol >= len(m.cols) {
		m.natCol = -1
	}
	for _, e := range m.all {
		e.hasHay = false
	}
	m.computeKeys(m.all) // the sort column may now hold other text
	m.relayout()
	m.rebuild(m.SelectedID())
}

// Columns returns the columns.
func (m Model) Columns() []Column { return slices.Clone(m.cols) }

// SetEmptyText sets the message shown when there are no rows at all
// (default "no rows").
func (m *Model) SetEmptyText(s string) { m.empty = s }

// SetNow sets the clock used for highlights (tests inject a fixed one).
func (m *Model) SetNow(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	m.now = now
}

// LabelsAt draws live time labels against t from now on, until the next
// change of rows or window (the owner's clock tick).
func (m *Model) LabelsAt(t time.Time) { m.labelsAt = t }

// touchLabels: rows or the window changed, so the labels drawn next are
// the clock's.
func (m *Model) touchLabels() { m.labelsAt = m.clock() }

// SetRows replaces all rows. The cursor stays on the same ID when that row
// still exists; marks of IDs that are gone are dropped. Rows with a duplicate
// ID keep the last one (ids are item keys, so a duplicate is the same item).
func (m *Model) SetRows(rows []Row) {
	m.init()
	m.touchLabels()
	keep := m.SelectedID()
	keepIdx := m.cursor
	m.all = make([]*entry, 0, len(rows))
	m.byID = make(map[string]*entry, len(rows))
	m.dead = 0
	m.seq = 0
	for _, r := range rows {
		if old, ok := m.byID[r.ID]; ok {
			old.Row = r
			old.hasHay = false
			continue
		}
		e := &entry{Row: r, seq: m.seq}
		m.seq++
		m.all = append(m.all, e)
		m.byID[r.ID] = e
	}
	for id := range m.marks {
		if _, ok := m.byID[id]; !ok {
			delete(m.marks, id)
		}
	}
	m.computeKeys(m.all)
	m.rebuild("")
	if !m.Select(keep) {
		m.cursor = keepIdx
		m.clampScroll()
	}
}

// Append adds a page of rows after the ones held (rows whose ID is already
// present replace it, as Upsert). It costs O(page log page + N) — a merge,
// not a re-sort — so loading page after page into a large table stays
// cheap, and the cursor stays on its row.
func (m *Model) Append(rows []Row) {
	m.touchLabels()
	m.init()
	sel := m.SelectedID()
	fresh := make([]*entry, 0, len(rows))
	firstSeq := m.seq
	for _, r := range rows {
		if e, ok := m.byID[r.ID]; ok {
			if e.seq >= firstSeq { // twice in this page: not in the view yet
				e.Row, e.hasHay = r, false
			} else {
				m.Upsert(r)
			}
			continue
		}
		e := &entry{Row: r, seq: m.seq}
		m.seq++
		m.all = append(m.all, e)
		m.byID[r.ID] = e
		fresh = append(fresh, e)
	}
	m.computeKeys(fresh)
	add := fresh[:0]
	for _, e := range fresh {
		if m.matches(e) {
			e.visible = true
			add = append(add, e)
		}
	}
	if len(add) > 0 {
		slices.SortFunc(add, m.cmp)
		m.view = mergeSorted(m.view, add, m.cmp)
	}
	m.restoreCursor(sel)
}

// Upsert adds a row or replaces the row with the same ID, keeping the cursor
// on the row it was on. Cost is O(log N) plus a memmove of the view, not a
// re-sort, so a stream of updates stays cheap with 100k rows.
func (m *Model) Upsert(r Row) {
	m.touchLabels()
	m.init()
	sel := m.SelectedID()
	e, ok := m.byID[r.ID]
	if ok {
		if e.visible {
			m.removeFromView(e)
		}
		e.Row = r
		e.hasHay = false
	} else {
		e = &entry{Row: r, seq: m.seq}
		m.seq++
		m.all = append(m.all, e)
		m.byID[r.ID] = e
	}
	m.computeKeys([]*entry{e})
	if m.matches(e) {
		m.insertIntoView(e)
	}
	m.restoreCursor(sel)
}

// Remove deletes the row with this ID (and its mark). Unknown IDs are ignored.
func (m *Model) Remove(id string) {
	m.touchLabels()
	e, ok := m.byID[id]
	if !ok {
		return
	}
	sel := m.SelectedID()
	selIdx := m.cursor
	if e.visible {
		m.removeFromView(e)
	}
	e.removed = true
	delete(m.byID, id)
	delete(m.marks, id)
	delete(m.highlights, id)
	m.dead++
	if m.dead > 64 && m.dead > len(m.all)/2 {
		m.compact()
	}
	if sel == id || !m.Select(sel) {
		m.cursor = selIdx
		m.clampScroll()
	}
}

func (m *Model) compact() {
	live := m.all[:0]
	for _, e := range m.all {
		if !e.removed {
			live = append(live, e)
		}
	}
	clear(m.all[len(live):])
	m.all = live
	m.dead = 0
}

// Len is the number of rows held; VisibleLen the number passing the filter.
func (m Model) Len() int { return len(m.byID) }

func (m Model) VisibleLen() int { return len(m.view) }

// Row returns the row with this ID, visible or not.
func (m Model) Row(id string) (Row, bool) {
	e, ok := m.byID[id]
	if !ok {
		return Row{}, false
	}
	return e.Row, true
}

// Highlight flashes a row (cols nil/empty) or some of its cells until the
// given time, e.g. when a stream record changed them. The owner must redraw
// after the deadline (NextHighlightEnd tells when).
func (m *Model) Highlight(id string, cols []int, until time.Time) {
	m.init()
	now := m.now()
	// Expired highlights are swept only when the map has doubled since the
	// last sweep: sweeping on every call made a burst of N stream changes
	// cost O(N²). Expired entries left meanwhile are never drawn.
	if len(m.highlights) >= m.hlSweepAt {
		for k, h := range m.highlights {
			if !h.until.After(now) {
				delete(m.highlights, k)
			}
		}
		m.hlSweepAt = max(2*len(m.highlights), 64)
	}
	if !until.After(now) {
		delete(m.highlights, id)
		return
	}
	m.highlights[id] = highlight{cols: slices.Clone(cols), until: until}
}

// NextHighlightEnd returns the earliest end of a highlight still showing, so
// the owner can schedule one redraw instead of ticking constantly.
func (m Model) NextHighlightEnd() (time.Time, bool) {
	var best time.Time
	now := m.clock()
	for _, h := range m.highlights {
		if h.until.After(now) && (best.IsZero() || h.until.Before(best)) {
			best = h.until
		}
	}
	return best, !best.IsZero()
}

func (m Model) clock() time.Time {
	if m.now == nil {
		return time.Now()
	}
	return m.now()
}

// HasLiveColumns reports whether a shown column formats times against the
// clock (Column.Relative): the owner then redraws every second or so, and
// only then.
func (m Model) HasLiveColumns() bool {
	for _, i := range m.layout.vis {
		if m.cols[i].Relative != nil {
			return true
		}
	}
	return false
}

// WindowIDs returns the ids of the rows on screen, top to bottom.
func (m Model) WindowIDs() []string {
	end := min(m.offset+m.bodyHeight(), len(m.view))
	if m.offset >= end {
		return nil
	}
	out := make([]string, 0, end-m.offset)
	for _, e := range m.view[m.offset:end] {
		out = append(out, e.ID)
	}
	return out
}

// Refresh replaces a row's content where it stands — for a re-rendering
// that only the clock caused (an expiry that passed): no highlight, no
// move. Should the row's order key change after all, it is re-placed as
// Upsert does. The filter is not re-applied: a row stays shown until the
// filter or rows change. Unknown ids are ignored.
func (m *Model) Refresh(r Row) {
	m.touchLabels()
	e, ok := m.byID[r.ID]
	if !ok {
		return
	}
	if col, _ := m.orderCol(); col >= 0 {
		var k sortKey
		if col < len(r.Cells) {
			k = keyOf(r.Cells[col])
		} else {
			k = sortKey{empty: true}
		}
		if k != e.key {
			m.Upsert(r)
			return
		}
	}
	e.Row, e.hasHay = r, false
}
