package views

import (
	"charm.land/lipgloss/v2"

	"opsdeck/views/vtable"
)

// styled is a cell with its own foreground style (status colours).
func styled(text string, st lipgloss.Style) vtable.Cell {
	s := st
	return vtable.Cell{Text: text, Style: &s}
}
