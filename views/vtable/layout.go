package vtable

// gutterWidth is the mark cell plus the tag cell at the left of every row.
const gutterWidth = 2

// layout is which columns are shown and their least widths, for the
// current width. It is recomputed on SetSize/SetColumns only.
type layout struct {
	vis    []int // indices into cols, left to right
	widths []int // parallel to vis: the floors frameOf widens from
}

func minWidth(c Column) int { return max(c.Width, 1) }

// relayout picks the columns shown at this width: Hidden columns never;
// of the others, the least important (lowest Priority, rightmost among
// equals; never the first shown) are hidden until the minimum widths fit.
// How wide each shown column is drawn follows the rows on screen (fit.go);
// widths here are the floors, squeezed only when the first column alone
// does not fit.
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
			n += 1 + minWidth(m.cols[i]) // separator + cell
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
	for k, i := range vis {
		widths[k] = minWidth(m.cols[i])
	}
	if extra := avail - need(); extra < 0 && len(vis) > 0 {
		// Only the first column is left and even it does not fit: squeeze.
		widths[0] = max(widths[0]+extra, 0)
	}
	m.layout = layout{vis: vis, widths: widths}
}

// VisibleColumns returns the indices of the columns shown at the current
// width (narrow terminals hide low-priority ones).
func (m Model) VisibleColumns() []int { return append([]int(nil), m.layout.vis...) }
