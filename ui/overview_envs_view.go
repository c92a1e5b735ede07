package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// The envs overview's layout: one block per env, side by side when each
// gets at least envBlockMin columns, else stacked (one under the other,
// each the whole width). A block is the env's name and connection, when
// it was counted, then the Overview's numbers block by block — or, where
// there are none, why.

// envBlockMin is the narrowest a block is drawn beside another.
const envBlockMin = 34

// envGap is the space between blocks side by side.
const envGap = 2

var envBlockOrder = []string{data.BlockSandboxes, data.BlockSessions, data.BlockEvents, data.BlockRuns}

// View draws the blocks into width × height, scrolled.
func (d *envsOverview) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	n := max(len(d.blocks), 1)
	var lines []string
	if bw := (width - envGap*(n-1)) / n; bw >= envBlockMin {
		cols := make([][]string, len(d.blocks))
		tall := 0
		for i := range d.blocks {
			cols[i] = d.blockLines(i, bw)
			tall = max(tall, len(cols[i]))
		}
		for y := 0; y < tall; y++ {
			var row strings.Builder
			for i, c := range cols {
				if i > 0 {
					row.WriteString(strings.Repeat(" ", envGap))
				}
				l := ""
				if y < len(c) {
					l = c[y]
				}
				row.WriteString(fitLine(l, bw))
			}
			lines = append(lines, row.String())
		}
	} else {
		for i := range d.blocks {
			if i > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, d.blockLines(i, width)...)
		}
	}
	// Taller than the screen: scroll, the last line saying what is below.
	room := height
	if len(lines) > height {
		room = max(height-1, 0)
		d.scroll = min(d.scroll, len(lines)-room)
		below := len(lines) - d.scroll - room
		shown := append([]string(nil), lines[d.scroll:d.scroll+room]...)
		if height >= 1 {
			more := d.theme.Muted.Render(inert.Line("↓ "+strconv.Itoa(below)+" more lines ("+keyName(d.down)+" scrolls)", width))
			if below <= 0 {
				more = ""
			}
			shown = append(shown, more)
		}
		lines = shown
	} else {
		d.scroll = 0
	}
	out := make([]string, height)
	for i := range out {
		if i < len(lines) {
			out[i] = fitLine(lines[i], width)
		} else {
			out[i] = strings.Repeat(" ", width)
		}
	}
	return strings.Join(out, "\n")
}

// blockLines is env i's block, w cells wide.
func (d *envsOverview) blockLines(i, w int) []string {
	th := d.theme
	b := d.blocks[i]
	out := []string{th.Title.Render(inert.Line("▌"+b.env, w))}
	if b.where != "" {
		out = append(out, th.Muted.Render(inert.Line(b.where, w)))
	}
	switch b.state {
	case envConnecting:
		return append(out, th.Muted.Render(inert.Line("connecting…", w)))
	case envCounting:
		if len(b.ov.Tallies) == 0 {
			return append(out, th.Muted.Render(inert.Line("counting…", w)))
		}
	case envFailed:
		return append(out, wrapStyled(th.Error, b.err, w)...)
	}
	head := "counted " + b.ov.At.Format(time.TimeOnly) + " · " + strconv.FormatFloat(b.ov.Consumed, 'f', 1, 64) + " RCU"
	if b.state == envCounting {
		head += " · re-counting…"
	}
	out = append(out, th.Muted.Render(inert.Line(head, w)))
	var firstErr error
	for _, block := range envBlockOrder {
		var rows [][2]string
		for _, t := range b.ov.Tallies {
			if t.Block != block {
				continue
			}
			label := t.Label
			if t.Subject != "" {
				label += " [" + t.Subject + "]"
			}
			rows = append(rows, [2]string{label, views.TallyText(t, d.alerts)})
			if t.Err != nil && firstErr == nil {
				firstErr = t.Err
			}
		}
		if len(rows) == 0 {
			continue
		}
		out = append(out, th.Header.Render(inert.Line(block, w)))
		for _, r := range rows {
			num := inert.String(r[1])
			nw := lipgloss.Width(num)
			label := inert.Line(r[0], max(w-nw-3, 1))
			pad := max(w-2-lipgloss.Width(label)-nw, 1)
			style := lipgloss.NewStyle()
			if strings.HasPrefix(r[1], "!") {
				style = th.Error
			}
			out = append(out, "  "+label+strings.Repeat(" ", pad)+style.Render(num))
		}
	}
	if firstErr != nil {
		out = append(out, wrapStyled(th.Error, "? "+data.Describe(firstErr), w)...)
	}
	return out
}
