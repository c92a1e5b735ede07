package views

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// The overview's screen: one block per service, each a small table whose
// cells are tallies. A number is marked by a glyph as well as a colour, so
// that it reads the same without colour (NO_COLOR) and to colour-blind eyes:
//
//	!  crosses an alert threshold (or a project is at its quota)
//	≈  an estimate: a change could not be placed; r re-counts
//	≥  a lower bound: the count stopped at its page cap
//	?  the count failed (the reason is under the blocks)

// ovLine is one screen line: plain cells with the tally each one shows
// (-1 for a label), so the cursor can be drawn and found.
type ovLine struct {
	cells []ovCell
	style ovRole // of the text or the label cells
	text  string
}

// ovRole is a style of the theme; the screen is drawn with their Paints
// (computed once per theme), not lipgloss.Render per cell.
type ovRole int

const (
	roleRow ovRole = iota
	roleHeader
	roleMuted
	roleError
	roleWarn
	roleSelected
	numRoles
)

// paints are the roles' escape sequences for theme th, cached.
func (p *Overview) paints() *[numRoles]themes.Paint {
	th := p.ctx.Theme
	if p.paintCache == nil || p.paintTheme != th.Name {
		var c [numRoles]themes.Paint
		for r, st := range map[ovRole]lipgloss.Style{roleRow: th.Row, roleHeader: th.Header, roleMuted: th.Muted,
			roleError: th.Error, roleWarn: th.Warn, roleSelected: th.Selected} {
			c[r] = themes.PaintOf(st)
		}
		p.paintCache, p.paintTheme = &c, th.Name
	}
	return p.paintCache
}

type ovCell struct {
	text  string
	width int
	tally int // -1: a label
	right bool
}

// ovLayout is the screen as lines, and the tallies as a grid of rows for
// the cursor.
type ovLayout struct {
	lines []ovLine
	rows  [][]int
	// cursorLine is the line of the cursor's tally (-1: none).
	cursorLine int
}

// blockMetrics are the column metrics of a block's fleet-wide row.
var blockMetrics = map[string][]string{
	data.BlockSandboxes: {data.MetricSandboxesAvailable, data.MetricSandboxesAllocated, data.MetricSandboxesPending, data.MetricSandboxesStale, data.MetricSandboxesPastWindow, data.MetricSandboxesDeletionFailing},
	data.BlockSessions:  {data.MetricSessionsRunning, data.MetricSessionsStopped, data.MetricSessionsCompleted, data.MetricSessionsError, data.MetricSessionsTimedOut, data.MetricSessionsExpiring},
	data.BlockEvents:    {data.MetricEventsFailed, data.MetricEventsRetrying, data.MetricEventsExhausted},
	data.BlockRuns:      {data.MetricRunsStaleProcessing, data.MetricRunsStaleUploaded},
}

var blockReads = map[string]string{
	data.BlockSandboxes: "StatusIndex",
	data.BlockSessions:  "status-expiresAt-index",
	data.BlockEvents:    "StatusIndex per user",
	data.BlockRuns:      "per user, updatedAt older than the stale threshold",
}

func (p *Overview) layout() ovLayout {
	lay := ovLayout{cursorLine: -1}
	ts := p.ov.Tallies
	find := func(key, subject string) int {
		for i, t := range ts {
			if t.Key == key && t.Subject == subject {
				return i
			}
		}
		return -1
	}
	// table lays out a header and rows of cells, columns as wide as their
	// widest cell.
	table := func(header []string, rows [][]ovCell) {
		widths := make([]int, len(header))
		for i, h := range header {
			widths[i] = ansi.StringWidth(h)
		}
		for _, r := range rows {
			for i, c := range r {
				widths[i] = max(widths[i], c.width)
			}
		}
		hl := ovLine{}
		for i, h := range header {
			hl.cells = append(hl.cells, ovCell{text: h, width: widths[i], tally: -1, right: i > 0 || rows == nil})
		}
		lay.lines = append(lay.lines, withStyle(hl, roleMuted))
		for _, r := range rows {
			l := ovLine{}
			var grid []int
			for i, c := range r {
				c.width = widths[i]
				l.cells = append(l.cells, c)
				if c.tally >= 0 {
					grid = append(grid, c.tally)
					if c.tally == p.cursor {
						lay.cursorLine = len(lay.lines)
					}
				}
			}
			lay.lines = append(lay.lines, l)
			if len(grid) > 0 {
				lay.rows = append(lay.rows, grid)
			}
		}
	}
	num := func(i int) ovCell {
		if i < 0 {
			return ovCell{text: "-", width: 1, tally: -1, right: true}
		}
		s := countText(ts[i])
		if th, on := ts[i].Alerting(p.opts.Alerts); on {
			_ = th
			s = "!" + s
		}
		return ovCell{text: s, width: ansi.StringWidth(s), tally: i, right: true}
	}
	label := func(s string) ovCell {
		s = inert.String(s)
		if ansi.StringWidth(s) > 24 {
			s = ansi.Truncate(s, 23, "…")
		}
		return ovCell{text: s, width: ansi.StringWidth(s), tally: -1}
	}
	for bi, block := range []string{data.BlockSandboxes, data.BlockSessions, data.BlockEvents, data.BlockRuns} {
		if bi > 0 {
			lay.lines = append(lay.lines, ovLine{})
		}
		var n int
		var rcu float64
		for _, t := range ts {
			if t.Block == block {
				n++
				rcu += t.Consumed
			}
		}
		head := block + "  " + blockReads[block]
		if p.have {
			head += " · " + strconv.Itoa(n) + " counts · " + formatRCU(rcu)
		}
		lay.lines = append(lay.lines, ovLine{text: head, style: roleHeader})
		keys := blockMetrics[block]
		switch block {
		case data.BlockSandboxes, data.BlockSessions:
			var header []string
			var row []ovCell
			for _, k := range keys {
				i := find(k, "")
				header = append(header, metricLabel(k, ts, i))
				row = append(row, num(i))
			}
			table(header, [][]ovCell{row})
			if block == data.BlockSessions {
				var rows [][]ovCell
				for _, pr := range p.Plan().Projects {
					rows = append(rows, []ovCell{label(pr), num(find(data.MetricProjectRunning, pr))})
				}
				if len(rows) > 0 {
					table([]string{"project", "RUNNING / quota (projectId-createdAt-index)"}, rows)
				}
			}
		default:
			users := p.Plan().InboxUsers()
			if block == data.BlockRuns {
				users = p.Plan().RunsUsers()
			}
			if len(users) == 0 {
				lay.lines = append(lay.lines, ovLine{text: "no user watched yet: set watch.users in the config, or open one (:inbox <user>)", style: roleMuted})
				continue
			}
			header := []string{"user"}
			for _, k := range keys {
				header = append(header, metricLabel(k, ts, find(k, users[0])))
			}
			var rows [][]ovCell
			for _, u := range users {
				row := []ovCell{label(u)}
				for _, k := range keys {
					row = append(row, num(find(k, u)))
				}
				rows = append(rows, row)
			}
			table(header, rows)
		}
	}
	lay.lines = append(lay.lines, ovLine{})
	for _, t := range ts {
		if t.Err != nil {
			lay.lines = append(lay.lines, ovLine{text: "? " + t.Key + " " + t.Subject + ": " + data.Describe(t.Err), style: roleError})
			break
		}
	}
	// The legend, on two lines where one would be cut.
	legend := []string{"! alert   ≈ estimate (r re-counts)   ≥ lower bound", "   ? failed   enter opens the rows"}
	if p.width == 0 || ansi.StringWidth(legend[0]+legend[1]) <= p.width-1 {
		legend = []string{legend[0] + legend[1]}
	}
	for _, l := range legend {
		lay.lines = append(lay.lines, ovLine{text: strings.TrimSpace(l), style: roleMuted})
	}
	return lay
}

func withStyle(l ovLine, r ovRole) ovLine { l.style = r; return l }

// metricLabel is a column's header: the tally's own label when there is
// one, else the key's last part.
func metricLabel(key string, ts []data.Tally, i int) string {
	if i >= 0 {
		return ts[i].Label
	}
	_, after, _ := strings.Cut(key, ".")
	return strings.ReplaceAll(after, "_", " ")
}

// countText is a tally's number with its qualifiers (no colour).
func countText(t data.Tally) string {
	switch {
	case t.Err != nil:
		return "?"
	case t.CountedAt.IsZero():
		return "…"
	}
	s := itoa(t.N)
	if t.Partial {
		s = "≥" + s
	}
	if t.Estimated {
		// A lower bound that a change may have moved is an estimate too.
		s = "≈" + s
	}
	if t.Key == data.MetricProjectRunning {
		if t.HasLimit {
			s += " / " + itoa(t.Limit)
		} else {
			s += " / ?"
		}
	}
	return s
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func formatRCU(u float64) string { return strconv.FormatFloat(u, 'f', 1, 64) + " RCU" }

// View draws the layout into the pane's size, scrolled to keep the cursor
// in sight.
func (p *Overview) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	lay := p.layout()
	if !p.have {
		msg := "counting…"
		if p.err != "" {
			msg = p.err
		}
		lay.lines = []ovLine{{text: msg, style: roleMuted}}
	}
	// Blocks taller than the pane: the last line says what is out of
	// sight ("↓ 7 more lines below"), and the rest scrolls — with the
	// cursor, or pgup/pgdn past it to the legend.
	room := p.height
	if len(lay.lines) > p.height && p.height >= 2 {
		room = p.height - 1
	}
	if lay.cursorLine >= 0 && !p.scrolled {
		if lay.cursorLine < p.top {
			p.top = lay.cursorLine
		}
		if lay.cursorLine >= p.top+room {
			p.top = lay.cursorLine - room + 1
		}
	}
	p.top = min(max(p.top, 0), max(len(lay.lines)-room, 0))
	out := make([]string, 0, p.height)
	for i := p.top; i < len(lay.lines) && len(out) < room; i++ {
		out = append(out, p.drawLine(lay.lines[i]))
	}
	if room < p.height {
		out = append(out, p.moreLine(p.top, len(lay.lines)-p.top-room))
	}
	for len(out) < p.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// moreLine says how many lines are out of sight above and below.
func (p *Overview) moreLine(above, below int) string {
	var parts []string
	if below > 0 {
		unit := " more lines below"
		if below == 1 {
			unit = " more line below"
		}
		parts = append(parts, "↓ "+strconv.Itoa(below)+unit)
	}
	if above > 0 {
		parts = append(parts, "↑ "+strconv.Itoa(above)+" above")
	}
	parts = append(parts, p.ctx.Keys.PageDown.Help().Key+"/"+p.ctx.Keys.PageUp.Help().Key+" scroll")
	txt := strings.Join(parts, " · ")
	if ansi.StringWidth(txt) > p.width-1 {
		txt = ansi.Truncate(txt, max(p.width-1, 1), "…")
	}
	return " " + p.paints()[roleWarn].Apply(txt)
}

// scroll moves the view a page down (dir 1) or up (-1), away from the
// cursor if need be: the legend under the last number can be read.
func (p *Overview) scroll(dir int) {
	page := max(p.height-2, 1)
	p.top += dir * page
	p.scrolled = true
}

func (p *Overview) drawLine(l ovLine) string {
	paint := p.paints()
	var s string
	if l.cells == nil {
		txt := inert.String(l.text)
		if ansi.StringWidth(txt) > p.width-1 {
			txt = ansi.Truncate(txt, p.width-1, "…")
		}
		if txt == "" {
			return ""
		}
		return " " + paint[l.style].Apply(txt)
	}
	var b strings.Builder
	b.WriteString("  ")
	used := 2
	for i, c := range l.cells {
		if i > 0 {
			b.WriteString("  ")
			used += 2
		}
		if used+c.width > p.width {
			break
		}
		pad := strings.Repeat(" ", max(c.width-ansi.StringWidth(c.text), 0))
		text := c.text
		if c.right {
			text = pad + text
		} else {
			text += pad
		}
		r := l.style
		if c.tally >= 0 {
			r = p.cellRole(p.ov.Tallies[c.tally])
			if c.tally == p.cursor {
				r = roleSelected
			}
		}
		b.WriteString(paint[r].Apply(text))
		used += c.width
	}
	s = b.String()
	return s
}

func (p *Overview) cellRole(t data.Tally) ovRole {
	if _, on := t.Alerting(p.opts.Alerts); on || t.Err != nil {
		return roleError
	}
	if t.Estimated || t.Partial {
		return roleWarn
	}
	if t.N == 0 {
		return roleMuted
	}
	return roleRow
}
