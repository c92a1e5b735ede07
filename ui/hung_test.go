package ui

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/internal/dbtest"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// hungServer accepts connections and never answers: a DynamoDB endpoint
// behind a stalled proxy.
func hungServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never read or written
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// TestAHungQuerySaysWhatItWaitsForAndTimesOut: against a server that never
// answers, the pane says which request it waits for and for how long, then
// fails with a timeout error that r retries; esc stops the wait.
func TestAHungQuerySaysWhatItWaitsForAndTimesOut(t *testing.T) {
	conn, err := data.ConnectLocal(context.Background(), hungServer(t))
	if err != nil {
		t.Fatal(err)
	}
	tables := dbtest.Tables(t, "dev", "thung")
	clock := newTestClock()
	o := Options{
		Store: data.NewStore(conn, tables), Conn: displayConn(conn), Tables: tables, Env: "dev",
		Now: clock.Now, ReadTimeout: 300 * time.Millisecond, Timer: uitest.Timer,
		Scopes: Scopes{ProjectID: "proj-hung"},
	}
	m := New(o)
	nm, sized := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	load := tea.Batch(sized, m.Init()) // the first page is asked for, not yet answered
	m = nm.(Model)

	out := stripANSI(m.Render())
	if !strings.Contains(out, "waiting for Query on projectId-createdAt-index · esc cancels") {
		t.Fatalf("the pane should say what it waits for:\n%s", out)
	}
	clock.Advance(12 * time.Second)
	out = stripANSI(m.Render())
	for _, want := range []string{"waiting for Query on projectId-createdAt-index · 12s · esc cancels", "loading… 12s", "quota loading… 12s"} {
		if !strings.Contains(out, want) {
			t.Fatalf("after 12 s the screen lacks %q:\n%s", want, out)
		}
	}

	m, _ = settle(t, m, load) // returns when the deadline ends the read
	st := m.slotOf(views.PaneSessions).Status()
	want := "Query on projectId-createdAt-index timed out: no answer from DynamoDB within 300ms — r retries"
	if st.Loading || st.Err != want {
		t.Fatalf("loading %v, error %q; want %q", st.Loading, st.Err, want)
	}
	if out := stripANSI(m.Render()); !strings.Contains(out, "timed out") || !strings.Contains(out, "r retries") {
		t.Fatalf("the timeout is not on screen:\n%s", out)
	}

	// r retries (and waits again); esc stops waiting.
	nm, retry := m.Update(keyMsg("r"))
	m = nm.(Model)
	if st := m.slotOf(views.PaneSessions).Status(); !st.Loading || st.Err != "" {
		t.Fatalf("r did not retry: %+v", st)
	}
	m, _ = press(t, m, "esc")
	if st := m.slotOf(views.PaneSessions).Status(); st.Loading || !strings.Contains(st.Note, "load cancelled") {
		t.Fatalf("esc did not stop the wait: %+v", st)
	}
	m, _ = settle(t, m, retry) // the cancelled read's late answer is dropped
	if st := m.slotOf(views.PaneSessions).Status(); st.Err != "" || st.Loading {
		t.Fatalf("a cancelled read reported: %+v", st)
	}
}

// TestCancelledLoadDoesNotClaimAnEmptyScope: esc before the first page
// came says the load was cancelled, not that the scope has no rows.
func TestCancelledLoadDoesNotClaimAnEmptyScope(t *testing.T) {
	conn, err := data.ConnectLocal(context.Background(), hungServer(t))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := data.ResolveTables("dev", nil)
	m := New(Options{Store: data.NewStore(conn, base), Conn: conn, Env: "dev", Now: fixedClock, Timer: uitest.Timer, Scopes: Scopes{SessionStatus: "RUNNING"}})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m = nm.(Model)
	_ = m.Init() // never answered
	m, _ = press(t, m, "esc")
	out := stripANSI(m.Render())
	if strings.Contains(out, "no sessions in this scope") || !strings.Contains(out, "load cancelled before any sessions arrived — r loads again") {
		t.Fatalf("after esc:\n%s", out)
	}
}

func fixedClock() time.Time { return fixedNow }
