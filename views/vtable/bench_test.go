package vtable

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"charm.land/lipgloss/v2"

	"opsdeck/themes"
)

func benchColumns() []Column {
	return []Column{
		{Key: "id", Title: "SESSION", Width: 20, Fit: true, Priority: 9},
		{Key: "status", Title: "STATUS", Width: 10, Priority: 8},
		{Key: "project", Title: "PROJECT", Width: 12, Fit: true, Priority: 5},
		{Key: "region", Title: "REGION", Width: 10, Priority: 1},
		{Key: "age", Title: "AGE", Width: 6, Align: Right, Priority: 7},
		{Key: "count", Title: "PAGES", Width: 6, Align: Right, Priority: 2},
	}
}

func benchRows(n int, th themes.Theme) []Row {
	statuses := []string{"RUNNING", "COMPLETED", "ERROR", "PENDING"}
	styles := make([]lipgloss.Style, len(statuses))
	for i, s := range statuses {
		styles[i] = th.Status(s)
	}
	rows := make([]Row, n)
	for i := range rows {
		st := &styles[i%len(statuses)]
		rows[i] = Row{
			ID: "sess-" + strconv.Itoa(i),
			Cells: []Cell{
				{Text: fmt.Sprintf("sess-%08d-%x", i, i*7919)},
				{Text: statuses[i%len(statuses)], Style: st},
				{Text: "proj-" + strconv.Itoa(i%97)},
				{Text: "us-east-1"},
				{Text: strconv.Itoa(i%3600) + "s"},
				{Text: strconv.Itoa(i % 1000)},
			},
			Dim: i%11 == 0,
		}
	}
	return rows
}

func benchTable(n int) Model {
	th := themes.Dark()
	m := New(benchColumns(), th)
	m.SetSize(120, 40)
	m.SetRows(benchRows(n, th))
	// Put the window in the middle so rendering is not a best case.
	m.MoveDown(n / 2)
	m.ToggleMark()
	return m
}

var sink string

func BenchmarkRender(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		m := benchTable(n)
		b.Run(label(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = m.View()
			}
		})
	}
}

// BenchmarkCursorMove moves the cursor one row and renders the frame, which
// is what a keypress costs.
func BenchmarkCursorMove(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		m := benchTable(n)
		b.Run(label(n), func(b *testing.B) {
			b.ReportAllocs()
			down := true
			for b.Loop() {
				if down {
					m.MoveDown(1)
				} else {
					m.MoveUp(1)
				}
				down = !down
				sink = m.View()
			}
		})
	}
}

// BenchmarkUpsert is one stream record changing a row of a sorted table.
func BenchmarkUpsert(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		th := themes.Dark()
		m := benchTable(n)
		m.SortBy(2, false)
		rows := benchRows(n, th)
		b.Run(label(n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r := rows[(i*7919)%n]
				r.Cells = append([]Cell(nil), r.Cells...)
				r.Cells[2].Text = "proj-" + strconv.Itoa(i%50)
				m.Upsert(r)
				i++
			}
		})
	}
}

func label(n int) string {
	if n >= 1000 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// BenchmarkFilter is typing one more filter character over 100k rows (the
// haystacks are built on the first filter, outside the loop).
func BenchmarkFilter100k(b *testing.B) {
	m := benchTable(100_000)
	m.SetFilter("x")
	m.SetFilter("")
	qs := []string{"proj-4", "proj-42"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			m.SetFilter("")
		}
		m.SetFilter(qs[i%2])
		i++
	}
}

// BenchmarkSort100k is choosing a sort column over 100k rows.
func BenchmarkSort100k(b *testing.B) {
	m := benchTable(100_000)
	b.ReportAllocs()
	col := 0
	for b.Loop() {
		m.SortBy(col%6, col%2 == 1)
		col++
	}
}

// BenchmarkSetRows100k is replacing all rows (a reload) with 100k rows.
func BenchmarkSetRows100k(b *testing.B) {
	th := themes.Dark()
	m := benchTable(100_000)
	rows := benchRows(100_000, th)
	b.ReportAllocs()
	for b.Loop() {
		m.SetRows(rows)
	}
}

// BenchmarkAppendPage is adding one 1000-row page to a sorted 100k table.
// Between iterations the page is taken out again (untimed, white-box), so
// every iteration sees the same 100k rows without rebuilding them.
func BenchmarkAppendPage100k(b *testing.B) {
	const base = 100_000
	th := themes.Dark()
	rows := benchRows(base+1000, th)
	m := New(benchColumns(), th)
	m.SetSize(120, 40)
	m.SetRows(rows[:base])
	m.SortBy(2, false)
	page := rows[base:]
	b.ReportAllocs()
	for b.Loop() {
		m.Append(page)
		b.StopTimer()
		for _, r := range page {
			delete(m.byID, r.ID)
		}
		m.all, m.seq = m.all[:base], base
		m.view = slices.DeleteFunc(m.view, func(e *entry) bool { return e.seq >= base })
		b.StartTimer()
	}
}
