package ui

import (
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// healthRig is a console with no data and a clock the test moves.
type healthRig struct {
	t   *testing.T
	m   Model
	now time.Time
}

func newHealthRig(t *testing.T) *healthRig {
	r := &healthRig{t: t, now: fixedNow}
	r.m = New(Options{Now: func() time.Time { return r.now }})
	nm, _ := r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	r.m = nm.(Model)
	return r
}

// report delivers one sessions health report and returns the command the
// console asked for.
func (r *healthRig) report(st stream.State, detail string) tea.Cmd {
	r.t.Helper()
	nm, cmd := r.m.Update(livefeed.BatchMsg{Health: []stream.Health{{Table: data.TableSessions, State: st, Detail: detail}}})
	r.m = nm.(Model)
	return cmd
}

// settle delivers the end-of-grace redraw, as the timer would.
func (r *healthRig) settle() {
	nm, _ := r.m.Update(healthSettleMsg{})
	r.m = nm.(Model)
}

// title and status are the title line and the status bar.
func (r *healthRig) title() string { return strings.Split(stripANSI(r.m.Render()), "\n")[1] }
func (r *healthRig) status() string {
	lines := strings.Split(stripANSI(r.m.Render()), "\n")
	return lines[len(lines)-2]
}

func (r *healthRig) expect(when, title, status string) {
	r.t.Helper()
	if got := r.title(); !strings.Contains(got, title) {
		r.t.Errorf("%s: title %q, want %q in it", when, got, title)
	}
	if got := r.status(); !strings.Contains(got, status) {
		r.t.Errorf("%s: status bar %q, want %q in it", when, got, status)
	}
}

func (r *healthRig) expectNoReconnecting(when string) {
	r.t.Helper()
	if out := stripANSI(r.m.Render()); strings.Contains(out, "reconnecting") {
		r.t.Errorf("%s: reconnecting shown:\n%s", when, out)
	}
}

// TestReconnectBlipIsNotShown: a table that reports reconnecting and is
// live again within the grace never shows reconnecting — neither in the
// title nor in the status bar.
func TestReconnectBlipIsNotShown(t *testing.T) {
	r := newHealthRig(t)
	r.report(stream.StateLive, "")
	for i := 0; i < 3; i++ { // every transient error flapped before
		if r.report(stream.StateReconnecting, "throttled") == nil {
			t.Fatal("no redraw scheduled for the end of the grace")
		}
		r.expectNoReconnecting("right after the error")
		r.expect("right after the error", "· live", "1 live")
		r.now = r.now.Add(reconnectGrace - 100*time.Millisecond)
		r.settle() // a timer from an earlier episode may fire meanwhile
		r.expectNoReconnecting("just inside the grace")
		r.report(stream.StateLive, "")
		r.expect("back to live", "· live", "1 live")
		r.now = r.now.Add(time.Second)
	}
}

// TestLastingReconnectIsShown: a reconnect that outlasts the grace is shown
// once it ends (the settle redraw comes then), and repeated reports of the
// same episode do not restart the grace.
func TestLastingReconnectIsShown(t *testing.T) {
	r := newHealthRig(t)
	r.report(stream.StateLive, "")
	r.report(stream.StateReconnecting, "throttled")
	r.now = r.now.Add(reconnectGrace / 2)
	r.report(stream.StateReconnecting, "throttled") // the reader reports each failure
	r.expectNoReconnecting("mid-grace")
	r.now = r.now.Add(reconnectGrace / 2)
	r.settle()
	r.expect("grace over", "reconnecting (throttled)", "sessions reconnecting")
	r.now = r.now.Add(time.Minute)
	r.expect("still failing", "reconnecting (throttled)", "sessions reconnecting")
	r.report(stream.StateLive, "")
	r.expect("recovered", "· live", "1 live")
	r.expectNoReconnecting("recovered")
}

// TestGapAndOffAreShownAtOnce: only reconnecting is debounced; a gap (data
// was lost) or a stream switched off is news at once, and a reconnect that
// does not follow live (e.g. the first report) is not delayed either.
func TestGapAndOffAreShownAtOnce(t *testing.T) {
	r := newHealthRig(t)
	r.report(stream.StateReconnecting, "connection refused")
	r.expect("first report", "reconnecting (connection refused)", "sessions reconnecting")
	r.report(stream.StateLive, "")
	r.report(stream.StateGap, "records trimmed")
	r.expect("gap", "gap (records trimmed)", "sessions gap")
	r.report(stream.StateLive, "")
	r.report(stream.StateReconnecting, "throttled")
	r.report(stream.StateGap, "iterator expired") // within the grace
	r.expect("gap inside a grace", "gap (iterator expired)", "sessions gap")
	r.report(stream.StateOff, "stream disabled")
	r.expect("off", "stream off", "sessions off")
}

// TestStreamPaneHealthLineDebounced: the Stream pane's status line (every
// table by state) follows the same debounce.
func TestStreamPaneHealthLineDebounced(t *testing.T) {
	r := newHealthRig(t)
	r.report(stream.StateLive, "")
	r.report(stream.StateReconnecting, "throttled")
	r.m.setActive(views.PaneStream)
	if got := r.m.live.streamHealthLine(r.m.panes[r.m.active]); got != "live: sessions" {
		t.Errorf("inside the grace: %q, want %q", got, "live: sessions")
	}
	r.now = r.now.Add(reconnectGrace)
	if got := r.m.live.streamHealthLine(r.m.panes[r.m.active]); got != "sessions reconnecting" {
		t.Errorf("after the grace: %q, want %q", got, "sessions reconnecting")
	}
}

// downTransport refuses connections while down, as a stopped server does,
// and otherwise forwards to the real one.
type downTransport struct {
	down atomic.Bool
	base http.RoundTripper
}

func (d *downTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if d.down.Load() {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	return d.base.RoundTrip(r)
}

// TestStaleOutageNoticeLeavesWhenLive: while the server was gone the
// Sessions pane's reads failed ("cannot reach …" in the status bar: a
// failed poll of the table whose stream was off, and a failed reload).
// Once the tail reports the table live again, that notice must go at once
// (the pane is read again), not linger until some later key or tick.
func TestStaleOutageNoticeLeavesWhenLive(t *testing.T) {
	w := seeded(t)
	tr := &downTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	o := w.withClient(t, tr)
	m := start(t, o, 120, 30)
	health := func(st stream.State) tea.Cmd {
		nm, cmd := m.Update(livefeed.BatchMsg{Health: []stream.Health{{Table: data.TableSessions, State: st}}})
		m = nm.(Model)
		return cmd
	}
	status := func() string {
		lines := strings.Split(stripANSI(m.Render()), "\n")
		return lines[len(lines)-2] + "\n" + lines[len(lines)-1]
	}
	health(stream.StateLive)
	rows := m.slotOf(views.PaneSessions).Status().Rows
	if rows == 0 {
		t.Fatal("the Sessions pane loaded nothing")
	}

	for _, tc := range []struct {
		name   string
		outage stream.State
		fail   func()
	}{
		{"failed poll while the stream was off", stream.StateOff, func() {
			m, _ = settle(t, m, m.slotOf(views.PaneSessions).poll.Poll())
		}},
		{"failed reload while reconnecting", stream.StateReconnecting, func() {
			m, _ = press(t, m, "r")
		}},
	} {
		tr.down.Store(true)
		health(tc.outage)
		tc.fail()
		if !strings.Contains(status(), "cannot reach") {
			t.Fatalf("%s: the outage is not shown, so this test proves nothing:\n%s", tc.name, status())
		}
		tr.down.Store(false)
		m, _ = settle(t, m, health(stream.StateLive))
		if s := status(); strings.Contains(s, "cannot reach") || strings.Contains(s, "failed") {
			t.Errorf("%s: live again, but the status bar still says:\n%s", tc.name, s)
		}
		if got := m.slotOf(views.PaneSessions).Status().Rows; got != rows {
			t.Errorf("%s: %d rows after recovery, want %d", tc.name, got, rows)
		}
	}
}
