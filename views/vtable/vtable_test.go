package vtable

import (
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/keymap"
	"opsdeck/themes"
)

func TestNavigationKeys(t *testing.T) {
	m := newTable(numbered(100), 60, 11) // 10 body rows
	if m.SelectedID() != "r0" {
		t.Fatalf("start on %q", m.SelectedID())
	}
	m = keys(t, m, "j", "j", "down")
	if m.Cursor() != 3 {
		t.Fatalf("after j j down: cursor %d", m.Cursor())
	}
	m = keys(t, m, "k", "up", "up", "up", "up") // past the top clamps
	if m.Cursor() != 0 {
		t.Fatalf("after moving up past top: %d", m.Cursor())
	}
	m = keys(t, m, "G")
	if m.SelectedID() != "r99" || !m.AtBottom() {
		t.Fatalf("G: %q", m.SelectedID())
	}
	if m.Offset() != 90 {
		t.Fatalf("G: offset %d, want 90 (last row at the bottom)", m.Offset())
	}
	m = keys(t, m, "j") // past the end clamps
	if m.SelectedID() != "r99" {
		t.Fatalf("j at bottom: %q", m.SelectedID())
	}
	m = keys(t, m, "g")
	if m.SelectedID() != "r0" || m.Offset() != 0 {
		t.Fatalf("g: %q offset %d", m.SelectedID(), m.Offset())
	}
	m = keys(t, m, "pgdown")
	if m.Cursor() != 10 || m.Offset() != 1 {
		t.Fatalf("pgdown: cursor %d offset %d", m.Cursor(), m.Offset())
	}
	m = keys(t, m, "pgdown", "pgup")
	if m.Cursor() != 10 {
		t.Fatalf("pgdown pgup: cursor %d", m.Cursor())
	}
	// The cursor row is always on screen.
	for _, k := range []string{"pgdown", "pgdown", "j", "pgup", "G", "k", "g"} {
		m = keys(t, m, k)
		if c, o := m.Cursor(), m.Offset(); c < o || c >= o+10 {
			t.Fatalf("after %s: cursor %d outside window at %d", k, c, o)
		}
	}
}

func TestNavigationEmptyTable(t *testing.T) {
	m := newTable(nil, 40, 5)
	m = keys(t, m, "j", "k", "G", "g", "pgdown", "space")
	if _, ok := m.Selected(); ok || m.SelectedID() != "" || len(m.Marked()) != 0 {
		t.Fatalf("empty table selected something")
	}
	checkFrame(t, m.View(), 40, 5)
	if !strings.Contains(m.View(), "no rows") {
		t.Fatalf("empty state missing:\n%s", m.View())
	}
}

func TestFilter(t *testing.T) {
	m := newTable(numbered(30), 60, 10)
	m.Select("r4") // ERROR
	m.SetFilter("error")
	if m.Filter() != "error" || m.VisibleLen() != 10 || m.Len() != 30 {
		t.Fatalf("filter error: visible %d of %d", m.VisibleLen(), m.Len())
	}
	if m.SelectedID() != "r4" {
		t.Fatalf("cursor left the still-visible row: %q", m.SelectedID())
	}
	for _, id := range visibleIDs(m) {
		r, _ := m.Row(id)
		if r.Cells[1].Text != "ERROR" {
			t.Fatalf("row %s does not match", id)
		}
	}
	// Narrowing must give the same result as filtering from scratch.
	m.SetFilter("error")
	m.SetFilter("r1") // r1, r10..r19 etc among ERROR rows (id or status contains r1)
	fresh := newTable(numbered(30), 60, 10)
	fresh.SetFilter("r1")
	if !slices.Equal(visibleIDs(m), visibleIDs(fresh)) {
		t.Fatalf("narrowed %v != fresh %v", visibleIDs(m), visibleIDs(fresh))
	}
	m.SetFilter("error")
	m.SetFilter("errorx")
	if m.VisibleLen() != 0 || !strings.Contains(m.View(), "no rows match") {
		t.Fatalf("want empty filtered view:\n%s", m.View())
	}
	m.SetFilter("")
	if m.VisibleLen() != 30 {
		t.Fatalf("cleared filter shows %d", m.VisibleLen())
	}
	// A match never spans two cells.
	m.SetFilter("r0running")
	if m.VisibleLen() != 0 {
		t.Fatalf("match spanning cells: %v", visibleIDs(m))
	}
}

func TestFilterMatchesShownText(t *testing.T) {
	m := newTable([]Row{row("a\x1b[2Jb", "RUNNING", "1"), row("plain", "RUNNING", "2")}, 60, 5)
	m.SetFilter(`\x1b[2j`)
	if got := visibleIDs(m); len(got) != 1 || got[0] != "a\x1b[2Jb" {
		t.Fatalf("filter on escaped text: %q", got)
	}
}

func TestFilterCursorGoesTopWhenRowHidden(t *testing.T) {
	m := newTable(numbered(30), 60, 10)
	m.Select("r3") // RUNNING
	m.SetFilter("ERROR")
	if m.Cursor() != 0 || m.SelectedID() != "r1" {
		t.Fatalf("cursor %d on %q", m.Cursor(), m.SelectedID())
	}
}

func TestSort(t *testing.T) {
	rows := []Row{
		row("a", "X", "10"), row("b", "X", "9"), row("c", "X", ""), row("d", "X", "100"),
		row("e", "X", "abc"), row("f", "X", "9"), row("g", "X", "-1.5"),
	}
	m := newTable(rows, 60, 10)
	m.Select("d")
	m.SortBy(2, false)
	// Numbers numerically, then text, empty last; equal keys keep input order.
	if got := visibleIDs(m); !slices.Equal(got, []string{"g", "b", "f", "a", "d", "e", "c"}) {
		t.Fatalf("asc: %v", got)
	}
	if m.SelectedID() != "d" {
		t.Fatalf("cursor moved off d: %q", m.SelectedID())
	}
	m.SortBy(2, true)
	if got := visibleIDs(m); !slices.Equal(got, []string{"e", "d", "a", "b", "f", "g", "c"}) {
		t.Fatalf("desc: %v", got)
	}
	if c, d := m.SortState(); c != 2 || !d {
		t.Fatalf("state %d %v", c, d)
	}
	if !strings.Contains(m.View(), "N↓") {
		t.Fatalf("header lacks sort marker:\n%s", m.View())
	}
	m.SortBy(-1, false)
	if got := visibleIDs(m); !slices.Equal(got, []string{"a", "b", "c", "d", "e", "f", "g"}) {
		t.Fatalf("unsorted: %v", got)
	}
	if !m.SortByKey("id", true) || visibleIDs(m)[0] != "g" {
		t.Fatalf("SortByKey id desc: %v", visibleIDs(m))
	}
	if m.SortByKey("nope", false) {
		t.Fatalf("SortByKey accepted an unknown key")
	}
}

func TestCycleAndReverseSort(t *testing.T) {
	m := newTable(numbered(5), 60, 10)
	for want := 0; want < 3; want++ {
		m.CycleSort()
		if c, d := m.SortState(); c != want || d {
			t.Fatalf("cycle %d: %d %v", want, c, d)
		}
	}
	m.CycleSort()
	if c, _ := m.SortState(); c != -1 {
		t.Fatalf("cycle wraps to unsorted, got %d", c)
	}
	m.ReverseSort()
	if c, d := m.SortState(); c != 0 || !d {
		t.Fatalf("reverse from unsorted: %d %v", c, d)
	}
	m.ReverseSort()
	if _, d := m.SortState(); d {
		t.Fatalf("reverse twice is ascending")
	}
}

func TestMarks(t *testing.T) {
	m := newTable(numbered(10), 60, 12)
	m = keys(t, m, "space", "j", "space", "space", "k", "k", "space")
	// space marks and moves down: mark r0 (→ r1); j → r2; mark r2 (→ r3);
	// mark r3 (→ r4); k k → r2; unmark r2 (→ r3).
	if got := m.Marked(); !slices.Equal(got, []string{"r0", "r3"}) {
		t.Fatalf("marked %v", got)
	}
	if !m.IsMarked("r3") || m.IsMarked("r2") {
		t.Fatalf("IsMarked wrong")
	}
	if !strings.Contains(m.View(), "*") {
		t.Fatalf("no mark marker drawn")
	}
	m.SetFilter("ERROR") // r1, r4, r7: hides r0 and r3
	if m.MarkedHidden() != 2 || len(m.Marked()) != 2 {
		t.Fatalf("hidden %d marked %v", m.MarkedHidden(), m.Marked())
	}
	m = keys(t, m, "space") // mark r1 (visible)
	if got := m.Marked(); !slices.Equal(got, []string{"r1", "r0", "r3"}) {
		t.Fatalf("visible first, then hidden: %v", got)
	}
	m.SetFilter("")
	m.SetRows(numbered(2)) // r3 is gone
	if got := m.Marked(); !slices.Equal(got, []string{"r0", "r1"}) {
		t.Fatalf("marks after reload: %v", got)
	}
	m.ClearMarks()
	if len(m.Marked()) != 0 {
		t.Fatalf("ClearMarks left %v", m.Marked())
	}
}

func TestSetRowsKeepsCursorOnID(t *testing.T) {
	m := newTable(numbered(50), 60, 10)
	m.Select("r20")
	rows := numbered(50)
	rows = append(rows[:5], rows[10:]...) // r5..r9 gone: r20 moves up
	m.SetRows(rows)
	if m.SelectedID() != "r20" || m.Cursor() != 15 {
		t.Fatalf("cursor on %q at %d", m.SelectedID(), m.Cursor())
	}
	// The selected row disappears: the cursor keeps its index.
	m.SetRows(append(rows[:15:15], rows[16:]...))
	if m.Cursor() != 15 || m.SelectedID() != "r21" {
		t.Fatalf("after removal cursor %d on %q", m.Cursor(), m.SelectedID())
	}
	// Duplicate IDs collapse to the last one.
	m.SetRows([]Row{row("x", "A", "1"), row("x", "B", "2")})
	if m.Len() != 1 {
		t.Fatalf("duplicates kept: %d", m.Len())
	}
	if r, _ := m.Row("x"); r.Cells[1].Text != "B" {
		t.Fatalf("duplicate kept the first: %v", r)
	}
}

func TestUpsertKeepsCursor(t *testing.T) {
	m := newTable(numbered(20), 60, 10)
	m.SortBy(2, false) // by N numerically: r0..r19
	m.Select("r10")
	m.Upsert(row("new", "RUNNING", "-5")) // sorts before the cursor
	if m.SelectedID() != "r10" || m.Cursor() != 11 {
		t.Fatalf("insert before: %q at %d", m.SelectedID(), m.Cursor())
	}
	m.Upsert(row("r3", "RUNNING", "1000")) // moves from before to after the cursor
	if m.SelectedID() != "r10" || m.Cursor() != 10 {
		t.Fatalf("move across: %q at %d", m.SelectedID(), m.Cursor())
	}
	if got := visibleIDs(m); got[len(got)-1] != "r3" {
		t.Fatalf("r3 not last: %v", got)
	}
	m.Upsert(row("r10", "ERROR", "10.5")) // the selected row changes
	if m.SelectedID() != "r10" {
		t.Fatalf("selected row update lost the cursor: %q", m.SelectedID())
	}
	if r, _ := m.Selected(); r.Cells[1].Text != "ERROR" {
		t.Fatalf("row not updated: %v", r)
	}
	m.SetFilter("RUNNING")
	m.Upsert(row("r0", "ERROR", "0")) // leaves the filter
	if slices.Contains(visibleIDs(m), "r0") {
		t.Fatalf("row that no longer matches is still visible")
	}
	m.Upsert(row("zz", "RUNNING", "7")) // new row matching the filter appears
	if !slices.Contains(visibleIDs(m), "zz") || m.Len() != 22 {
		t.Fatalf("new matching row missing: %v", visibleIDs(m))
	}
}

func TestRemove(t *testing.T) {
	m := newTable(numbered(5), 60, 10)
	m.Select("r2")
	m.ToggleMark()
	m.Remove("r2")
	if m.Len() != 4 || m.SelectedID() != "r3" || len(m.Marked()) != 0 {
		t.Fatalf("after removing selected: len %d sel %q marks %v", m.Len(), m.SelectedID(), m.Marked())
	}
	m.Remove("r0")
	if m.SelectedID() != "r3" {
		t.Fatalf("removing above moved the cursor off r3: %q", m.SelectedID())
	}
	m.Remove("nope")
	m.Bottom()
	m.Remove("r4")
	if m.SelectedID() != "r3" {
		t.Fatalf("removing the last selected row: %q", m.SelectedID())
	}
	// Re-adding a removed id works.
	m.Upsert(row("r2", "X", "2"))
	if m.Len() != 3 {
		t.Fatalf("len %d", m.Len())
	}
}

func TestFrameSizes(t *testing.T) {
	rows := numbered(40)
	rows[3].Cells[0].Text = "日本語のとても長いセッション識別子🎉🎉"
	rows[4].Tag = "!"
	rows[5].Dim = true
	th := themes.Dark()
	st := th.Status("RUNNING")
	rows[6].Cells[1].Style = &st
	for _, w := range []int{0, 1, 2, 3, 5, 8, 13, 20, 40, 79, 80, 120, 200} {
		for _, h := range []int{0, 1, 2, 3, 10, 24, 60} {
			m := newTable(rows, w, h)
			m.Select("r5")
			m.ToggleMark()
			m.Highlight("r6", []int{1}, time.Now().Add(time.Hour))
			m.Highlight("r7", nil, time.Now().Add(time.Hour))
			checkFrame(t, m.View(), w, h)
			m.SetFilter("nothing matches")
			checkFrame(t, m.View(), w, h)
		}
	}
}

func TestNarrowHidesLowPriorityColumns(t *testing.T) {
	cols := []Column{
		{Key: "id", Title: "ID", Width: 30, Priority: 1},
		{Key: "a", Title: "A", Width: 20, Priority: 9},
		{Key: "b", Title: "B", Width: 20, Priority: 2},
		{Key: "c", Title: "C", Width: 20, Priority: 2},
	}
	m := New(cols, themes.Dark())
	m.SetSize(120, 5)
	if got := m.VisibleColumns(); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("wide: %v", got)
	}
	m.SetSize(80, 5) // needs 2 + 31+21+21+21 = 96: drop the rightmost of the lowest priority
	if got := m.VisibleColumns(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("80: %v", got)
	}
	m.SetSize(60, 5)
	if got := m.VisibleColumns(); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("60: %v", got)
	}
	m.SetSize(20, 5) // the first column is never hidden, even with the lowest priority
	if got := m.VisibleColumns(); !slices.Equal(got, []int{0}) {
		t.Fatalf("20: %v", got)
	}
	m.SetRows([]Row{{ID: "x", Cells: []Cell{{Text: strings.Repeat("x", 50)}}}})
	checkFrame(t, m.View(), 20, 5)
}

// TestSpareWidthStaysBlank: columns are as wide as their values (at
// least their Width); what is left of a wide terminal stays blank at the
// right instead of spreading the columns away from each other.
func TestSpareWidthStaysBlank(t *testing.T) {
	cols := []Column{
		{Title: "A", Width: 10, Fit: true},
		{Title: "B", Width: 10, Fit: true},
		{Title: "C", Width: 5},
	}
	m := New(cols, themes.Dark())
	m.SetSize(2+11+11+6+40, 3) // 40 extra cells
	m.SetRows([]Row{{ID: "1", Cells: []Cell{{Text: "short"}, {Text: strings.Repeat("b", 14)}, {Text: "c"}}}})
	f := m.frameOf(m.clock())
	if !slices.Equal(f.widths, []int{10, 14, 5}) {
		t.Fatalf("widths %v, want [10 14 5]", f.widths)
	}
}

func TestHostileCellsStayInert(t *testing.T) {
	hostile := []string{
		"\x1b[2J\x1b[H", "\x1b]52;c;aGk=\x07", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
		"\x9b31m", "\u009b31m", "abc\u202edef", "\xff\xfe", "nul\x00", "a\nb\r\nc", "zw\u200djoin",
	}
	var rows []Row
	for i, s := range hostile {
		rows = append(rows, Row{ID: s, Tag: s, Cells: []Cell{{Text: s}, {Text: s}, {Text: strings.Repeat(s, i+1)}}})
	}
	cols := []Column{{Title: "\x1b[31mID", Width: 10, Fit: true}, {Title: "S", Width: 12}, {Title: "N", Width: 12}}
	for _, th := range []themes.Theme{themes.Dark(), themes.Plain()} {
		m := New(cols, th)
		m.SetSize(100, 15)
		m.SetRows(rows)
		m.ToggleMark()
		m.SetFilter("\x1b") // the raw ESC never matches shown text…
		checkFrame(t, m.View(), 100, 15)
		m.SetFilter("")
		v := m.View()
		checkFrame(t, v, 100, 15)
		if !strings.Contains(v, `\x1b[2J`) || !strings.Contains(v, `\u202e`) || !strings.Contains(v, `\xff\xfe`) {
			t.Fatalf("escapes not visible:\n%s", v)
		}
	}
}

func TestHighlight(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	th := themes.Dark()
	m := New(cols3(), th)
	m.SetSize(60, 5)
	m.SetNow(func() time.Time { return now })
	m.SetRows(numbered(3))
	plain := m.View()
	m.Highlight("r1", nil, now.Add(2*time.Second))
	m.Highlight("r2", []int{1}, now.Add(5*time.Second))
	lit := m.View()
	if lit == plain {
		t.Fatalf("highlight did not change the frame")
	}
	hl := paintOf(th.Highlight.Inherit(th.Row))
	line := strings.Split(lit, "\n")[2] // header, r0 (selected), r1
	if !strings.HasPrefix(line, hl.Pre) {
		t.Fatalf("r1 not drawn highlighted: %q", line)
	}
	if end, ok := m.NextHighlightEnd(); !ok || !end.Equal(now.Add(2*time.Second)) {
		t.Fatalf("next end %v %v", end, ok)
	}
	now = now.Add(10 * time.Second)
	if m.View() != plain {
		t.Fatalf("highlight outlived its deadline")
	}
	if _, ok := m.NextHighlightEnd(); ok {
		t.Fatalf("expired highlights still pending")
	}
	checkFrame(t, lit, 60, 5)
}

func TestSelectedRowUsesSelectedStyleNoColor(t *testing.T) {
	m := New(cols3(), themes.Plain())
	m.SetSize(40, 4)
	m.SetRows(numbered(3))
	lines := strings.Split(m.View(), "\n")
	if !strings.Contains(lines[1], "\x1b[7m") {
		t.Fatalf("NO_COLOR cursor row is not reversed: %q", lines[1])
	}
	if strings.Contains(lines[2], "\x1b[7m") {
		t.Fatalf("unselected row reversed: %q", lines[2])
	}
	if strings.Contains(m.View(), "38;") || strings.Contains(m.View(), "48;") {
		t.Fatalf("NO_COLOR frame has colours: %q", m.View())
	}
}

func TestCellStyleWithLayoutPropertiesKeepsWidth(t *testing.T) {
	st := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Padding(0, 3).Width(30)
	rows := []Row{row("a", "RUNNING", "1"), row("b", "RUNNING", "2")}
	rows[1].Cells[1].Style = &st
	m := newTable(rows, 50, 4)
	checkFrame(t, m.View(), 50, 4)
	if !strings.Contains(ansi.Strip(m.View()), "RUNNING") {
		t.Fatalf("styled cell lost its text")
	}
}

func TestZeroValueModelDoesNotPanic(t *testing.T) {
	var m Model
	m.SetSize(30, 4)
	_ = m.View()
	m.Upsert(row("a", "b", "c"))
	m.ToggleMark()
	m.SetFilter("a")
	m.SortBy(0, true)
	m.Highlight("a", nil, time.Now().Add(time.Second))
	m, _ = m.Update(press("j"), keymap.Default())
	_ = m.View()
}

func TestSortArrowSurvivesNarrowColumn(t *testing.T) {
	cols := []Column{{Title: "IDENTIFIER", Width: 4}, {Title: "X", Width: 3}}
	m := New(cols, themes.Dark())
	m.SetSize(20, 3)
	m.SortBy(0, true)
	header := strings.Split(ansi.Strip(m.View()), "\n")[0]
	if !strings.Contains(header, "ID…↓") {
		t.Fatalf("header %q", header)
	}
}

func TestMarkMovesDown(t *testing.T) {
	m := newTable(numbered(3), 60, 12)
	m = keys(t, m, "space")
	if m.SelectedID() != "r1" || !m.IsMarked("r0") {
		t.Fatalf("after space: cursor on %s, r0 marked %v; want r1 and true", m.SelectedID(), m.IsMarked("r0"))
	}
	m = keys(t, m, "space", "space")
	if m.SelectedID() != "r2" || !slices.Equal(m.Marked(), []string{"r0", "r1", "r2"}) {
		t.Fatalf("on the last row: cursor %s marked %v; want r2 and all three", m.SelectedID(), m.Marked())
	}
	m = keys(t, m, "space") // the last row: unmarks, the cursor stays
	if m.SelectedID() != "r2" || m.IsMarked("r2") {
		t.Fatalf("space on the last row again: cursor %s, r2 marked %v", m.SelectedID(), m.IsMarked("r2"))
	}
}
