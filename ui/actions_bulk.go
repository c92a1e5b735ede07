package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data/action"
	"opsdeck/data/secret"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// bulkDialog shows a bulk action while it runs (a progress bar; esc or
// ctrl+c stops before the next row) and then its summary: every row under
// succeeded, guard failed, outcome unknown or error, each with its message.
// An unknown outcome is never filed as an error: the write may have been
// applied, and the operator must check those rows, not retry them blind.
type bulkDialog struct {
	req         uint64
	title       string
	done, total int
	stopping    bool   // the operator asked to stop: no row after the current one
	quitNote    string // a quit waits for the current row (quit_drain.go): what it says
	finished    bool
	sum         action.BulkSummary
	theme       themes.Theme
	keys        keymap.Map
	under       func() string
	scroll      int
}

func newBulkDialog(req uint64, title string, total int, th themes.Theme, km keymap.Map, under func() string) *bulkDialog {
	return &bulkDialog{req: req, title: title, total: total, theme: th, keys: km, under: under, sum: action.BulkSummary{Total: total}}
}

// record files one row's result, exactly once, under the list it belongs to.
func (d *bulkDialog) record(r action.Result) {
	d.sum.Add(r)
	d.done = d.sum.Done()
}

func (d *bulkDialog) finish() { d.finished = true }

// Running reports whether the bulk action is still writing.
func (d *bulkDialog) Running() bool { return !d.finished }

func (d *bulkDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	km := d.keys
	switch {
	case key.Matches(k, km.Up, km.LineUp):
		d.scroll = max(d.scroll-1, 0)
		return d, nil
	case key.Matches(k, km.Down, km.LineDown):
		d.scroll++
		return d, nil
	}
	if !d.finished {
		// The dialog stays until the summary: the operator must see what
		// was done before and after stopping.
		if key.Matches(k, km.Dismiss) {
			d.stopping = true
		}
		return d, nil
	}
	// Any answer closes the summary (confirm and deny included: they may
	// be what the operator's fingers reach for).
	if key.Matches(k, km.Dismiss, km.Submit, km.Quit, km.Deny, km.Confirm) {
		return nil, nil
	}
	return d, nil
}

func (d *bulkDialog) View(width, height int) string {
	th := d.theme
	inner := dialogInner(width)
	var body, foot []string
	if !d.finished {
		body = append(body, th.Title.Render(inert.Line(fmt.Sprintf("%s: %d of %d rows", d.title, d.done, d.total), inner)))
		pct := 0.0
		if d.total > 0 {
			pct = float64(d.done) / float64(d.total)
		}
		bar := progress.New(progress.WithWidth(max(inner-6, 5)), progress.WithColors(lipgloss.Color("#5FAFFF")))
		body = append(body, bar.ViewAs(pct))
		if d.quitNote != "" {
			foot = append(foot, th.Warn.Render(inert.Line(d.quitNote, inner)))
		} else if d.stopping {
			foot = append(foot, th.Warn.Render(inert.Line("stopping after the current row…", inner)))
		} else {
			foot = append(foot, th.Muted.Render(inert.Line("rows are written one after another, each with its own guard — esc stops after the current row", inner)))
		}
		return overlay(d.under, frameBox(d.title, body, foot, inner, height, &d.scroll, th), width, height, th)
	}
	s := d.sum
	head := fmt.Sprintf("%d rows: %d succeeded, %d guard failed", s.Total, len(s.Succeeded), len(s.GuardFailed))
	if n := len(s.Unknown); n > 0 {
		head += fmt.Sprintf(", %d outcome unknown", n)
	}
	head += fmt.Sprintf(", %d errors", len(s.Errors))
	body = append(body, th.Title.Render(inert.Line(head, inner)))
	section := func(name string, st lipgloss.Style, rs []action.Result) {
		if len(rs) == 0 {
			return
		}
		body = append(body, "", th.Header.Render(inert.Line(fmt.Sprintf("%s (%d)", name, len(rs)), inner)))
		for _, r := range rs {
			msg, _ := secret.Text(resultLine(r))
			if r.AuditErr != nil {
				msg += " (audit log not written: " + r.AuditErr.Error() + ")"
			}
			body = append(body, "  "+th.Key.Render(inert.Line(maskedTarget(r.Plan.Target), inner-2)))
			body = append(body, indent(wrapStyled(st, msg, inner-6), "      ")...)
		}
	}
	section("Succeeded", th.OK, s.Succeeded)
	section("Guard failed", th.Error, s.GuardFailed)
	section("Outcome unknown — check these rows", th.Warn, s.Unknown)
	section("Errors", th.Error, s.Errors)
	foot = append(foot, "", th.Muted.Render(inert.Line("esc/enter closes · ↑/↓ scroll", inner)))
	title := d.title
	if title == "" {
		title = "Bulk action"
	}
	return overlay(d.under, frameBox(title+" — summary", body, foot, inner, height, &d.scroll, th), width, height, th)
}

func indent(lines []string, pad string) []string {
	for i := range lines {
		lines[i] = pad + lines[i]
	}
	return lines
}

// Hints is the footer line while the dialog is open.
func (d *bulkDialog) Hints() string {
	if d.finished {
		return "esc/enter close · ↑/↓ scroll"
	}
	if d.quitNote != "" {
		return d.quitNote
	}
	if d.stopping {
		return "stopping after the current row…"
	}
	return "esc stop after the current row"
}
