package vtable

import "strings"

// Whole columns. A number cut to fit — "92233720…" for 9223372036854775808
// — reads as another number, so a column marked Whole is never cut: it
// widens to its widest cell on screen (up to numberMax cells, fit.go). A
// cell wider than the column can be made (past numberMax, or on a terminal
// too narrow for the column) is drawn as a run of '#', as spreadsheets do:
// unmistakably not a value; the detail view shows it whole.

// overflowMark is what a Whole cell too wide for its column shows.
const overflowMark = '#'

// fitCell is align for one cell of column i: a Whole cell that does not
// fit shows as overflow marks instead of being cut.
func (m *Model) fitCell(text string, i, w int) string {
	if m.cols[i].Whole && w > 0 && textWidth(text, w) > w {
		return strings.Repeat(string(overflowMark), w)
	}
	return align(text, w, m.cols[i].Align)
}
