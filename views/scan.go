package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"opsdeck/data"
)

// The explicit Scan's place in the panes. A scan is never a scope a pane
// falls into: the root runs data.Store.ScanTable only after the operator
// confirmed its cost, then hands the items here. The pane shows them in a
// list of their own, on top of its query lists, with the same columns, sort,
// filter and detail view; choosing any query scope (a command, a sub-view)
// drops the scan list again.

// ScanPane is the pane that shows the scan of table (the Wallcrawler
// projects, which no pane lists, go to Sessions).
func ScanPane(table data.TableID) (PaneID, bool) { return PaneOf(table) }

// ScanResult is a finished or stopped scan, as the pane shows it.
type ScanResult struct {
	Table data.TableID
	Items []data.Item
	// Partial: the scan stopped before reading the whole table (Reason
	// says why: "cancelled" or the error line). The items read are kept.
	Partial  bool
	Reason   string
	Consumed float64 // read capacity the scan consumed, in RCUs
	Segments int
	Estimate int64 // DescribeTable's approximate item count; 0 unknown
	// Filter is the scan's one FilterExpression term (Attr "" for none):
	// the list then holds only the matches, and the live tail keeps only
	// rows that still match.
	Filter data.Cond
	// Where is the comparison terms of `:scan NAME TERMS…` as a scope
	// (data.PlanScan: Table and Terms); zero for none. The list's scope
	// holds them, so the live tail keeps only rows that still match.
	Where data.Scope
}

// ScanTarget is the table the shown list reads: the one `S` offers to scan.
func (b *base) ScanTarget() (data.TableID, bool) {
	l := b.active()
	if l.hasScope && l.scope.Table != "" {
		return l.scope.Table, true
	}
	// Before a list has a scope (Runs before a user is chosen), the
	// table its presenter shows.
	return l.pr.table, l.pr.table != ""
}

// ShowScan shows a scan's items in a list of their own and makes it the
// shown list. The rows are decoded and rendered exactly as a query's.
func (b *base) ShowScan(r ScanResult) {
	pr, ok := presenterOf(r.Table)
	if !ok {
		return
	}
	b.showScanWith(pr, r)
}

// showScanWith shows a scan's items with presenter pr.
func (b *base) showScanWith(pr presenter, r ScanResult) {
	if b.scan != nil {
		b.scan.stop()
	}
	l := newList(b.ctx, b.id, pr)
	// The whole table is the scope, so the live tail keeps the rows current;
	// there is no fetch: `r` must not re-scan silently (the root asks again).
	l.scope, l.hasScope = data.Scope{Table: r.Table, Filter: [2]data.Cond{r.Filter}, Terms: r.Where.Terms}, true
	recs := make([]data.Record, 0, len(r.Items))
	for _, it := range r.Items {
		if rec := data.Decode(r.Table, it); rec != nil {
			recs = append(recs, rec)
		}
	}
	// The items enter through the same path as a query's last page, so
	// they are stored, rendered and marked exactly like query rows.
	l.ld.lctx, l.ld.cancel = context.WithCancel(context.Background())
	l.ld.req, l.ld.started = reqSeq.Add(1), true
	l.onPage(pageMsg{pane: b.id, req: l.ld.req, fresh: true, res: fetched{recs: recs, consumed: r.Consumed}})
	rows := l.table.Len()
	l.note = scanNote(r, rows)
	b.scan, b.scanResult = l, r
	b.scanResult.Items = nil // the list holds them; keep no second copy
	l.setSize(b.w, b.tableHeight())
	l.refreshEmpty()
}

// ShownScan is the scan shown now (without its items), if any.
func (b *base) ShownScan() (ScanResult, bool) {
	if b.scan == nil {
		return ScanResult{}, false
	}
	return b.scanResult, true
}

// ScanTitle is the pane title while a scan is shown: it must never pass
// for a query scope, so it says "scan", the table when the pane usually
// shows another one, and whether all items were read.
func (b *base) ScanTitle() (string, bool) {
	if b.scan == nil {
		return "", false
	}
	r := b.scanResult
	what := "scan"
	if b.lists[0].pr.table != r.Table {
		what += " of " + TableName(r.Table)
	}
	n := b.scan.table.Len()
	if r.Partial {
		of := ""
		if r.Estimate > 0 {
			of = " of ~" + strconv.FormatInt(r.Estimate, 10)
		}
		return fmt.Sprintf("%s · %s (PARTIAL: %d%s items, %s)", b.id.Name(), what, n, of, r.Reason), true
	}
	if r.Filter.Attr != "" {
		// Every item was read; only the matches are listed.
		return fmt.Sprintf("%s · %s (all items read, %d where %s contains %s)", b.id.Name(), what, n, r.Filter.Attr, r.Filter.Value), true
	}
	if f := WhereText(r.Where); f != "" {
		return fmt.Sprintf("%s · %s (all items read, %d where %s)", b.id.Name(), what, n, f), true
	}
	return fmt.Sprintf("%s · %s (all items, %d)", b.id.Name(), what, n), true
}

// scanNote is the status-bar line under a scan result.
func scanNote(r ScanResult, rows int) string {
	rcu := strconv.FormatFloat(r.Consumed, 'f', -1, 64)
	what := TableName(r.Table)
	if r.Filter.Attr != "" {
		what += " where " + r.Filter.Attr + " contains " + r.Filter.Value
	}
	if f := WhereText(r.Where); f != "" {
		what += " where " + f
	}
	if r.Partial {
		return fmt.Sprintf("partial scan of %s (%s): %d items kept, %s RCU consumed — r scans again (asks first)", what, r.Reason, rows, rcu)
	}
	return fmt.Sprintf("scan of %s: %d items, %s RCU consumed — r scans again (asks first)", what, rows, rcu)
}

// WhereText is the filter of a scope's comparison terms as its plan
// says it ("total > 100 and ttl < 1700000000"); "" for none.
func WhereText(sc data.Scope) string {
	if sc.Terms == "" {
		return ""
	}
	_, f, _ := strings.Cut(sc.Plan(), " · filter ")
	return f
}

// TableName is how a table is named to the operator: a modeled table by
// its id, any other by its physical name.
func TableName(t data.TableID) string {
	if data.IsUnmodeled(t) {
		return physicalOf(t)
	}
	return string(t)
}

// dropScan leaves the scan result: a query scope was chosen.
func (b *base) dropScan() {
	if b.scan != nil {
		b.scan.stop()
	}
	b.scan, b.scanResult = nil, ScanResult{}
	if b.h > 0 {
		// The header (Sessions' quota) comes back and takes its line.
		th := b.tableHeight()
		for _, l := range b.lists {
			l.setSize(b.w, th)
		}
	}
}
