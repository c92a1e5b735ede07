package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/keymap"
	"opsdeck/ui/lineedit"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// View draws the screen: exactly height lines of width cells, so nothing a
// pane or a tenant value does can push the tab bar or status bar away.
func (m Model) View() tea.View {
	var v tea.View
	v.AltScreen = true
	v.WindowTitle = m.where.windowTitle()
	if m.quitting {
		return v
	}
	v.SetContent(m.frame())
	return v
}

// Render is View's content as a string (tests read it). A panic while
// drawing gives an explanation instead of ending the console (recover.go).
func (m Model) Render() string { return m.safeRender() }

func (m Model) render() string {
	w, ph := m.width, m.paneHeight()
	lines := make([]string, 0, m.height)
	lines = append(lines, m.tabBar(w))
	if m.height >= chromeLines {
		lines = append(lines, m.titleLine(w))
	}
	var body string
	switch m.mode {
	case modeHelp:
		body = m.helpView(w, ph)
	case modeDialog:
		if m.dialog != nil {
			body = m.dialog.View(w, ph)
		}
	default:
		body = m.panes[m.active].View()
	}
	if len(m.mfa) > 0 {
		// Over whatever was open: the code is what everything waits for.
		body = m.mfaView(body, w, ph)
	}
	lines = append(lines, m.fits.block(body, w, ph)...)
	status, foot, free := "", "", false
	if m.height >= 2 {
		status = m.statusBar(w)
	}
	if m.height >= 3 {
		foot, free = m.footer(w)
	}
	// The message line: the footer, whole width, when it shows only the
	// key hints or the pane's state; a message longer than one line takes
	// the status bar's line too. Where the footer is a prompt or a
	// progress bar, the status bar yields its line to the message.
	var block []string // a message too long for the bottom two lines
	if m.flash != "" && m.height >= 2 {
		// What says where the console is (the RO and PROD badges, the
		// env) stays; the rest of the status bar yields.
		id := m.statusIdentity()
		sep := m.ctx.Theme.Muted.Render(" │ ")
		iw := lipgloss.Width(id + sep)
		switch {
		case free && lipgloss.Width(inert.String(m.flash)) <= w:
			foot = m.messageLines(w, 1)[0]
		case free && iw < w/2:
			// Two lines, and up to four of the pane's last ones above
			// them when a message needs them (a release's StopTask
			// result at 80 columns); longer still, :messages has it.
			msg := m.messageLines(w-iw, 2+min(4, ph/4))
			msg[0] = m.ctx.Theme.StatusBar.Render(id+sep) + msg[0]
			for k := 1; k < len(msg); k++ {
				msg[k] = strings.Repeat(" ", iw) + msg[k]
			}
			for k := range msg {
				msg[k] = fitLine(msg[k], w)
			}
			if len(msg) == 1 {
				msg = append(msg, foot)
			}
			n := len(msg)
			status, foot, block = msg[n-2], msg[n-1], msg[:n-2]
		case iw < w/2:
			status = fitLine(m.ctx.Theme.StatusBar.Render(id+sep)+m.messageLines(w-iw, 1)[0], w)
		default:
			status = m.messageLines(w, 1)[0]
		}
	}
	if k := len(block); k > 0 && len(lines) >= k+1 {
		copy(lines[len(lines)-k:], block)
	}
	if m.height >= 2 {
		lines = append(lines, status)
	}
	if m.height >= 3 {
		lines = append(lines, foot)
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	return strings.Join(lines, "\n")
}

// fitBlock cuts or pads a rendered block to exactly h lines of w cells.
func fitBlock(s string, w, h int) []string { return (*fitCache)(nil).block(s, w, h) }

// fitLine cuts or pads one styled line to exactly w cells.
func fitLine(s string, w int) string {
	lw := lipgloss.Width(s)
	if lw > w {
		s = ansi.Truncate(s, w, "")
		lw = lipgloss.Width(s) // a wide rune cut in half leaves one cell less
	}
	if lw < w {
		s += strings.Repeat(" ", w-lw)
	}
	return s
}

// fitCache keeps the body lines of the last frame as fitted. Measuring a
// styled line's width walks its grapheme clusters, and every message the
// program handles draws a whole frame: idle, with nothing on screen
// changing, a frame measured the same lines again and again (the larger
// part of the console's idle drawing). A line seen in the last frame, at
// the same width, is taken as it was. Shared by the Model's copies, as
// frameHold is; only the program's loop draws.
type fitCache struct {
	w    int
	last map[string]string
}

// block is fitBlock through the cache; a nil cache fits every line.
func (c *fitCache) block(s string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	in := strings.Split(s, "\n")
	out := make([]string, h)
	var next map[string]string
	if c != nil {
		if c.w != w {
			c.w, c.last = w, nil
		}
		next = make(map[string]string, min(len(in), h))
	}
	for i := range out {
		if i >= len(in) {
			out[i] = strings.Repeat(" ", w)
			continue
		}
		fitted, ok := "", false
		if c != nil {
			fitted, ok = c.last[in[i]]
		}
		if !ok {
			fitted = fitLine(in[i], w)
		}
		if next != nil {
			next[in[i]] = fitted
		}
		out[i] = fitted
	}
	if c != nil {
		c.last = next
	}
	return out
}

func (m Model) tabBar(w int) string {
	th := m.ctx.Theme
	// Full names, then short ones, then numbers with only the shown pane
	// named: the tab bar always fits on one line.
	render := func(level int) string {
		var b strings.Builder
		for i, p := range m.panes {
			spec, _ := views.Spec(p.ID())
			if spec.OnDemand && i != m.active {
				continue // its tab shows while it is shown
			}
			name := spec.Name
			switch {
			case level == 1:
				name = spec.Short
			case level == 2 && i != m.active:
				name = ""
			}
			label := " " + m.paneKeyLabel(spec) + " " + name
			if name != "" {
				label += " "
			}
			st := th.TabInactive
			if i == m.active {
				st = th.TabActive
			}
			b.WriteString(st.Render(label))
			if p.Status().Err != "" {
				b.WriteString(th.Error.Render("!"))
			} else {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	left := render(0)
	for level := 1; level <= 2 && lipgloss.Width(left) > w; level++ {
		left = render(level)
	}
	// On the right, where the console is: the badge when actions need a
	// typed confirmation, the env in its colour, the profile and region;
	// less as room runs short, the badge last of all; "opsdeck" when there
	// is nothing to warn about and no room for the env.
	badge := m.where.badgeView(m.ctx.Theme)
	envName := m.where.envStyle(th.Muted).Render(inert.Line(orDash(m.where.env), 24))
	var aws []string
	for _, s := range []string{m.where.profile, m.where.region} {
		if s != "" {
			aws = append(aws, inert.Line(s, 24))
		}
	}
	full := envName
	if len(aws) > 0 {
		full += th.Muted.Render(" · " + strings.Join(aws, " · "))
	}
	for _, right := range []string{
		strings.TrimSpace(badge+" "+full) + " ",
		strings.TrimSpace(badge+" "+envName) + " ",
		badge + " ",
		th.Muted.Render("opsdeck "),
	} {
		if strings.TrimSpace(right) == "" {
			continue
		}
		if lipgloss.Width(left)+lipgloss.Width(right) <= w {
			return fitLine(left+strings.Repeat(" ", w-lipgloss.Width(left)-lipgloss.Width(right))+right, w)
		}
	}
	return fitLine(left, w)
}

// titleLine is the pane's title with its scope, and on the right the row
// count, whether more pages exist, the live state, the filter and the
// sort. The title says which view this is, so when the line is short the
// right side yields first — the more-pages hint shortens, the sort goes,
// the filter's text shortens — and only then is the title cut; every cut
// ends in "…".
func (m Model) titleLine(w int) string {
	th := m.ctx.Theme
	p := m.panes[m.active]
	st := p.Status()
	title := inert.String(paneTitle(p))
	rows, more, loading, live, filter, sort := "", "", "", m.live.label(p), "", ""
	if !st.Tail {
		noun := st.Noun
		if noun == "" {
			noun = "row"
		}
		rows = plural(st.Rows, noun)
		if p.filterText() != "" {
			rows = strconv.Itoa(st.Visible) + "/" + rows
		}
		if st.More {
			more = " (more: ↓ at end, L all)"
		}
	}
	if st.Loading {
		loading = "loading…"
		if st.Waited >= time.Second {
			loading += " " + strconv.Itoa(int(st.Waited/time.Second)) + "s"
		}
	}
	filterText := func(n int) string {
		if f := p.filterText(); f != "" {
			return "filter " + strconv.Quote(inert.Line(f, n))
		}
		return ""
	}
	filter = filterText(20)
	// An explicit sort is named; without one the rows are in the
	// query's natural order (the index's sort key), which the title's
	// scope already implies.
	if st.Sortable && st.Sort != "" {
		sort = "sort " + st.Sort
	}
	right := func() string {
		var info []string
		for _, s := range []string{rows + more, loading, live, filter, sort} {
			if s != "" {
				info = append(info, s)
			}
		}
		return inert.String(strings.Join(info, " · "))
	}
	tw := lipgloss.Width(title)
	for stage := 0; tw+2+lipgloss.Width(right()) > w && stage < 3; stage++ {
		switch stage {
		case 0:
			if more != "" {
				more = " (more)"
			}
		case 1:
			sort = ""
		case 2:
			filter = filterText(8)
		}
	}
	r := right()
	rw := lipgloss.Width(r)
	if rw > w-10 {
		// Even the title's first words would not fit: the right side is
		// cut too, keeping the title's start.
		r = inert.Line(r, max(w-10, 1))
		rw = lipgloss.Width(r)
	}
	title = inert.Line(title, max(w-rw-2, 8))
	gap := max(w-lipgloss.Width(title)-rw, 1)
	return cutLine(th.Title.Render(title)+strings.Repeat(" ", gap)+th.Muted.Render(r), w)
}

// statusBar: RO badge, env, alerts, tail, profile, endpoint, the last
// request's consumed capacity, and the pane's state that the message line
// does not show. What does not fit goes whole, the least telling first
// (capacity, endpoint, profile, tail); a part is never cut mid-word, and a
// line that is still too long ends in "…".
func (m Model) statusBar(w int) string {
	th := m.ctx.Theme
	type part struct {
		text string
		keep int // parts go in increasing keep order; 0 never goes
	}
	var parts []part
	if m.readOnly {
		parts = append(parts, part{th.ROBadge.Render(" RO "), 0})
	}
	if b := m.where.badgeView(m.ctx.Theme); b != "" {
		parts = append(parts, part{b, 0})
	}
	kv := func(k, v string) string {
		return th.StatusKey.Render(k+" ") + th.StatusValue.Render(inert.Line(v, 40))
	}
	if a := m.alerts(); a != "" {
		parts = append(parts, part{th.Error.Render(inert.Line(a, 60)), 6})
	}
	parts = append(parts, part{m.envPart(), 0})
	st := m.panes[m.active].Status()
	if h := m.live.healthSummary(); h != "" && !st.Tail {
		// The Stream pane shows every table's state in the message slot.
		parts = append(parts, part{kv("tail", h), 4})
	}
	if c, urgent := m.credsText(); c != "" {
		v := th.StatusValue
		if urgent {
			v = th.Error
		}
		parts = append(parts, part{th.StatusKey.Render("creds ") + v.Render(inert.Line(c, 12)), 5})
	}
	if m.where.profile != "" {
		parts = append(parts, part{kv("profile", m.where.profile), 3})
	}
	// Against AWS "at" is the region; with a custom endpoint the tab
	// bar, the window title and :env name the region.
	parts = append(parts, part{kv("at", orDash(m.where.endpoint)), 2})
	if st.HasReq {
		parts = append(parts, part{kv("last", strconv.FormatFloat(st.Consumed, 'f', -1, 64)+" RCU"), 1})
	}
	// The pane's state, when the footer is taken by a message (its error,
	// what a load waits for) or it is the Stream pane's (every table's
	// stream state).
	msg, style := "", th.Muted
	switch {
	case st.Err != "" && m.flash != "":
		msg, style = st.Err, th.Error
	case st.Waiting != "" && m.flash != "":
		msg = st.Waiting
	case st.Tail:
		msg = m.live.streamHealthLine(m.panes[m.active])
	}
	sep := th.Muted.Render(" │ ")
	join := func() string {
		var out []string
		for _, p := range parts {
			out = append(out, p.text)
		}
		return strings.Join(out, sep)
	}
	msgRoom := 0
	if msg != "" {
		msgRoom = min(lipgloss.Width(inert.String(msg)), 40) + 3
	}
	for lvl := 1; lvl <= 6 && lipgloss.Width(join())+msgRoom > w; lvl++ {
		kept := parts[:0:0]
		for _, p := range parts {
			if p.keep == 0 || p.keep > lvl {
				kept = append(kept, p)
			}
		}
		parts = kept
	}
	left := join()
	if msg != "" {
		// Panes' notes and errors can quote an item (a row that expired,
		// an id): masked like every value shown.
		msg = maskText(msg)
		room := w - lipgloss.Width(left) - 3
		left += sep + style.Render(inert.Line(msg, max(room, 1)))
	}
	return cutLine(th.StatusBar.Render(left), w)
}

// envPart is the status bar's "env dev", in the env's colour.
func (m Model) envPart() string {
	th := m.ctx.Theme
	return th.StatusKey.Render("env ") + m.where.envStyle(th.StatusValue).Render(inert.Line(orDash(m.where.env), 40))
}

// statusIdentity is what the status bar keeps beside a message: the RO
// and protected badges and the env.
func (m Model) statusIdentity() string {
	var parts []string
	if m.readOnly {
		parts = append(parts, m.ctx.Theme.ROBadge.Render(" RO "))
	}
	if b := m.where.badgeView(m.ctx.Theme); b != "" {
		parts = append(parts, b)
	}
	return strings.Join(append(parts, m.envPart()), m.ctx.Theme.Muted.Render(" │ "))
}

// cutLine is fitLine that marks a cut with "…".
func cutLine(s string, w int) string {
	if lipgloss.Width(s) > w && w > 0 {
		s = ansi.Truncate(s, w, inert.Ellipsis)
	}
	return fitLine(s, w)
}

// footer is the command or filter prompt, the load-all progress bar, a
// dialog's keys, or — free for a message to take (render) — the pane's
// error, what its load waits for, or the key hints.
func (m Model) footer(w int) (string, bool) {
	th := m.ctx.Theme
	if len(m.mfa) > 0 {
		return fitLine(th.Muted.Render(inert.Line("MFA code: type it · enter sends · esc gives up", w)), w), false
	}
	switch m.mode {
	case modeCommand:
		return fitLine(th.Key.Render(":")+m.input.View(max(w-1, 1), m.inputStyles()), w), false
	case modeFilter:
		return m.filterLine(w), false
	case modeDialog:
		// A dialog owns the keyboard: list its keys, not the pane's.
		if h, ok := m.dialog.(interface{ Hints() string }); ok {
			return fitLine(th.Muted.Render(inert.Line(h.Hints(), w)), w), false
		}
	}
	if m.sortPending {
		// The whole line: the columns must all be readable to be chosen.
		return fitLine(th.Key.Render(inert.Line(m.sortPrompt(), w)), w), false
	}
	st := m.panes[m.active].Status()
	if st.Progress >= 0 {
		label := fmt.Sprintf(" %s loaded — esc cancels", plural(st.Rows, "row"))
		bw := max(min(w-lipgloss.Width(label)-1, 40), 5)
		bar := progress.New(progress.WithWidth(bw), progress.WithoutPercentage(),
			progress.WithColors(lipgloss.Color("#5FAFFF")))
		pct := "~" + strconv.Itoa(int(st.Progress*100)) + "%"
		if st.Progress == 0 {
			pct = "…"
		}
		return fitLine(bar.ViewAs(st.Progress)+" "+pct+label, w), false
	}
	// The pane's error gets the whole footer, so it is readable even at
	// 80 columns.
	if st.Err != "" {
		return fitLine(th.Error.Render(inert.Line(maskText(st.Err), w)), w), true
	}
	if st.Waiting != "" {
		return fitLine(th.Muted.Render(inert.Line(st.Waiting, w)), w), true
	}
	bindings := append(m.ctx.Keys.ShortHelp(), m.panes[m.active].Help()...)
	if m.panes[m.active].detailOpen() {
		bindings = detailHints(m.ctx.Keys)
	}
	return fitLine(m.help.ShortHelpView(bindings), w), true
}

// detailHints are the keys of the detail view (and of a Stream record's
// comparison), not the list's it covers: enter, / and v do nothing there.
func detailHints(km keymap.Map) []key.Binding {
	back := key.NewBinding(key.WithKeys(km.Back.Keys()...), key.WithHelp(km.Back.Help().Key, "back to the list"))
	return []key.Binding{km.Up, km.Down, km.PageDown, km.Copy, km.Reveal, back, km.Help, km.Quit}
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// inputStyles dress the command and filter lines: escapes of characters
// made inert in the warning colour, underlined, so they read as escapes.
func (m Model) inputStyles() lineedit.Styles {
	st := lineedit.DefaultStyles()
	st.Escaped = m.ctx.Theme.Warn.Underline(true)
	return st
}

// paneKeyLabel is the key that shows pane s, as bound (the first key of
// its binding; the registry's default when it has none).
func (m Model) paneKeyLabel(s views.PaneSpec) string {
	if b := m.ctx.Keys.Binding(paneKey(s).Name); b != nil && len(b.Keys()) > 0 {
		return b.Keys()[0]
	}
	return s.DefaultKey
}

// alerts is the status bar's alert badge, from any pane: "! 2 alerts:
// sandboxes.available 3 (< 5) +1". The "!" says it without colour.
func (m Model) alerts() string {
	var all []string
	for _, p := range m.panes {
		if p.alerts != nil {
			all = append(all, p.alerts.Alerts()...)
		}
	}
	switch len(all) {
	case 0:
		return ""
	case 1:
		return "! " + all[0]
	}
	return "! " + strconv.Itoa(len(all)) + " alerts: " + all[0] + " +" + strconv.Itoa(len(all)-1)
}

// filterHint is shown beside an empty filter line: the grammar in brief.
const filterHint = "text  !text  ~regex  field=value  field!=value  field~regex"

// filterLine is the filter prompt; beside it, the error that keeps the
// expression from applying (the rows stay as they were), or the grammar
// while nothing is typed.
func (m Model) filterLine(w int) string {
	th := m.ctx.Theme
	note, style := "", th.Muted
	switch {
	case m.filterErr != "":
		note, style = "✗ "+m.filterErr+" (enter keeps the prompt; esc clears)", th.Error
	case m.input.Value() == "":
		note = filterHint
	}
	if note == "" {
		return fitLine(th.Key.Render("/")+m.input.View(max(w-1, 1), m.inputStyles()), w)
	}
	// The expression keeps at least half the line; the note takes the rest.
	inW := max(lipgloss.Width(inert.String(m.input.Value()))+2, 12)
	inW = min(inW, max(w/2, 1))
	noteW := max(w-1-inW-2, 1)
	return fitLine(th.Key.Render("/")+m.input.View(inW, m.inputStyles())+"  "+style.Render(inert.Line(note, noteW)), w)
}
