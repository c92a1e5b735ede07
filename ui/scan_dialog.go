package ui

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// scanDialog is the scan's one modal, in three states: waiting for the
// estimate, asking (default No), and running with a progress bar. It closes
// when the scan ends (the root shows the items) or when answered No.
type scanDialog struct {
	req      uint64
	table    data.TableID
	physical string
	segments int
	filter   data.Cond  // one FilterExpression term; Attr "" for none
	where    data.Scope // the comparison terms as a filter (PlanScan); zero for none
	// timeout bounds each call of the scan (every page): a page that gets
	// no answer within it ends the scan, keeping what was read.
	timeout time.Duration

	state  scanState
	est    data.ScanEstimate
	estErr string

	// cancel stops the estimate, then the scan; the context is the one
	// the running Cmd uses.
	cancel     context.CancelFunc
	cancelling bool
	prog       data.ScanProgress

	store               *data.Store
	confirm, deny, stop key.Binding
	dialogKeys
	theme  themes.Theme
	under  func() string
	scroll int
	// w, h are the area the dialog is drawn in (set by the root before
	// every message): y is refused while the question does not show.
	w, h    int
	refused string
}

// SetSize is the area the dialog is drawn in.
func (d *scanDialog) SetSize(w, h int) { d.w, d.h = w, h }

// askFoot is the question the asking state shows under its body.
func (d *scanDialog) askFoot(inner int) []string {
	th := d.theme
	foot := []string{""}
	if d.refused != "" {
		foot = append(foot, wrapStyled(th.Error, d.refused, inner)...)
	}
	return append(foot, wrapStyled(th.Title, "Run the scan? y yes · n/esc no (default No)", inner)...)
}

// fits: the question and a line of the cost show in width × height.
func (d *scanDialog) fits(width, height int) bool {
	return questionFits(width, height, len(d.askFoot(dialogInner(width))))
}

type scanState int

const (
	scanEstimating scanState = iota
	scanAsking
	scanRunning
)

func (d *scanDialog) estimated(est data.ScanEstimate, err error) {
	d.est, d.state = est, scanAsking
	if err != nil {
		d.estErr = data.Describe(err)
	}
}

// Running reports whether a scan is reading (the root keeps the dialog).
func (d *scanDialog) Running() bool { return d.state == scanRunning }

func (d *scanDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	req := d.req
	closed := func() tea.Msg { return scanClosedMsg{req: req} }
	switch d.state {
	case scanEstimating:
		if key.Matches(k, d.deny) || key.Matches(k, d.stop) {
			d.cancel()
			return nil, closed
		}
	case scanAsking:
		d.refused = ""
		switch {
		case key.Matches(k, d.confirm) && (!d.fits(d.w, d.h) || k.IsRepeat):
			// A scan bills the whole table: its cost must have been seen.
			d.refused = "the question cannot be seen: enlarge the terminal to answer"
			if k.IsRepeat {
				d.refused = "a held key does not answer: release it and press y again"
			}
		case key.Matches(k, d.confirm):
			d.cancel() // the estimate's context; the scan gets its own
			ctx, cancel := context.WithCancel(context.Background())
			d.cancel, d.state = cancel, scanRunning
			d.prog = data.ScanProgress{Total: d.est.ItemCount, Segments: d.segments}
			return d, startScan(ctx, d.store, d.table, data.ScanOptions{Segments: d.segments, CallTimeout: d.timeout, Filter: d.filter, Where: d.where}, d.req)
		case key.Matches(k, d.deny), key.Matches(k, d.stop), key.Matches(k, d.submit):
			// Default No: enter without a y does not scan.
			d.cancel()
			return nil, closed
		case key.Matches(k, d.up):
			d.scroll = max(d.scroll-1, 0)
		case key.Matches(k, d.down):
			d.scroll++
		}
	case scanRunning:
		if key.Matches(k, d.deny) || key.Matches(k, d.stop) {
			// The dialog stays until the scan goroutine returns what it
			// read; the root then shows it as partial.
			d.cancel()
			d.cancelling = true
		}
	}
	return d, nil
}

func (d *scanDialog) View(width, height int) string {
	th := d.theme
	inner := dialogInner(width)
	var body, foot []string
	add := func(lines ...string) { body = append(body, lines...) }
	kv := func(k, v string) string {
		return th.StatusKey.Render(inert.Pad(k, 12)) + inert.Line(v, max(inner-12, 1))
	}
	if data.IsUnmodeled(d.table) {
		add(kv("Table", d.physical))
	} else {
		add(kv("Table", string(d.table)+" ("+d.physical+")"))
	}
	add(kv("Segments", strconv.Itoa(d.segments)+" parallel"))
	if d.filter.Attr != "" {
		// The filter narrows what comes back, not what is read: the cost
		// below is the whole table's either way.
		add(kv("Filter", "contains("+d.filter.Attr+", "+d.filter.Value+")"))
		add(wrapStyled(th.Muted, "Only matching items come back, but DynamoDB reads and bills every item of the table.", inner)...)
	}
	if f := whereText(d.where); f != "" {
		add(kv("Filter", f))
		add(wrapStyled(th.Muted, "Only matching items come back, but DynamoDB reads and bills every item of the table.", inner)...)
	}
	title := "Scan " + views.TableName(d.table) + "?"
	switch d.state {
	case scanEstimating:
		add("", th.Muted.Render(inert.Line("asking DynamoDB for the table's size (DescribeTable)…", inner)))
		foot = append(foot, "", th.Muted.Render(inert.Line("esc cancels", inner)))
	case scanAsking:
		if d.estErr != "" {
			add(wrapStyled(th.Warn, "cost unknown: the estimate failed ("+d.estErr+")", inner)...)
		} else {
			add(kv("Items", "approx. "+strconv.FormatInt(d.est.ItemCount, 10)))
			add(kv("Size", "approx. "+byteSize(d.est.SizeBytes)))
			add(kv("Read cost", "≈ "+formatRCU(d.est.RCUs)+" RCU (eventually consistent, whole table)"))
			add(wrapStyled(th.Muted, "Item count and size come from DescribeTable, which AWS refreshes about every six hours.", inner)...)
		}
		add("")
		add(wrapStyled(th.Warn, "A Scan reads and bills every item of the table. Queries never do this; only this dialog does.", inner)...)
		if !d.fits(width, height) {
			return tooSmall(title, width, height, th)
		}
		foot = d.askFoot(inner)
	case scanRunning:
		title = "Scanning " + views.TableName(d.table)
		p := d.prog
		bar := progress.New(progress.WithWidth(max(min(inner-8, 60), 5)), progress.WithoutPercentage(),
			progress.WithColors(lipgloss.Color("#5FAFFF")))
		pct := "…"
		if p.Fraction > 0 {
			pct = "~" + strconv.Itoa(int(p.Fraction*100)) + "%"
		}
		add("", bar.ViewAs(p.Fraction)+" "+pct)
		total := "?"
		if p.Total > 0 {
			total = "~" + strconv.FormatInt(p.Total, 10)
		}
		add(kv("Read", fmt.Sprintf("%d items of %s", p.Items, total)))
		add(kv("Scanned", strconv.FormatInt(p.Scanned, 10)))
		add(kv("Consumed", formatRCU(p.Consumed)+" RCU"))
		add(kv("Segments", fmt.Sprintf("%d of %d done", p.SegmentsDone, d.segments)))
		if d.cancelling {
			foot = append(foot, "", th.Warn.Render(inert.Line("stopping… the items read so far will be shown (partial)", inner)))
		} else {
			foot = append(foot, "", th.Muted.Render(inert.Line("esc / ctrl+c stops the scan and keeps what was read", inner)),
				th.Muted.Render(inert.Line("a page with no answer within "+d.timeout.String()+" ends the scan the same way", inner)))
		}
	}
	return overlay(d.under, frameBox(title, body, foot, inner, height, &d.scroll, th), width, height, th)
}

// Hints is the footer while the dialog is open.
func (d *scanDialog) Hints() string {
	switch d.state {
	case scanAsking:
		if !d.fits(d.w, d.h) {
			return "enlarge the terminal: too small to show this question, so it cannot be answered · esc cancels"
		}
		return "y scan · n/esc cancel (default No)"
	case scanRunning:
		if d.cancelling {
			return "stopping the scan…"
		}
		return "esc/ctrl+c stop the scan (keeps what was read)"
	}
	return "esc cancel"
}

// formatRCU prints capacity units the way the status bar does.
func formatRCU(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// byteSize is a size in B, KB, MB or GB (powers of 1024, as DynamoDB bills).
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, i := float64(n), -1
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + []string{"KB", "MB", "GB", "TB"}[i]
}
