package vtable

import (
	"charm.land/lipgloss/v2"

	"opsdeck/themes"
)

// paint is a style reduced to escape sequences (themes.Paint): calling
// lipgloss's Render for every cell of every frame cost more than the whole
// rest of the table.
type paint = themes.Paint

func paintOf(st lipgloss.Style) paint { return themes.PaintOf(st) }

// paints holds the theme's row styles, reduced once per SetTheme, and a small
// cache for cell styles (keyed by pointer: callers usually share one style
// per status word).
type paints struct {
	row, marked, muted, selected, header paint
	hlRow, hlMarked, hlMuted             paint
	cells                                map[*lipgloss.Style]paint
}

const maxCellPaints = 256

func (m *Model) repaint() {
	th := m.theme
	m.paints = &paints{
		row:      paintOf(th.Row),
		marked:   paintOf(th.Marked),
		muted:    paintOf(th.Muted),
		selected: paintOf(th.Selected),
		header:   paintOf(th.Header),
		hlRow:    paintOf(th.Highlight.Inherit(th.Row)),
		hlMarked: paintOf(th.Highlight.Inherit(th.Marked)),
		hlMuted:  paintOf(th.Highlight.Inherit(th.Muted)),
		cells:    make(map[*lipgloss.Style]paint),
	}
}

// cellPaint returns the paint for a cell style, caching it. The cache is
// shared by copies of the model; it is only touched from View/Update, which
// bubbletea runs on one goroutine.
func (p *paints) cellPaint(st *lipgloss.Style) paint {
	if c, ok := p.cells[st]; ok {
		return c
	}
	if len(p.cells) >= maxCellPaints {
		clear(p.cells)
	}
	c := paintOf(*st)
	p.cells[st] = c
	return c
}
