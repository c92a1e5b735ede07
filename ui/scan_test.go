package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// scanGate is an http.RoundTripper in front of the real server that records
// every Scan request's segment, and can hold Scan requests after the first
// `pass` ones until their context ends (to stop a scan midway for certain).
type scanGate struct {
	mu       sync.Mutex
	scans    []scanCall
	ops      []string
	pass     int // Scan requests let through before holding; <0 holds none
	released chan struct{}
}

type scanCall struct{ Segment, TotalSegments int }

func (g *scanGate) RoundTrip(req *http.Request) (*http.Response, error) {
	op := req.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	g.mu.Lock()
	g.ops = append(g.ops, op)
	hold := false
	if op == "Scan" {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			g.mu.Unlock()
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		var in struct{ Segment, TotalSegments int }
		_ = json.Unmarshal(body, &in)
		g.scans = append(g.scans, scanCall(in))
		hold = g.pass >= 0 && len(g.scans) > g.pass
	}
	g.mu.Unlock()
	if hold {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	return http.DefaultTransport.RoundTrip(req)
}

func (g *scanGate) scanCalls() []scanCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]scanCall(nil), g.scans...)
}

func (g *scanGate) opsSeen() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.ops...)
}

// awaitMsg runs one Cmd with a deadline (a scan that never answers fails the
// test instead of hanging it).
func awaitMsg(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	if cmd == nil {
		t.Fatal("expected a command, got nil")
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		return msg
	case <-time.After(60 * time.Second):
		t.Fatal("the command did not answer within 60s")
	}
	return nil
}

func TestParseScanCommand(t *testing.T) {
	ok := []struct {
		line  string
		table string
		segs  int
	}{
		{"scan projects", "projects", 1},
		{"scan Sandboxes segments=4", "sandboxes", 4},
		{"scan api-keys SEGMENTS=64", "api-keys", 64},
		{"scan graph-runs segments=1", "graph-runs", 1},
		// A name no pane models is a physical table name, described
		// when the scan runs; a word with an operator is a filter term.
		{"scan nope", "nope", 1},
		{"scan projects status=ACTIVE", "projects", 1},
	}
	for _, c := range ok {
		cmd, err := ParseCommand(c.line)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if cmd.Verb != VerbScan || cmd.Arg != c.table || scanSegments(cmd.Args) != c.segs {
			t.Fatalf("%q parsed as %+v", c.line, cmd)
		}
	}
	bad := []struct{ line, want string }{
		{"scan", "needs an argument"},
		{"scan no/such", `unknown table "no/such"`},
		{"scan projects segments=0", "segments=0 is out of range: use 1 to 64"},
		{"scan projects segments=65", "segments=65 is out of range: use 1 to 64"},
		{"scan projects segments=two", `got "two"`},
		{"scan projects segments=", "needs a value"},
		{"scan projects sessions", "too many arguments"},
		{"scan projects status", "too many arguments"},
		{"scan projects total>now-1x", "unit must be"},
		{"scan projects segments=2 segments=3", "given twice"},
		{"scan \x1b]52;c;aGk=\x07", `\x1b`},
	}
	for _, c := range bad {
		_, err := ParseCommand(c.line)
		if err == nil {
			t.Fatalf("%q: no error", c.line)
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), ":scan <table> [segments=N]") {
			t.Fatalf("%q: error %q, want it to contain %q and the usage", c.line, err, c.want)
		}
		if strings.ContainsRune(err.Error(), '\x1b') {
			t.Fatalf("%q: error carries a raw escape: %q", c.line, err)
		}
	}
}

func TestCompleteScanTables(t *testing.T) {
	got := Complete("scan ", nil)
	var want []string
	for _, id := range data.TableIDs() {
		want = append(want, "scan "+string(id))
	}
	want = append(want, "scan projectids=", "scan segments=")
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("completions of \"scan \": %q, want %q", got, want)
	}
	if got := Complete("scan sa", nil); len(got) != 1 || got[0] != "scan sandboxes" {
		t.Fatalf("completions of \"scan sa\": %q", got)
	}
	if got := Complete("sc", nil); len(got) != 1 || got[0] != "scan" {
		t.Fatalf("completions of \"sc\": %q", got)
	}
}

// TestScanDialogShowsCostAndNoSendsNoScan: :scan opens a dialog with
// DescribeTable's figures; every way of saying no (n, esc, a bare enter,
// ctrl+c) closes it without a single Scan request.
func TestScanDialogShowsCostAndNoSendsNoScan(t *testing.T) {
	w := seeded(t)
	st := data.NewStore(w.conn, w.tables)
	est, err := st.EstimateScan(context.Background(), data.TableProjects)
	if err != nil {
		t.Fatal(err)
	}
	if est.ItemCount == 0 {
		t.Fatal("the seeded projects table reports no items: the estimate cannot be checked")
	}
	for _, no := range []string{"n", "esc", "enter", "ctrl+c"} {
		t.Run(no, func(t *testing.T) {
			gate := &scanGate{pass: -1}
			o := w.withClient(t, gate)
			o.ReadOnly = true // scans are reads: allowed in read-only mode
			m := start(t, o, 120, 40)
			m, _ = runLine(t, m, "scan projects")
			if m.Mode() != "dialog" {
				t.Fatalf("mode %s after :scan, want dialog; flash %q", m.Mode(), m.Flash())
			}
			out := screen(m, w.prefix)
			for _, want := range []string{
				"Scan projects?",
				"approx. " + strconv.FormatInt(est.ItemCount, 10),
				"approx. " + byteSize(est.SizeBytes),
				"≈ " + formatRCU(est.RCUs) + " RCU (eventually consistent",
				"1 parallel",
				"which AWS refreshes about every six",
				"default No",
			} {
				if !strings.Contains(out, want) {
					t.Fatalf("dialog lacks %q:\n%s", want, out)
				}
			}
			checkFrame(t, out, 120, 40)
			m, _ = press(t, m, no)
			if m.Mode() != "normal" {
				t.Fatalf("mode %s after %s, want normal", m.Mode(), no)
			}
			if !strings.Contains(m.Flash(), "scan not run") {
				t.Fatalf("flash %q after %s", m.Flash(), no)
			}
			if calls := gate.scanCalls(); len(calls) != 0 {
				t.Fatalf("%d Scan requests after answering %s", len(calls), no)
			}
			if !slices.Contains(gate.opsSeen(), "DescribeTable") {
				t.Fatalf("the estimate was not asked for: %v", gate.opsSeen())
			}
			if _, shown := m.slotOf(views.PaneSessions).scan.ShownScan(); shown {
				t.Fatal("a scan result is shown although nothing was scanned")
			}
		})
	}
}

// TestScanConfirmedReadsEveryItem: y runs a Scan with the requested
// segments; every item lands in the pane for the table, under a title that
// says scan; r asks again instead of re-scanning; a query scope replaces it.
func TestScanConfirmedReadsEveryItem(t *testing.T) {
	w := seeded(t)
	gate := &scanGate{pass: -1}
	m := start(t, w.withClient(t, gate), 120, 40)
	want := w.rep.Counts[data.TableSandboxes]
	if want < 2 {
		t.Fatalf("seed wrote %d sandboxes; the test needs several", want)
	}

	m, _ = runLine(t, m, "scan sandboxes segments=3")
	if !strings.Contains(screen(m, w.prefix), "3 parallel") {
		t.Fatalf("dialog does not show the segments:\n%s", screen(m, w.prefix))
	}
	m, _ = press(t, m, "y")
	if m.Mode() != "normal" {
		t.Fatalf("mode %s after the scan ended, want normal", m.Mode())
	}
	segs := map[int]bool{}
	for _, c := range gate.scanCalls() {
		if c.TotalSegments != 3 {
			t.Fatalf("Scan request with TotalSegments %d, want 3", c.TotalSegments)
		}
		segs[c.Segment] = true
	}
	if len(segs) != 3 || !segs[0] || !segs[1] || !segs[2] {
		t.Fatalf("segments scanned: %v, want 0, 1 and 2", segs)
	}
	if m.Active() != views.PaneSandboxes {
		t.Fatalf("active pane %v after scanning sandboxes", m.Active())
	}
	p := m.slotOf(views.PaneSandboxes)
	if got := p.Status().Rows; got != want {
		t.Fatalf("%d rows after the scan, the seed wrote %d", got, want)
	}
	out := screen(m, w.prefix)
	checkFrame(t, out, 120, 40)
	title := fmt.Sprintf("Sandboxes · scan (all items, %d)", want)
	if !strings.Contains(out, title) {
		t.Fatalf("title %q not on screen:\n%s", title, out)
	}
	// The status bar reports what the scan consumed.
	consumed := p.Status().Consumed
	if consumed <= 0 || !strings.Contains(out, "last "+formatRCU(consumed)+" RCU") {
		t.Fatalf("status bar lacks the scan's consumed capacity %v:\n%s", consumed, out)
	}
	if !strings.Contains(m.Flash(), fmt.Sprintf("scan of sandboxes: %d items", want)) {
		t.Fatalf("flash %q", m.Flash())
	}
	// Rows of every status, not only the default status=available scope.
	if !strings.Contains(out, "allocated") || !strings.Contains(out, "available") {
		t.Fatalf("scan rows lack some statuses:\n%s", out)
	}

	// The detail view works on scan rows as on query rows.
	m, _ = press(t, m, "enter")
	if !p.marks.DetailOpen() {
		t.Fatal("enter on a scan row opened no detail view")
	}
	m, _ = press(t, m, "esc")

	// r never re-scans silently: it opens the dialog again.
	before := len(gate.scanCalls())
	m, _ = press(t, m, "r")
	if m.Mode() != "dialog" || !strings.Contains(screen(m, w.prefix), "3 parallel") {
		t.Fatalf("r on a scan result: mode %s\n%s", m.Mode(), screen(m, w.prefix))
	}
	m, _ = press(t, m, "n")
	if got := len(gate.scanCalls()); got != before {
		t.Fatalf("r then n sent %d Scan requests", got-before)
	}
	if !strings.Contains(screen(m, w.prefix), title) {
		t.Fatal("declining the re-scan dropped the scan result")
	}

	// Choosing a query scope leaves the scan.
	m, _ = runLine(t, m, "sandboxes status=allocated")
	if strings.Contains(screen(m, w.prefix), "scan (") || !strings.Contains(p.Title(), "status allocated") {
		t.Fatalf("after :sandboxes the title still says scan:\n%s", screen(m, w.prefix))
	}
	if got := len(gate.scanCalls()); got != before {
		t.Fatalf(":sandboxes sent %d Scan requests", got-before)
	}
}

// TestScanProjectsAndKey: S in the Sessions pane offers its table; the
// projects (no pane lists them) land in Sessions, titled as a scan.
func TestScanProjectsAndKey(t *testing.T) {
	w := seeded(t)
	gate := &scanGate{pass: -1}
	o := w.withClient(t, gate)
	o.ReadOnly = true // S and y work in read-only mode: a scan is a read
	m := start(t, o, 120, 40)

	m, _ = press(t, m, "S")
	if m.Mode() != "dialog" || !strings.Contains(screen(m, w.prefix), "Scan sessions?") {
		t.Fatalf("S on the Sessions pane:\n%s", screen(m, w.prefix))
	}
	m, _ = press(t, m, "esc")
	m, _ = press(t, m, "5", "S")
	if !strings.Contains(screen(m, w.prefix), "Scan sandboxes?") {
		t.Fatalf("S on the Sandboxes pane:\n%s", screen(m, w.prefix))
	}
	m, _ = press(t, m, "n")
	if n := len(gate.scanCalls()); n != 0 {
		t.Fatalf("%d Scan requests before any y", n)
	}

	m, _ = runLine(t, m, "scan projects")
	m, _ = press(t, m, "y")
	want := w.rep.Counts[data.TableProjects]
	if m.Active() != views.PaneSessions {
		t.Fatalf("projects scan shown on pane %v", m.Active())
	}
	out := screen(m, w.prefix)
	checkFrame(t, out, 120, 40)
	if title := fmt.Sprintf("Sessions · scan of projects (all items, %d)", want); !strings.Contains(out, title) {
		t.Fatalf("title %q not on screen:\n%s", title, out)
	}
	if !strings.Contains(out, "PROJECT") || !strings.Contains(out, "QUOTA") {
		t.Fatalf("projects columns missing:\n%s", out)
	}
	for _, id := range w.rep.Projects[:min(3, len(w.rep.Projects))] {
		if !strings.Contains(out, id) {
			t.Fatalf("project %s not listed:\n%s", id, out)
		}
	}
	// The filter narrows scan rows like query rows.
	m, _ = press(t, m, "/")
	m = typeText(t, m, w.rep.Projects[0])
	m, _ = press(t, m, "enter")
	if v := m.slotOf(views.PaneSessions).Status().Visible; v < 1 || v >= want {
		t.Fatalf("filter on %q leaves %d of %d rows", w.rep.Projects[0], v, want)
	}
	// The sub-view key leaves the scan for the query lists.
	m, _ = press(t, m, "esc", "v")
	if _, shown := m.slotOf(views.PaneSessions).scan.ShownScan(); shown || strings.Contains(screen(m, w.prefix), "Sessions · scan") {
		t.Fatalf("v did not leave the scan result:\n%s", screen(m, w.prefix))
	}
	if !strings.HasPrefix(paneTitle(m.slotOf(views.PaneSessions)), "API keys · project ") {
		t.Fatalf("after v the title is %q", paneTitle(m.slotOf(views.PaneSessions)))
	}
}

// TestScanCancelledMidwayKeepsPartial: esc while segments are still
// reading cancels the scan; what was read is shown, labelled partial.
func TestScanCancelledMidwayKeepsPartial(t *testing.T) {
	w := seeded(t)
	total := w.rep.Counts[data.TableSandboxes]
	gate := &scanGate{pass: 1} // one segment reads, the other waits
	m := start(t, w.withClient(t, gate), 120, 40)
	m, _ = runLine(t, m, "scan sandboxes segments=2")
	if m.Mode() != "dialog" {
		t.Fatalf("mode %s", m.Mode())
	}
	nm, cmd := m.Update(keyMsg("y"))
	m = nm.(Model)
	msg := awaitMsg(t, cmd)
	prog, ok := msg.(scanProgressMsg)
	if !ok {
		t.Fatalf("first message of a held scan is %T, want progress", msg)
	}
	nm, cmd = m.Update(prog)
	m = nm.(Model)
	out := screen(m, w.prefix)
	for _, want := range []string{"Scanning sandboxes", fmt.Sprintf("%d items of ~", prog.p.Items), "Consumed", "1 of 2 done", "esc / ctrl+c stops", "░"} {
		if !strings.Contains(out, want) {
			t.Fatalf("progress dialog lacks %q:\n%s", want, out)
		}
	}

	nm, _ = m.Update(keyMsg("esc"))
	m = nm.(Model)
	if !strings.Contains(screen(m, w.prefix), "stopping") {
		t.Fatalf("after esc the dialog does not say it is stopping:\n%s", screen(m, w.prefix))
	}
	var done scanDoneMsg
	for {
		msg := awaitMsg(t, cmd)
		nm, cmd = m.Update(msg)
		m = nm.(Model)
		if d, ok := msg.(scanDoneMsg); ok {
			done = d
			break
		}
	}
	if !data.IsCancelled(done.err) {
		t.Fatalf("scan ended with %v, want cancelled", done.err)
	}
	if m.Mode() != "normal" {
		t.Fatalf("mode %s after the scan stopped", m.Mode())
	}
	rows := m.slotOf(views.PaneSandboxes).Status().Rows
	if int64(rows) != prog.p.Items || rows >= total {
		t.Fatalf("%d rows kept; the first segment read %d of %d", rows, prog.p.Items, total)
	}
	if rows == 0 {
		t.Fatal("the passed segment read nothing: the partial result cannot be checked")
	}
	out = screen(m, w.prefix)
	checkFrame(t, out, 120, 40)
	if title := fmt.Sprintf("Sandboxes · scan (PARTIAL: %d of ~", rows); !strings.Contains(out, title) || !strings.Contains(out, "cancelled)") {
		t.Fatalf("partial title missing (%q):\n%s", title, out)
	}
	if !strings.Contains(m.Flash(), "PARTIAL scan of sandboxes (cancelled)") {
		t.Fatalf("flash %q", m.Flash())
	}
	if n := len(gate.scanCalls()); n != 2 {
		t.Fatalf("%d Scan requests, want 2 (one per segment)", n)
	}
}

// TestBrowsingNeverScans walks every pane, sub-view and key that loads,
// and runs every command except :scan: not one Scan request is sent.
func TestBrowsingNeverScans(t *testing.T) {
	w := seeded(t)
	gate := &scanGate{pass: -1}
	m := start(t, w.withClient(t, gate), 120, 40)
	d := w.rep.Defaults

	for _, p := range []string{"1", "2", "3", "4", "5", "6"} {
		m, _ = press(t, m, p, "L", "r", "G", "g", "enter", "esc", ">", "<")
	}
	m, _ = press(t, m, "1", "v", "L", "v", "L", "v")
	m, _ = press(t, m, "4", "L")
	sessionIDs := m.sessionsPane().IDs()
	runIDs := m.Pane(views.PaneRuns).(*views.Runs).IDs()
	if len(sessionIDs) == 0 || len(runIDs) == 0 {
		t.Fatal("no session or run ids loaded to address")
	}
	lines := []string{
		"sessions", "sessions " + d.SessionsProject, "sessions status=RUNNING", "sessions status=COMPLETED",
		"session " + sessionIDs[0], "runs " + d.RunsUser, "run " + runIDs[0],
		"inbox " + d.InboxUser, "inbox " + d.InboxUser + " type=a", "inbox " + d.InboxUser + " status=f",
		"inbox " + d.InboxUser + " type=a status=r",
		"delegations " + d.Audience, "subscriptions " + d.Customer, "consumers " + d.Consumer,
		"sandboxes", "sandboxes status=allocated", "sandboxes status=pending_deletion",
		"sandboxes status=stale", "sandboxes track=" + w.rep.Tracks[0], "sandboxes key=nokey",
		"stream", "stream sandboxes", "audit", "nosuchverb",
	}
	for _, l := range lines {
		m, _ = runLine(t, m, l)
		m, _ = press(t, m, "L")
		if m.Mode() == "dialog" {
			m, _ = press(t, m, "esc")
		}
	}
	ops := gate.opsSeen()
	if !slices.Contains(ops, "Query") {
		t.Fatalf("no Query seen either — the recorder is not in the path: %v", ops)
	}
	for _, op := range ops {
		if op == "Scan" {
			t.Fatalf("a Scan request was sent while browsing (ops: %v)", ops)
		}
	}
}

// TestScanDialogFitsNarrowTerminal: at 80×24 the cost and the question are
// all on screen, inside an intact frame.
func TestScanDialogFitsNarrowTerminal(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 80, 24)
	m, _ = runLine(t, m, "scan delegations segments=8")
	out := screen(m, w.prefix)
	checkFrame(t, out, 80, 24)
	for _, want := range []string{"Scan delegations?", "8 parallel", "approx.", "RCU", "y yes · n/esc no (default No)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("80×24 dialog lacks %q:\n%s", want, out)
		}
	}
	m, _ = press(t, m, "n")
	if m.Mode() != "normal" {
		t.Fatalf("mode %s", m.Mode())
	}
}

// TestScanMissingTable: against tables that do not exist the dialog says
// the cost is unknown, and y ends in a one-line error naming the failure,
// with the panes left as they were.
func TestScanMissingTable(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.Tables = o.Tables.WithPrefix("tmissing-")
	o.Store = data.NewStore(w.conn, o.Tables)
	m := start(t, o, 120, 40)
	m, _ = runLine(t, m, "scan consumers")
	out := screen(m, w.prefix)
	if !strings.Contains(out, "cost unknown: the estimate failed") {
		t.Fatalf("dialog over a missing table:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if m.Mode() != "normal" {
		t.Fatalf("mode %s", m.Mode())
	}
	if f := m.Flash(); !strings.Contains(f, "scan of consumers failed: ") || !strings.Contains(f, "before any item was read") {
		t.Fatalf("flash %q", f)
	}
	if _, shown := m.slotOf(views.PaneDelegations).scan.ShownScan(); shown {
		t.Fatal("a failed scan left a scan result")
	}
	checkFrame(t, screen(m, w.prefix), 120, 40)
}

// A Scan page that gets no answer ends the scan at its own deadline: the
// dialog says the deadline while it runs, and the partial result is kept
// and said to be stopped by a timeout, not cancelled by the operator.
func TestScanPageTimeoutKeepsPartial(t *testing.T) {
	w := seeded(t)
	total := w.rep.Counts[data.TableSandboxes]
	gate := &scanGate{pass: 1} // one segment reads, the other is never answered
	o := w.withClient(t, gate)
	o.ReadTimeout = 1500 * time.Millisecond
	m := start(t, o, 120, 40)
	m, _ = runLine(t, m, "scan sandboxes segments=2")
	nm, cmd := m.Update(keyMsg("y"))
	m = nm.(Model)
	if out := screen(m, w.prefix); !strings.Contains(out, "a page with no answer within 1.5s ends the scan") {
		t.Fatalf("the running dialog does not say the deadline:\n%s", out)
	}
	var done scanDoneMsg
	for {
		msg := awaitMsg(t, cmd)
		nm, cmd = m.Update(msg)
		m = nm.(Model)
		if d, ok := msg.(scanDoneMsg); ok {
			done = d
			break
		}
	}
	if !data.IsTimeout(done.err) || data.IsCancelled(done.err) {
		t.Fatalf("scan ended with %v, want a timeout", done.err)
	}
	rows := m.slotOf(views.PaneSandboxes).Status().Rows
	if rows == 0 || rows >= total || int64(rows) != done.last.Items {
		t.Fatalf("%d rows kept of %d; the first segment read %d", rows, total, done.last.Items)
	}
	want := "stopped: Scan timed out: no answer from DynamoDB within 1.5s"
	if f := m.Flash(); !strings.Contains(f, "PARTIAL scan of sandboxes ("+want+")") {
		t.Errorf("flash %q", f)
	}
	if out := screen(m, w.prefix); !strings.Contains(out, "PARTIAL: ") || !strings.Contains(out, want) {
		t.Errorf("the pane does not say the scan timed out:\n%s", out)
	}
}
