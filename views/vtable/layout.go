package vtable

// gutterWidth is the mark cell plus the tag cell at the left of every row.
const gutterWidth = 2

// layout is which columns are shown and how wide, for the current width.
// It is recomputed on SetSize/SetColumns only.
type layout struct {
	vis    []int // indices into cols, left to right
	widths []int // parallel to vis
}

func minWidth(c Column) int { return max(c.Width, 1) }

// relayout fits the columns to the width: Hidden columns are never shown;
// of the others, hide the least important
// (lowest Priority, rightmost among equals; never the first shown) until the
// minimum widths fit, then share the remaining space among Flex columns.
func (m *Model) relayout() {
	avail := m.width - gutterWidth
	vis := make([]int, 0, len(m.cols))
	for i, c := range m.cols {
		if !c.Hidden {
			vis = append(vis, i)
		}
	}
	need := func() int {
		n := 0
		for _, i := range vis {
			n += 1 + m.colMin(i) // separator + cell
		}
		return n
	}
	for len(vis) > 1 && need() > avail {
		drop := -1
		for k := len(vis) - 1; k >= 1; k-- {
			if drop < 0 || m.cols[vis[k]].Priority < m.cols[vis[drop]].Priority {
				drop = k
			}
		}
		vis = append(vis[:drop], vis[drop+1:]...)
	}
	widths := make([]int, len(vis))
	totalFlex := 0
	for k, i := range vis {
		widths[k] = m.colMin(i)
		totalFlex += max(m.cols[i].Flex, 0)
	}
	extra := avail - need()
	switch {
	case extra < 0 && len(vis) > 0:
		// Only the first column is left and even it does not fit: squeeze.
		widths[0] = max(widths[0]+extra, 0)
	case extra > 0 && totalFlex > 0:
		given, last := 0, -1
		for k, i := range vis {
			if f := m.cols[i].Flex; f > 0 {
				add := extra * f / totalFlex
				widths[k] += add
				given += add
				last = k
			}
		}
		widths[last] += extra - given
	}
	m.layout = layout{vis: vis, widths: widths}
}

// VisibleColumns returns the indices of the columns shown at the current
// width (narrow terminals hide low-priority ones).
func (m Model) VisibleColumns() []int { return append([]int(nil), m.layout.vis...) }
