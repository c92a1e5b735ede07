package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/data/action"
	"opsdeck/data/secret"
	"opsdeck/themes"
	"opsdeck/ui/lineedit"
	"opsdeck/views/inert"
)

// View draws the dialog centred over the dimmed pane. Every value shown
// (ids, before/after values, guard texts) passes through inert.
func (d *confirmDialog) View(width, height int) string {
	th := d.theme
	if !d.fits(width, height) {
		return tooSmall(plansTitle(d.plans), width, height, th)
	}
	inner := dialogInner(width)
	var body []string
	add := func(lines ...string) { body = append(body, lines...) }

	// What is about to change.
	table := d.plans[0].Table
	if d.bulk {
		add(th.Title.Render(inert.Line(fmt.Sprintf("%s marked", countLabel(len(d.plans)+len(d.skipped), table)), inner)))
		if d.hidden > 0 {
			add(th.Warn.Render(inert.Line(fmt.Sprintf("⚠ %d of them hidden by the current filter (included)", d.hidden), inner)))
		}
		if len(d.skipped) > 0 {
			add(th.Muted.Render(inert.Line(fmt.Sprintf("%d not applicable, left alone", len(d.skipped)), inner)))
		}
	} else {
		add(th.StatusKey.Render("Target ") + th.Title.Render(inert.Line(maskedTarget(d.plans[0].Target), inner-7)))
	}
	for _, l := range d.live {
		add(wrapStyled(th.Warn, "⚠ live: "+l, inner)...)
	}
	if d.stale != "" {
		add(th.Error.Render(inert.Line("nothing to confirm any more — n/esc closes", inner)))
	}
	if l := d.permBody(); l != "" {
		add(wrapStyled(th.Muted, l, inner)...)
	}
	add("")
	if d.bulk {
		add(th.Header.Render(inert.Line("Rows and changes (each row with its own guard)", inner)))
		for _, p := range d.plans {
			var parts []string
			for _, c := range p.Changes {
				if c.Kept() {
					continue
				}
				before, after := maskedChange(c)
				parts = append(parts, c.Attr+" "+before+" → "+after)
			}
			add("  " + th.Key.Render(inert.Line(maskedTarget(p.Target), inner-2)))
			add("      " + inert.Line(strings.Join(parts, "; "), max(inner-6, 1)))
		}
		for _, s := range d.skipped {
			add("  " + th.Muted.Render(inert.Line(maskedTarget(s.target), inner-2)))
			add(wrapStyled(th.Muted, "      not applicable: "+s.reason, inner)...)
		}
	} else {
		add(th.Header.Render("Changes"))
		aw := 0
		for _, c := range d.plans[0].Changes {
			aw = max(aw, min(lipgloss.Width(inert.String(c.Attr)), 22))
		}
		var same []string
		for _, c := range d.plans[0].Changes {
			before, after := maskedChange(c)
			if c.Kept() {
				// "status failed → failed (kept)" is no change.
				same = append(same, c.Attr+" "+before)
				continue
			}
			add(changeLines(c.Attr, before, after, aw, inner, th)...)
		}
		if len(same) > 0 {
			add(wrapStyled(th.Muted, "  unchanged: "+strings.Join(same, " · "), inner)...)
		}
	}
	add("")
	guardFor := ""
	if d.bulk {
		guardFor = " (shown for " + maskedTarget(d.plans[0].Target) + ")"
	}
	add(th.Header.Render(inert.Line("Only if"+guardFor, inner)))
	// The values pinned as seen go on one list of their own: as
	// sentences ("status is still RUNNING, as seen") they read as the
	// business rule said twice.
	var pins []string
	for _, c := range d.plans[0].Guard {
		switch {
		case c.Seen && c.Attr != "":
			pins = append(pins, c.Attr+" "+c.Value)
		case c.Seen:
			add(wrapStyled(th.Muted, "  • "+c.Text, inner)...)
		default:
			add(wrapStyled(lipgloss.NewStyle(), "  • "+c.Text, inner)...)
		}
	}
	if len(pins) > 0 {
		add(wrapStyled(th.Muted, "  • unchanged since seen: "+strings.Join(pins, " · "), inner)...)
	}
	if then := d.plans[0].Then; then != "" {
		add("")
		add(th.Header.Render("Then"))
		add(wrapStyled(lipgloss.NewStyle(), "  • "+then, inner)...)
	}
	add("")
	add(wrapStyled(th.Muted, d.plans[0].Spec().Note, inner)...)

	title := plansTitle(d.plans)
	box := frameBox(title, body, d.footLines(inner), inner, height, &d.scroll, th)
	return overlay(d.under, box, width, height, th)
}

// footLines are the lines that always show, under the scrolled body: what
// changed and must be read again, why the last answer did nothing, and the
// question with its keys or the phrase input.
func (d *confirmDialog) footLines(inner int) []string {
	th := d.theme
	foot := []string{""}
	if d.stale == "" && len(d.reread) > 0 && (d.mustReread() || d.typed && d.input.Value() == "") {
		foot = append(foot, wrapStyled(th.Warn, "⚠ changed while this dialog was open — "+strings.Join(d.reread, " · ")+". Read it again.", inner)...)
		switch {
		case d.typed:
			foot = append(foot, wrapStyled(th.Warn, "Type the phrase again to confirm what is shown now.", inner)...)
		case d.rereadLeft() > 0:
			foot = append(foot, wrapStyled(th.Warn, d.confirm.Help().Key+" is disabled for a moment.", inner)...)
		default:
			foot = append(foot, wrapStyled(th.Warn, "Press "+d.confirm.Help().Key+" to acknowledge; then "+d.confirm.Help().Key+" confirms.", inner)...)
		}
	} else if d.acked && d.stale == "" {
		foot = append(foot, wrapStyled(th.Muted, "change acknowledged", inner)...)
	}
	for _, l := range d.permFoot() {
		foot = append(foot, wrapStyled(th.Error, l, inner)...)
	}
	if d.refused != "" {
		foot = append(foot, wrapStyled(th.Error, d.refused, inner)...)
	}
	verb := strings.ToLower(plansTitle(d.plans))
	switch {
	case d.stale != "", d.perm.denied != "":
		foot = append(foot, th.Key.Render(d.deny.Help().Key)+" close")
	case d.typed:
		foot = append(foot, wrapStyled(th.Warn, fmt.Sprintf("Protected environment %q: type %s and press %s to %s (%s cancels).", d.env, d.Phrase(), keyName(d.submit), verb, keyName(d.dismiss)), inner)...)
		st := lineedit.DefaultStyles()
		st.Escaped = th.Warn.Underline(true)
		foot = append(foot, fitStyled("> "+d.input.View(max(inner-2, 1), st), inner))
		if d.mismatch {
			foot = append(foot, wrapStyled(th.Error, "that is not "+d.Phrase()+" — nothing written", inner)...)
		}
	default:
		q := fmt.Sprintf("%s %s?", upperFirst(verb), d.what())
		if d.bulk {
			q = fmt.Sprintf("Apply to %s?", d.what())
		}
		foot = append(foot, wrapStyled(th.Title, q, inner)...)
		foot = append(foot, wrapStyled(th.Key, d.confirm.Help().Key+" yes · "+d.deny.Help().Key+" no · "+keyName(d.submit)+" = No (default)", inner)...)
	}
	return foot
}

// fits reports whether the question (and at least one line of what it is
// about) can be seen in a width × height area: a question that cannot be
// seen cannot be answered.
func (d *confirmDialog) fits(width, height int) bool {
	return questionFits(width, height, len(d.footLines(dialogInner(width))))
}

func questionFits(width, height, footLines int) bool {
	return dialogInner(width) >= minDialogInner && width >= minDialogInner+4 && height-2-footLines >= 1
}

// tooSmall is what a dialog shows when its question cannot be seen: a
// plain warning in whatever room there is, never a frame without content.
func tooSmall(title string, width, height int, th themes.Theme) string {
	text := "⚠ Enlarge the terminal: it is too small to show the question of " + title + " (esc cancels)"
	lines := wrapStyled(th.Warn, text, max(width, 1))
	out := make([]string, max(height, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = fitStyled(lines[i], width)
		} else {
			out[i] = strings.Repeat(" ", max(width, 0))
		}
	}
	return strings.Join(out, "\n")
}

// what names the target(s) in the question.
func (d *confirmDialog) what() string {
	if !d.bulk {
		return d.plans[0].Target
	}
	return countLabel(len(d.plans), d.plans[0].Table)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// dialogInner is the text width inside a dialog: most of a narrow screen,
// at most 84 columns on a wide one.
func dialogInner(width int) int {
	return max(min(width-6, 84), min(width-4, 20), 1)
}

// frameBox draws a bordered box: body lines (scrolled when they do not fit,
// *scroll clamped) then foot lines, which always show.
func frameBox(title string, body, foot []string, inner, height int, scroll *int, th themes.Theme) []string {
	room := height - 2 - len(foot)
	if room < 1 {
		// A tiny screen: the question matters more than the detail.
		body, room = nil, 0
	}
	if len(body) > room {
		maxScroll := len(body) - room + 1
		*scroll = min(max(*scroll, 0), maxScroll)
		more := len(body) - *scroll - (room - 1)
		shown := append([]string(nil), body[*scroll:*scroll+room-1]...)
		body = append(shown, th.Muted.Render(inert.Line(fmt.Sprintf("… %d more lines (↑/↓ scroll)", max(more, 0)), inner)))
	} else {
		*scroll = 0
	}
	b := th.DialogBorder
	t := inert.Line(title, max(inner-2, 1))
	top := b.Render("╭─ ") + th.DialogTitle.Render(t) + b.Render(" "+strings.Repeat("─", max(inner-lipgloss.Width(t)-1, 0))+"╮")
	out := []string{top}
	for _, l := range append(body, foot...) {
		out = append(out, b.Render("│ ")+fitStyled(l, inner)+b.Render(" │"))
	}
	out = append(out, b.Render("╰"+strings.Repeat("─", inner+2)+"╯"))
	if len(out) > height && height > 0 {
		out = out[len(out)-height:]
	}
	return out
}

// overlay centres box over the background, which is drawn without its
// colours and dimmed so the dialog is what the eye finds.
func overlay(under func() string, box []string, width, height int, th themes.Theme) string {
	var bg []string
	if under != nil {
		bg = strings.Split(under(), "\n")
	}
	bw := 0
	for _, l := range box {
		bw = max(bw, lipgloss.Width(l))
	}
	top := max((height-len(box))/2, 0)
	left := max((width-bw)/2, 0)
	lines := make([]string, height)
	for i := range lines {
		plain := ""
		if i < len(bg) {
			plain = ansi.Strip(bg[i])
		}
		plain = fitLine(plain, width)
		j := i - top
		if j < 0 || j >= len(box) {
			lines[i] = th.Muted.Render(plain)
			continue
		}
		l := fitStyled(box[j], min(bw, width))
		right := ansi.Cut(plain, left+lipgloss.Width(l), width)
		lines[i] = th.Muted.Render(ansi.Cut(plain, 0, left)) + l + th.Muted.Render(right)
	}
	return strings.Join(lines, "\n")
}

// fitStyled cuts or pads a styled line to exactly w cells.
func fitStyled(s string, w int) string { return fitLine(s, w) }

// wrapStyled masks credentials in text, sanitises it, wraps it to w cells
// and styles each line. Dialog texts quote values from items (guards,
// reasons, live notes), so they are masked like the values themselves.
func wrapStyled(st lipgloss.Style, text string, w int) []string {
	text, _ = secret.Text(text)
	wrapped := ansi.Wrap(inert.String(text), max(w, 1), "")
	var out []string
	for _, l := range strings.Split(wrapped, "\n") {
		out = append(out, st.Render(l))
	}
	return out
}

// changeLines renders "attr  before → after", wrapping a long value under
// itself rather than cutting what the operator is asked to approve.
func changeLines(attr, before, after string, aw, inner int, th themes.Theme) []string {
	head := "  " + inert.Pad(attr, aw) + "  "
	room := max(inner-lipgloss.Width(head), 8)
	b, a := inert.String(before), inert.String(after)
	if lipgloss.Width(b)+3+lipgloss.Width(a) <= room {
		return []string{head + th.Removed.Render(b) + " → " + th.Added.Render(a)}
	}
	var out []string
	indent := strings.Repeat(" ", lipgloss.Width(head))
	for i, l := range strings.Split(ansi.Wrap(b+" → "+a, room, ""), "\n") {
		if i == 0 {
			out = append(out, head+l)
		} else {
			out = append(out, indent+l)
		}
	}
	return out
}

// maskedTarget is a target id as dialogs show it: an id is tenant data and
// can carry a token like any value.
func maskedTarget(id string) string {
	id, _ = secret.Text(id)
	return id
}

// maskedChange is a change's before and after as the dialog shows them:
// credentials masked, like everywhere else a value is shown.
func maskedChange(c action.Change) (before, after string) {
	before, _ = secret.Default.String([]string{c.Attr}, c.Before)
	after, _ = secret.Default.String([]string{c.Attr}, c.After)
	return before, after
}
