package vtable

import (
	"strings"

	"opsdeck/views/inert"
)

// Whole columns. A number cut to fit — "92233720…" for 9223372036854775808
// — reads as another number, so a column marked Whole is never cut: it
// widens to its widest cell (up to wholeMax cells, which holds any number
// DynamoDB stores: 38 digits, a sign and a point). A cell wider than the
// column can be made (past wholeMax, or on a terminal too narrow for the
// column) is drawn as a run of '#', as spreadsheets do: unmistakably not a
// value; the detail view shows it whole.

// wholeMax is the widest a Whole column grows.
const wholeMax = 40

// overflowMark is what a Whole cell too wide for its column shows.
const overflowMark = '#'

// measure notes the width of the Whole cells of rows; when a column's
// widest cell grew past what the layout gives it, the layout is redone.
// Widths only grow until SetRows (a fresh load) starts again.
func (m *Model) measure(rows ...*entry) {
	if !m.hasWhole {
		return
	}
	grew := false
	for _, e := range rows {
		for i := range m.cols {
			if !m.cols[i].Whole || i >= len(e.Cells) {
				continue
			}
			if w := cellWidth(e.Cells[i].Text); w > m.wide[i] {
				m.wide[i] = w
				grew = grew || (w > m.cols[i].Width && m.cols[i].Width < wholeMax)
			}
		}
	}
	if grew {
		m.relayout()
	}
}

// resetWide forgets the measured widths (new columns, or every row
// replaced).
func (m *Model) resetWide() {
	m.hasWhole = false
	m.wide = make([]int, len(m.cols))
	for _, c := range m.cols {
		m.hasWhole = m.hasWhole || c.Whole
	}
}

// cellWidth is the width a cell's text takes once made inert.
func cellWidth(s string) int {
	if len(s) > 4*wholeMax {
		return wholeMax + 1 // wider than any column gets: no need to measure it
	}
	return inert.Width(inert.String(s))
}

// colMin is the width a column needs: its Width, or for a Whole column
// its widest cell, up to wholeMax.
func (m *Model) colMin(i int) int {
	w := minWidth(m.cols[i])
	if m.cols[i].Whole && i < len(m.wide) {
		w = max(w, min(m.wide[i], wholeMax))
	}
	return w
}

// fitCell is align for one cell of column i: a Whole cell that does not
// fit shows as overflow marks instead of being cut.
func (m *Model) fitCell(text string, i, w int) string {
	if m.cols[i].Whole && w > 0 && cellWidth(text) > w {
		return strings.Repeat(string(overflowMark), w)
	}
	return align(text, w, m.cols[i].Align)
}
