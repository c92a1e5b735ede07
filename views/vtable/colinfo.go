package vtable

import (
	"slices"
	"strings"
)

// ShownColumns returns the indexes of the columns on screen, left to right:
// the operator numbers them 1.. in that order (the sort-by-column keys).
func (m Model) ShownColumns() []int { return slices.Clone(m.layout.vis) }

// FindColumn returns the index of the column whose Key or Title is name
// (case-insensitive), or -1.
func (m Model) FindColumn(name string) int {
	for i, c := range m.cols {
		if strings.EqualFold(c.Key, name) || strings.EqualFold(c.Title, name) {
			return i
		}
	}
	return -1
}

// SortLabel says the explicit sort in force, "EXPIRES ↓", or "" when the
// rows are in their natural order.
func (m Model) SortLabel() string {
	if m.sortCol < 0 || m.sortCol >= len(m.cols) {
		return ""
	}
	arrow := "↑"
	if m.sortDesc {
		arrow = "↓"
	}
	return m.cols[m.sortCol].Title + " " + arrow
}

// VisibleIDs returns the ids of the rows passing the filter, in view order.
func (m Model) VisibleIDs() []string {
	out := make([]string, len(m.view))
	for i, e := range m.view {
		out[i] = e.ID
	}
	return out
}
