package ui

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// countSessions counts a project's sessions straight from the store, the
// ground truth for "load all".
func countSessions(t *testing.T, w world, project string) int {
	t.Helper()
	st := data.NewStore(w.conn, w.tables)
	n := 0
	var cur data.Cursor
	for {
		p, err := st.Page(context.Background(), data.SessionsByProject(project), data.PageRequest{Cursor: cur})
		if err != nil {
			t.Fatal(err)
		}
		n += len(p.Items)
		if cur = p.Next; cur == nil {
			return n
		}
	}
}

func TestPagesLoadOnDemandAndAll(t *testing.T) {
	w := seeded(t)
	o := w.options()
	o.PageSize = 5
	m := start(t, o, 120, 40)
	p := m.slotOf(views.PaneSessions)
	if st := p.Status(); st.Rows != 5 || !st.More {
		t.Fatalf("first page: %+v, want 5 rows and more", st)
	}
	// Scrolling past the last row asks for the next page.
	m, _ = press(t, m, "G")
	if st := p.Status(); st.Rows != 10 {
		t.Fatalf("after G: %d rows, want 10", st.Rows)
	}
	m, _ = press(t, m, "L")
	total := countSessions(t, w, w.rep.Defaults.SessionsProject)
	st := p.Status()
	if st.Rows != total || st.More || st.Loading || st.Progress >= 0 {
		t.Fatalf("after L: %+v, want all %d rows, no more, not loading", st, total)
	}
	if !strings.Contains(screen(m, w.prefix), plural(total, "row")) {
		t.Errorf("title does not show %d rows", total)
	}
	// r reloads from the first page.
	m, _ = press(t, m, "r")
	if st := p.Status(); st.Rows != 5 || !st.More {
		t.Fatalf("after r: %+v, want the first page again", st)
	}
}

// gate lets requests through until armed; then it holds each request until
// its context is cancelled, and reports that it saw it.
type gate struct {
	next    http.RoundTripper
	mu      sync.Mutex
	armed   bool
	blocked chan struct{} // one send per held request
	freed   chan error    // the context error of each held request
}

func newGate() *gate {
	return &gate{next: http.DefaultTransport, blocked: make(chan struct{}, 16), freed: make(chan error, 16)}
}

func (g *gate) arm() { g.mu.Lock(); g.armed = true; g.mu.Unlock() }

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	g.mu.Lock()
	armed := g.armed
	g.mu.Unlock()
	if !armed {
		return g.next.RoundTrip(r)
	}
	g.blocked <- struct{}{}
	<-r.Context().Done()
	g.freed <- r.Context().Err()
	return nil, r.Context().Err()
}

func TestCancelStopsTheRunningLoad(t *testing.T) {
	w := seeded(t)
	g := newGate()
	o := w.withClient(t, g)
	o.PageSize = 5
	m := start(t, o, 120, 40)
	p := m.slotOf(views.PaneSessions)
	before := p.Status().Rows

	g.arm()
	nm, cmd := m.Update(keyMsg("L"))
	m = nm.(Model)
	if st := p.Status(); !st.Loading || st.Progress < 0 {
		t.Fatalf("L did not start a load-all: %+v", st)
	}
	results := make(chan []tea.Msg, 1)
	go func() { msgs, _ := uitest.Messages(cmd); results <- msgs }()
	select {
	case <-g.blocked:
	case <-time.After(30 * time.Second):
		t.Fatal("the load never reached the server")
	}

	m, _ = press(t, m, "ctrl+c")
	select {
	case err := <-g.freed:
		if err != context.Canceled {
			t.Fatalf("held request ended with %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ctrl+c did not cancel the request's context")
	}
	var msgs []tea.Msg
	select {
	case msgs = <-results:
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled command never returned")
	}
	// The cancelled answer arrives late and must change nothing.
	for _, msg := range msgs {
		nm, _ := m.Update(msg)
		m = nm.(Model)
	}
	st := p.Status()
	if st.Loading || st.Rows != before || st.Err != "" {
		t.Fatalf("after cancel: %+v, want %d rows, idle, no error", st, before)
	}
	if !strings.Contains(screen(m, w.prefix), "cancelled") {
		t.Errorf("cancellation not reported:\n%s", screen(m, w.prefix))
	}
}

func TestLateAnswerToAnOlderRequestIsDropped(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	projects := w.rep.Projects
	if len(projects) < 2 {
		t.Fatal("the demo needs two projects")
	}
	a, b := w.rep.Hostile.Project, w.rep.Defaults.SessionsProject
	// Ask for project a, but hold its answer back.
	nm, _ := m.Update(keyMsg(":"))
	m = nm.(Model)
	m = typeText(t, m, "sessions "+a)
	nm, stale := m.Update(keyMsg("enter"))
	m = nm.(Model)
	// Meanwhile the operator moves on to project b, which answers.
	m, _ = runLine(t, m, "sessions "+b)
	// Now a's answer arrives.
	m, _ = settle(t, m, stale)
	p := m.slotOf(views.PaneSessions)
	if !strings.Contains(p.Title(), b) {
		t.Fatalf("title %q, want project %s", p.Title(), b)
	}
	m, _ = press(t, m, "g")
	for i := 0; i < p.Status().Rows; i++ {
		it, _ := p.sel.Selected()
		if got := attr(it, "projectId"); got != b {
			t.Fatalf("row %d belongs to %q: the late answer for %q was applied", i, got, a)
		}
		m, _ = press(t, m, "j")
	}
	if !strings.Contains(screen(m, w.prefix), "project "+b+" ·") {
		t.Fatalf("quota header is not b's:\n%s", screen(m, w.prefix))
	}
}

// denyTable answers every request that names table with AccessDenied, as
// IAM would for a role without access to it.
type denyTable struct {
	table string
	next  http.RoundTripper
}

func (d denyTable) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if bytes.Contains(body, []byte(`"`+d.table+`"`)) {
		msg := `{"__type":"com.amazon.coral.service#AccessDeniedException","Message":"User: arn:aws:sts::123456789012:assumed-role/oncall/me is not authorized to perform: dynamodb:Query on resource: ` + d.table + `"}`
		return &http.Response{
			StatusCode: 400, Status: "400 Bad Request", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header:  http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amzn-Requestid": {"deny-1"}},
			Body:    io.NopCloser(strings.NewReader(msg)),
			Request: r, ContentLength: int64(len(msg)),
		}, nil
	}
	return d.next.RoundTrip(r)
}

func TestAccessDeniedStaysInItsPane(t *testing.T) {
	w := seeded(t)
	o := w.withClient(t, denyTable{table: w.tables.Name(data.TableEvents), next: http.DefaultTransport})
	m := start(t, o, 120, 40)
	m, _ = press(t, m, "3")
	st := m.slotOf(views.PaneInbox).Status()
	if !strings.HasPrefix(st.Err, "not allowed: dynamodb:Query on table/"+w.tables.Name(data.TableEvents)) || !strings.Contains(st.Err, "not authorized") {
		t.Fatalf("inbox error = %q, want the refused action and table, then the server's text", st.Err)
	}
	out := screen(m, w.prefix)
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "Inbox !") {
		t.Errorf("tab bar does not flag the failing pane: %q", lines[0])
	}
	if !strings.Contains(lines[len(lines)-2], "│") || !strings.Contains(lines[len(lines)-2]+lines[len(lines)-1], "not allowed: dynamodb:Query on table/") {
		t.Errorf("status bar does not show the error:\n%s", out)
	}
	// The other panes keep working.
	m, _ = press(t, m, "1", "r")
	if st := m.slotOf(views.PaneSessions).Status(); st.Err != "" || st.Rows == 0 {
		t.Fatalf("sessions broke too: %+v", st)
	}
	m, _ = press(t, m, "5")
	if st := m.slotOf(views.PaneSandboxes).Status(); st.Err != "" || st.Rows == 0 {
		t.Fatalf("sandboxes broke too: %+v", st)
	}
}
