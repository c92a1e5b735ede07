package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/views"
)

// The help screen is generated from the keymap, the pane's own bindings
// and the command table, so it always shows what actually works. It must
// be complete at any size: the keymap's groups are laid out side by side
// as many as fit the width and wrap onto further rows (the bubbles help
// view would cut the rest off with "…"), and when the whole does not fit
// the height it scrolls (the keymap's up/down/page/top/bottom keys).

// helpGroupGap separates two groups on one row.
const helpGroupGap = 4

// helpLines is the whole help text for width w, one styled line each.
func (m Model) helpLines(w int) []string {
	th := m.ctx.Theme
	hv := m.help
	hv.ShowAll = true
	hv.SetWidth(0) // rows are packed to fit below; nothing may be cut
	var b strings.Builder
	b.WriteString(th.Title.Render("Keys") + th.Muted.Render("  (? or esc closes)") + "\n")
	// A key the pane's own section lists (v on Sessions) is said there,
	// not twice.
	extra := m.panes[m.active].Help()
	for _, row := range packGroups(withoutBindings(m.ctx.Keys.FullHelp(), extra), w, func(g []key.Binding) int {
		return lipgloss.Width(hv.FullHelpView([][]key.Binding{g}))
	}) {
		b.WriteString(hv.FullHelpView(row) + "\n")
	}
	if len(extra) > 0 {
		b.WriteString(th.Title.Render(m.panes[m.active].ID().Name()+" pane") + "\n")
		for _, row := range packGroups([][]key.Binding{extra}, w, func(g []key.Binding) int {
			return lipgloss.Width(hv.ShortHelpView(g))
		}) {
			b.WriteString(" " + hv.ShortHelpView(row[0]) + "\n")
		}
	}
	// Commands flow as a paragraph, wrapped to the width.
	b.WriteString(th.Title.Render("Commands") + "\n")
	line, lw := " ", 1
	for _, u := range Usage() {
		uw := lipgloss.Width(u) + 2
		if lw+uw > w && lw > 1 {
			b.WriteString(line + "\n")
			line, lw = " ", 1
		}
		line += " " + th.Key.Render(u) + " "
		lw += uw
	}
	b.WriteString(line + "\n")
	sk := m.ctx.Keys.SortColumn.Help().Key
	for _, note := range append([]string{
		"Row marks: * marked · ! expired or overdue · ? the item differs from its schema (enter shows how)",
		"Filter (/): words all must match — text · !text (without) · ~regex · field=value · field!=value · field~regex; " +
			"a field is a column (key or title) or an attribute; quote spaces: name=\"a b\"; field=\"\" is empty or missing",
		"Terms (:table, :scan, :inbox, :runs): field=v · field!=v · field<v · <= · > · >= · field^=prefix · field=a..b (between); " +
			"numbers compare as numbers; now, now-1h, now+2d are unix seconds; index=NAME picks the index (:table)",
		"Sort: " + sk + " then a column's number (1-9, as on screen; again reverses), " + sk + "0 the natural order; :sort <column> [asc|desc], :sort alone the natural order",
	}, actionHelpNotes(m.readOnly)...) {
		for _, l := range views.WrapWords(note, w) {
			b.WriteString(th.Muted.Render(l) + "\n")
		}
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// withoutBindings is groups without the bindings also in drop (same keys
// and text); a group left empty goes.
func withoutBindings(groups [][]key.Binding, drop []key.Binding) [][]key.Binding {
	same := func(a, b key.Binding) bool {
		return a.Help() == b.Help() && strings.Join(a.Keys(), " ") == strings.Join(b.Keys(), " ")
	}
	var out [][]key.Binding
	for _, g := range groups {
		var kept []key.Binding
		for _, k := range g {
			dup := false
			for _, d := range drop {
				dup = dup || same(k, d)
			}
			if !dup {
				kept = append(kept, k)
			}
		}
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}

// packGroups puts groups side by side, as many per row as fit w (at least
// one), in order. A group wider than w alone gets a row of its own.
func packGroups(groups [][]key.Binding, w int, width func([]key.Binding) int) [][][]key.Binding {
	var rows [][][]key.Binding
	var row [][]key.Binding
	used := 0
	for _, g := range groups {
		if len(g) == 0 || !anyEnabled(g) {
			continue
		}
		gw := width(g)
		if len(row) > 0 && used+helpGroupGap+gw > w {
			rows = append(rows, row)
			row, used = nil, 0
		}
		if len(row) > 0 {
			used += helpGroupGap
		}
		row = append(row, g)
		used += gw
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

func anyEnabled(g []key.Binding) bool {
	for _, b := range g {
		if b.Enabled() {
			return true
		}
	}
	return false
}

// helpCache is the help screen last drawn and what it was drawn for.
// Building it lays out and styles the whole keymap (milliseconds), and
// while it is open every frame (a clock tick, a page of a load-all, a live
// change) would build it again for the same text. It is shared by the
// Model's copies, as frameHold is.
type helpCache struct {
	key  string
	text string
}

// helpKeyOf is everything the help screen's text depends on: the size,
// the scroll offset, the theme, read-only and the shown pane with its
// bindings as they stand (a pane may enable or disable its keys as its
// state changes).
func (m Model) helpKeyOf(w, h int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(w) + "x" + strconv.Itoa(h) + "+" + strconv.Itoa(m.helpOff) + " " + m.ctx.Theme.Name + " " + strconv.Itoa(m.active) + " " + strconv.FormatBool(m.readOnly))
	for _, k := range m.panes[m.active].Help() {
		b.WriteString("\x00" + strings.Join(k.Keys(), ",") + "\x00" + k.Help().Key + "\x00" + k.Help().Desc + "\x00" + strconv.FormatBool(k.Enabled()))
	}
	return b.String()
}

// helpView is the window of the help text that fits h lines, from the
// scroll offset; when it does not all fit, the last line says where the
// window is and how to scroll.
func (m Model) helpView(w, h int) string {
	c := m.helpCache
	if c == nil {
		return m.buildHelpView(w, h)
	}
	if k := m.helpKeyOf(w, h); k != c.key || c.text == "" {
		c.key, c.text = k, m.buildHelpView(w, h)
	}
	return c.text
}

func (m Model) buildHelpView(w, h int) string {
	lines := m.helpLines(w)
	if len(lines) <= h || h < 2 {
		return strings.Join(fitBlock(strings.Join(lines, "\n"), w, h), "\n")
	}
	body := h - 1
	off := min(max(m.helpOff, 0), len(lines)-body)
	win := append([]string(nil), lines[off:off+body]...)
	km := m.ctx.Keys
	more := "── " + strconv.Itoa(off+1) + "–" + strconv.Itoa(off+body) + " of " + strconv.Itoa(len(lines)) +
		" · " + firstKey(km.Down) + "/" + firstKey(km.Up) + " " + firstKey(km.PageDown) + "/" + firstKey(km.PageUp) + " scroll ──"
	win = append(win, m.ctx.Theme.Muted.Render(more))
	return strings.Join(fitBlock(strings.Join(win, "\n"), w, h), "\n")
}

// helpKey scrolls the help screen, keeping the offset within the text.
func (m Model) helpKey(k tea.KeyPressMsg) Model {
	km := m.ctx.Keys
	h := m.paneHeight()
	maxOff := max(len(m.helpLines(m.width))-(h-1), 0)
	if len(m.helpLines(m.width)) <= h {
		maxOff = 0
	}
	page := max(h-2, 1)
	switch {
	case key.Matches(k, km.Down):
		m.helpOff++
	case key.Matches(k, km.Up):
		m.helpOff--
	case key.Matches(k, km.PageDown):
		m.helpOff += page
	case key.Matches(k, km.PageUp):
		m.helpOff -= page
	case key.Matches(k, km.Top):
		m.helpOff = 0
	case key.Matches(k, km.Bottom):
		m.helpOff = maxOff
	}
	m.helpOff = min(max(m.helpOff, 0), maxOff)
	return m
}

// firstKey is a binding's first key as typed ("j"), for compact hints.
func firstKey(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return b.Help().Key
}
