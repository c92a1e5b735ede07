package vtable

import (
	"slices"
	"time"

	"opsdeck/views/inert"
)

// Column widths follow the rows on screen. Which columns are shown is
// decided by their minimum widths at SetSize (layout.go); how wide each
// shown column is, is decided per frame from the cells in the window:
//
//   - a Fit column is as wide as its widest cell on screen, unless that
//     cell is an outlier: more than half again as wide as three in four of
//     the column's cells on screen (and as its Width). Outliers are cut with "…" (the detail
//     view shows them whole), so one hostile 90-character id does not
//     widen the column of nineteen-character ones;
//   - a Whole column (numbers) is as wide as its widest number on screen
//     of at most numberMax cells; a wider number shows as ### (whole.go)
//     and widens nothing;
//   - any other column is fixed at its Width.
//
// Width is a floor, never crossed unless the terminal is too narrow for
// the first column alone. When the widths asked for do not fit, the widest
// columns give back first. Width left over stays blank at the right (a
// column wider than its values only pushes the next one away from them),
// except that the last column's outliers may use it: they push nothing.
//
// The cost is the window's cells, measured once per frame and drawn from
// the same texts: it does not grow with the rows held.

// numberMax is the widest a Whole column grows: every count and size the
// tables hold fits, a 20-digit "99999999999999999999" does not.
const numberMax = 12

// frame is one frame's layout: the width of each shown column and the
// text of each cell in the window.
type frame struct {
	widths []int    // parallel to layout.vis
	texts  []string // window rows × shown columns, row-major
	cols   int      // len(layout.vis)
}

// text is what the cell of window row r, shown column k, says.
func (f *frame) text(r, k int) string { return f.texts[r*f.cols+k] }

// lineWidth is the width of gutter plus columns, before right padding.
func (f *frame) lineWidth() int {
	w := gutterWidth
	for _, cw := range f.widths {
		w += 1 + cw
	}
	return w
}

// frameOf lays out the rows in the window for drawing at now.
func (m Model) frameOf(now time.Time) frame {
	vis := m.layout.vis
	end := min(m.offset+m.bodyHeight(), len(m.view))
	rows := m.view[min(m.offset, end):end]
	f := frame{
		widths: make([]int, len(vis)),
		texts:  make([]string, len(rows)*len(vis)),
		cols:   len(vis),
	}
	avail := m.width - gutterWidth - len(vis)
	scratch := make([]int, 0, len(rows))
	lastWidest := 0 // the widest cell of the last shown column, when Fit
	for k, i := range vis {
		c := m.cols[i]
		floor := m.layout.widths[k]
		measured := c.Fit || c.Whole
		scratch = scratch[:0]
		for r, e := range rows {
			t := m.cellText(e, i, now)
			f.texts[r*f.cols+k] = t
			if measured {
				scratch = append(scratch, textWidth(t, avail))
			}
		}
		switch {
		case c.Whole:
			f.widths[k] = max(floor, m.titleWidth(i), widestUpTo(scratch, max(c.Width, numberMax)))
		case c.Fit:
			if k == len(vis)-1 {
				lastWidest = widestUpTo(scratch, avail)
			}
			f.widths[k] = max(floor, m.titleWidth(i), withoutOutliers(scratch, floor))
		default:
			f.widths[k] = floor
		}
	}
	squeeze(f.widths, m.layout.widths, avail)
	if last := len(f.widths) - 1; last >= 0 && lastWidest > f.widths[last] {
		// The last column pushes nothing to its right: room left on the
		// line goes to its outliers.
		used := 0
		for _, w := range f.widths {
			used += w
		}
		f.widths[last] += max(min(avail-used, lastWidest-f.widths[last]), 0)
	}
	return f
}

// titleWidth is what column i's heading takes: its title, and the sort
// arrow when the rows are sorted by it.
func (m Model) titleWidth(i int) int {
	w := inert.Width(inert.String(m.cols[i].Title))
	if i == m.sortCol {
		w++
	}
	return w
}

// textWidth is the width s takes once made inert, counted up to past
// limit (a 390 KB value is not measured to its end: it cannot fit).
func textWidth(s string, limit int) int {
	if printable(s) {
		return len(s)
	}
	if len(s) > 8*max(limit, 0)+8 {
		return limit + 1
	}
	return inert.Width(inert.String(s))
}

// printable reports printable ASCII, where a byte is a cell.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// widestUpTo is the widest of ws no wider than limit: a number past the
// limit shows as ### and widens nothing.
func widestUpTo(ws []int, limit int) int {
	w := 0
	for _, x := range ws {
		if x <= limit {
			w = max(w, x)
		}
	}
	return w
}

// withoutOutliers is the width of the widest cell that is not an outlier:
// no wider than half again the upper quartile of the non-empty cells, or
// of floor when that is wider (a 13-character name under a 10-cell
// floor is no outlier). ws is reordered.
func withoutOutliers(ws []int, floor int) int {
	ne := ws[:0]
	for _, w := range ws {
		if w > 0 {
			ne = append(ne, w)
		}
	}
	if len(ne) == 0 {
		return 0
	}
	slices.Sort(ne)
	q := max(ne[3*(len(ne)-1)/4], floor)
	limit := q + q/2
	best := 0
	for _, w := range ne {
		if w <= limit {
			best = w
		}
	}
	return best
}

// squeeze narrows the widest columns first until the line fits avail
// cells of columns, never below floors.
func squeeze(widths, floors []int, avail int) {
	over := -avail
	for _, w := range widths {
		over += w
	}
	for over > 0 {
		// The widest column that can give, and the next width below it.
		top, next := -1, 0
		for k, w := range widths {
			if w <= floors[k] {
				continue
			}
			if top < 0 || w > widths[top] {
				if top >= 0 {
					next = max(next, widths[top])
				}
				top = k
			} else {
				next = max(next, w)
			}
		}
		if top < 0 {
			return // every column at its floor: relayout made that fit
		}
		give := min(over, widths[top]-max(next, floors[top]))
		give = max(give, 1)
		widths[top] -= give
		over -= give
	}
}
