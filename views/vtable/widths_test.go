package vtable

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"opsdeck/internal/termcells"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// The widths tests read the screen a terminal emulator shows, column by
// column, at the spans the frame's layout gives.

func hostileCols() []Column {
	return []Column{
		{Key: "session", Title: "SESSION", Width: 19, Fit: true, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 9, Priority: 8},
		{Key: "hours", Title: "LAB H", Width: 5, Align: Right, Priority: 3, Whole: true},
		{Key: "note", Title: "NOTE", Width: 6, Fit: true, Priority: 2},
	}
}

// span is where shown column k is drawn, in cells.
type span struct{ x0, x1 int }

func spans(m Model) []span {
	f := m.frameOf(m.clock())
	out := make([]span, len(f.widths))
	x := gutterWidth
	for k, w := range f.widths {
		x++ // separator
		out[k] = span{x, x + w}
		x += w
	}
	return out
}

// cellAt is the text shown in screen row y, column k, padding removed.
func cellAt(s *termcells.Screen, sp []span, y, k int) string {
	return strings.TrimSpace(s.Span(y, sp[k].x0, sp[k].x1))
}

// term is the emulator the tests of this package draw into, one at a
// time (making one costs more than a frame).
var term = termcells.New(80, 24)

func draw(m Model) *termcells.Screen {
	w, h := m.Size()
	return term.Draw(m.View(), w, h)
}

// TestOneOutlierDoesNotWidenAColumn: nineteen-character ids keep a
// nineteen-cell SESSION column at 160 columns when one hostile 90-character
// id is on screen (it is cut with …), and one 20-digit number does not
// widen LAB H: it shows as #####, the others stay under their heading.
func TestOneOutlierDoesNotWidenAColumn(t *testing.T) {
	var rows []Row
	for i := 0; i < 12; i++ {
		id := "sess_" + strings.Repeat(string(rune('a'+i)), 14)
		rows = append(rows, Row{ID: id, Cells: []Cell{{Text: id}, {Text: "RUNNING"}, {Text: strconv.Itoa(i % 9)}, {Text: "ok"}}})
	}
	outlier := "sess_" + strings.Repeat("x", 85)
	rows = append(rows[:5], append([]Row{{ID: outlier, Cells: []Cell{{Text: outlier}, {Text: "RUNNING"}, {Text: "99999999999999999999"}, {Text: "ok"}}}}, rows[5:]...)...)
	m := New(hostileCols(), themes.Dark())
	m.SetSize(160, 20)
	m.SetRows(rows)
	sp := spans(m)
	s := draw(m)

	if w := sp[0].x1 - sp[0].x0; w != 19 {
		t.Fatalf("SESSION is %d cells wide, want 19 (the ids'):\n%s", w, s)
	}
	if w := sp[2].x1 - sp[2].x0; w != 5 {
		t.Fatalf("LAB H is %d cells wide, want 5:\n%s", w, s)
	}
	if got := s.Span(0, sp[0].x0, sp[0].x1); !strings.HasPrefix(got, "SESSION") {
		t.Fatalf("SESSION heading at %v reads %q", sp[0], got)
	}
	if got := s.Span(0, sp[2].x0, sp[2].x1); got != "LAB H" {
		t.Fatalf("LAB H heading at %v reads %q", sp[2], got)
	}
	for y := 1; y <= len(rows); y++ {
		r := rows[y-1]
		id, hours := cellAt(s, sp, y, 0), cellAt(s, sp, y, 2)
		if r.ID == outlier {
			if id != outlier[:18]+inert.Ellipsis {
				t.Errorf("outlier id reads %q, want its first 18 cells and …", id)
			}
			if hours != "#####" {
				t.Errorf("outlier number reads %q, want #####", hours)
			}
			continue
		}
		if id != r.ID {
			t.Errorf("row %d: id %q, want %q whole", y, id, r.ID)
		}
		// Right-aligned under its heading: the digit in the heading's last cell.
		if got := s.Span(y, sp[2].x1-1, sp[2].x1); got != r.Cells[2].Text {
			t.Errorf("row %d: LAB H's last cell %q, want %q", y, got, r.Cells[2].Text)
		}
	}

	// Ids that are all long are no outliers: the column widens to them.
	long := make([]Row, 4)
	for i := range long {
		id := "arn:aws:ecs:us-east-1:418295036614:task/wallcrawler/" + strconv.Itoa(1000+i)
		long[i] = Row{ID: id, Cells: []Cell{{Text: id}, {Text: "RUNNING"}, {Text: "1234567"}}}
	}
	m.SetRows(long)
	sp, s = spans(m), draw(m)
	for y := 1; y <= len(long); y++ {
		if got := cellAt(s, sp, y, 0); got != long[y-1].ID {
			t.Errorf("long id %d reads %q, want it whole", y, got)
		}
		if got := cellAt(s, sp, y, 2); got != "1234567" {
			t.Errorf("7-digit number reads %q, want it whole", got)
		}
	}
	if got := s.Span(0, sp[2].x0, sp[2].x1); !strings.HasSuffix(got, "LAB H") {
		t.Errorf("LAB H heading not over its numbers: %q", got)
	}
}

// TestWidthsFollowTheWindow: the outlier widens nothing once scrolled off,
// and the widths come back when it returns, cut again; the last column's
// outliers take the room left on the line, and only that.
func TestWidthsFollowTheWindow(t *testing.T) {
	rows := make([]Row, 30)
	for i := range rows {
		id := "id-" + strconv.Itoa(100+i)
		rows[i] = Row{ID: id, Cells: []Cell{{Text: id}, {Text: "ok"}, {Text: "1"}, {Text: strings.Repeat("n", 6)}}}
	}
	rows[0].Cells[3].Text = strings.Repeat("long note ", 6)
	rows[1].Cells[3].Text = strings.Repeat("long note ", 6)
	rows[29].Cells[0].Text = strings.Repeat("z", 60)
	m := New(hostileCols(), themes.Dark())
	m.SetSize(120, 11) // 10 rows on screen
	m.SetRows(rows)
	if sp := spans(m); sp[0].x1-sp[0].x0 != 19 {
		t.Fatalf("top: SESSION %d wide, want its floor 19", sp[0].x1-sp[0].x0)
	}
	m.MoveDown(29)
	sp, s := spans(m), draw(m)
	if sp[0].x1-sp[0].x0 != 19 || sp[3].x1-sp[3].x0 != 6 {
		t.Fatalf("bottom: widths %v", sp)
	}
	if got := cellAt(s, sp, 10, 0); got != strings.Repeat("z", 18)+inert.Ellipsis {
		t.Fatalf("outlier at the bottom reads %q", got)
	}

	// The last column's outlier pushes nothing: it takes the room left on
	// the line, and only that.
	m.MoveUp(29)
	m.SetSize(140, 11)
	sp, s = spans(m), draw(m)
	if got := cellAt(s, sp, 1, 3); got != strings.TrimSpace(strings.Repeat("long note ", 6)) {
		t.Fatalf("last column's outlier with room to spare reads %q", got)
	}
	m.SetSize(60, 11)
	sp, s = spans(m), draw(m)
	if got := cellAt(s, sp, 1, 3); !strings.HasSuffix(got, inert.Ellipsis) || sp[3].x1 > 60 {
		t.Fatalf("last column without room: %q at %v", got, sp[3])
	}
}

// TestCellsAreWholeOrMarked draws random tables, hostile and wide values
// among them, at random sizes, and reads every cell back from the
// emulator: a value is shown whole or cut with …, a number whole or as
// ###, every heading over its own column, and no Fit column wider than the
// outlier rule allows.
func TestCellsAreWholeOrMarked(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2026))
	texts := []string{
		"sess_abc", "sess_0123456789abcdef", "日本語のセッション", "a\x1b[2Jb", "\u202eevil", "x\x00y",
		"wss://203.0.113.66:9223/cdp?token=abc", strings.Repeat("w", 95), "", "-", "ok", "COMPLETED",
	}
	numbers := []string{"0", "7", "42", "1234", "99999", "1234567", "99999999999999999999", "-3.5", "?", ""}
	for round := 0; round < 150; round++ {
		w, h := 20+rng.IntN(180), 3+rng.IntN(20)
		m := New(hostileCols(), themes.Dark())
		m.SetSize(w, h)
		n := 1 + rng.IntN(40)
		rows := make([]Row, n)
		for i := range rows {
			rows[i] = Row{ID: strconv.Itoa(i), Cells: []Cell{
				{Text: texts[rng.IntN(len(texts))]}, {Text: texts[rng.IntN(len(texts))]},
				{Text: numbers[rng.IntN(len(numbers))]}, {Text: texts[rng.IntN(len(texts))]},
			}}
		}
		m.SetRows(rows)
		m.MoveDown(rng.IntN(n))
		if rng.IntN(3) == 0 {
			m.SortBy(rng.IntN(4), rng.IntN(2) == 0)
		}
		checkCells(t, m, round)
	}
}

func checkCells(t *testing.T, m Model, round int) {
	t.Helper()
	w, _ := m.Size()
	sp := spans(m)
	f := m.frameOf(m.clock())
	s := draw(m)
	if f.lineWidth() > w {
		return // narrower than the first column: cut, checked by TestFrameSizes
	}
	vis := m.layout.vis
	for k, i := range vis {
		c := m.cols[i]
		head := s.Span(0, sp[k].x0, sp[k].x1)
		title := strings.TrimSpace(head)
		title = strings.TrimSuffix(strings.TrimSuffix(title, "↑"), "↓")
		if !strings.HasPrefix(c.Title, strings.TrimSuffix(title, inert.Ellipsis)) || title == "" && sp[k].x1 > sp[k].x0 {
			t.Fatalf("round %d: column %s heading reads %q at %v\n%s", round, c.Title, head, sp[k], s)
		}
		var widths []int
		for r, e := range m.view[m.offset:min(m.offset+m.bodyHeight(), len(m.view))] {
			y := r + 1
			raw := ""
			if i < len(e.Cells) {
				raw = e.Cells[i].Text
			}
			shown := inert.String(raw)
			got := s.Span(y, sp[k].x0, sp[k].x1)
			cell := strings.TrimRight(got, " ")
			if c.Align == Right {
				cell = strings.TrimLeft(got, " ")
			}
			widths = append(widths, inert.Width(shown))
			switch {
			case cell == shown:
			case c.Whole && cell == strings.Repeat("#", sp[k].x1-sp[k].x0) && inert.Width(shown) > sp[k].x1-sp[k].x0:
			case !c.Whole && strings.HasSuffix(cell, inert.Ellipsis) && strings.HasPrefix(shown, strings.TrimSuffix(cell, inert.Ellipsis)) && inert.Width(shown) > sp[k].x1-sp[k].x0:
			default:
				t.Fatalf("round %d: row %d column %s reads %q for %q (span %v)\n%s", round, y, c.Title, got, raw, sp[k], s)
			}
		}
		if c.Fit && k < len(vis)-1 && f.widths[k] > max(m.layout.widths[k], m.titleWidth(i)) {
			if lim := outlierLimit(widths, m.layout.widths[k]); f.widths[k] > lim {
				t.Fatalf("round %d: %s is %d wide, beyond the outlier limit %d of %v", round, c.Title, f.widths[k], lim, widths)
			}
		}
	}
}

// outlierLimit restates the rule: half again the upper quartile of the
// non-empty widths, or of the floor.
func outlierLimit(ws []int, floor int) int {
	var ne []int
	for _, w := range ws {
		if w > 0 {
			ne = append(ne, w)
		}
	}
	if len(ne) == 0 {
		return 0
	}
	for i := range ne { // insertion sort: a few dozen values
		for j := i; j > 0 && ne[j] < ne[j-1]; j-- {
			ne[j], ne[j-1] = ne[j-1], ne[j]
		}
	}
	q := max(ne[3*(len(ne)-1)/4], floor)
	return q + q/2
}
