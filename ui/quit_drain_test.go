package ui

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/ui/uitest"
)

// holdWrites passes every request to the real server but holds each
// UpdateItem until release is closed: a write on its way while the operator
// quits. arrived gets a value per UpdateItem held.
type holdWrites struct {
	base    http.RoundTripper
	arrived chan struct{}
	release chan struct{}
	updates atomic.Int32
}

func newHoldWrites() *holdWrites {
	return &holdWrites{base: http.DefaultTransport.(*http.Transport).Clone(), arrived: make(chan struct{}, 16), release: make(chan struct{})}
}

func (h *holdWrites) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") {
		h.updates.Add(1)
		h.arrived <- struct{}{}
		<-h.release
	}
	return h.base.RoundTrip(req)
}

// confirmHeld presses y in an open confirmation and starts the write as the
// program would, on its own goroutine; the returned channel gives the
// write's messages once it is done. Nothing it yields reaches the model
// until the test feeds it.
func confirmHeld(t *testing.T, m Model) (Model, <-chan []tea.Msg) {
	t.Helper()
	nm, cmd := m.Update(keyMsg("y"))
	m = nm.(Model)
	msgs, _ := uitest.Messages(cmd)
	var write tea.Cmd
	for _, msg := range msgs {
		if c, ok := msg.(confirmedMsg); ok {
			nm, write = m.Update(c)
			m = nm.(Model)
			continue
		}
		m, _ = feed(t, m, []tea.Msg{msg})
	}
	if write == nil {
		t.Fatal("y started no write")
	}
	done := make(chan []tea.Msg, 1)
	go func() { msgs, _ := uitest.Messages(write); done <- msgs }()
	return m, done
}

// feed gives msgs to the model in order, settling each.
func feed(t *testing.T, m Model, msgs []tea.Msg) (Model, bool) {
	t.Helper()
	quit := false
	for _, msg := range msgs {
		nm, cmd := m.Update(msg)
		var q bool
		m, q = settle(t, nm.(Model), cmd)
		quit = quit || q
	}
	return m, quit
}

// Quitting — q, SIGTERM, SIGHUP — while a release's UpdateItem is on its
// way, over one row and over marked rows: the console says it is finishing
// the write and does not go; then either the write comes back (its audit
// line, its StopTask and the step's line are all there when the console
// goes, and rows not yet started are left alone) or the operator (ctrl+c)
// or the signal's grace gives it up, and the audit log says so with the
// attempt token before the console goes.
func TestQuitDuringAWriteFinishesItOrAbandonsItOnRecord(t *testing.T) {
	for _, how := range []string{"q", "SIGTERM", "SIGHUP"} {
		for _, rows := range []int{1, 2} {
			for _, end := range []string{"finish", "abandon"} {
				t.Run(fmt.Sprintf("%s/%d rows/%s", how, rows, end), func(t *testing.T) {
					quitDuringWrite(t, how, rows, end)
				})
			}
		}
	}
}

var quitSeq atomic.Int64

func quitDuringWrite(t *testing.T, how string, rows int, end string) {
	w := newActWorld(t)
	var ids []string
	for i := 0; i < rows; i++ {
		id := fmt.Sprintf("sq%d_%d", quitSeq.Add(1), i)
		ids = append(ids, id)
		w.session(id, "RUNNING", "READY", fixedNow.Add(-time.Hour))
	}
	hold := newHoldWrites()
	m := start(t, w.withClient(hold, false), 160, 40)
	for _, id := range ids {
		m = selectRow(t, m, id)
		if rows > 1 {
			m, _ = press(t, m, "space")
		}
	}
	m, _ = press(t, m, "x")
	m, pending := confirmHeld(t, m)
	<-hold.arrived // the first row's UpdateItem is on its way

	var res uitest.Result
	if how == "q" {
		nm, cmd := m.Update(keyMsg("q"))
		m, res = uitest.Settle(t, nm.(Model), cmd)
	} else {
		nm, cmd := m.Update(QuitMsg{Signal: how})
		m, res = uitest.Settle(t, nm.(Model), cmd)
	}
	if res.Quit {
		t.Fatal("the console quit with a write in flight")
	}
	want := "finishing 1 write… (ctrl+c again to abandon"
	if !strings.Contains(m.Flash(), want) || !strings.Contains(stripANSI(m.Render()), want) {
		t.Fatalf("the status bar does not say it finishes the write: %q", m.Flash())
	}
	if how != "q" && (len(res.Timers) != 1 || res.Timers[0].After != SignalGrace) {
		t.Fatalf("a signal's quit armed %+v, want its grace of %s", res.Timers, SignalGrace)
	}
	// Other keys change nothing while it waits.
	if m, quit := press(t, m, "q"); quit || !strings.Contains(m.Flash(), want) {
		t.Fatalf("q again: quit %v, flash %q", quit, m.Flash())
	}
	if es := w.auditEntries(); len(es) != 0 {
		t.Fatalf("audit lines before the write came back: %+v", es)
	}

	if end == "abandon" {
		var quit bool
		if how == "q" {
			m, quit = press(t, m, "ctrl+c")
		} else {
			m, res = uitest.Fire(t, m, res.Timers) // the grace is over
			quit = res.Quit
		}
		if !quit {
			t.Fatal("abandoning did not quit")
		}
		es := w.auditEntries()
		if len(es) != 1 {
			t.Fatalf("%d audit lines at quit, want the abandoned write's: %+v", len(es), es)
		}
		attempt, _ := es[0].Values[":attempt"].(string)
		msg := "Release session " + es[0].Target + ": " + action.Abandoned + " (attempt " + attempt + "); check the row"
		if len(attempt) != 32 || !slices.Contains(ids, es[0].Target) || es[0].Result != "unknown: "+msg {
			t.Errorf("the abandoned write's line: %s %q", es[0].Target, es[0].Result)
		}
		if want := "abandoned at quit: " + msg; m.Farewell() != want {
			t.Errorf("farewell %q, want %q", m.Farewell(), want)
		}
		close(hold.release)
		<-pending // the write lands after all; nothing more is sent
		if n := hold.updates.Load(); n != 1 {
			t.Errorf("%d UpdateItem sent, want 1", n)
		}
		return
	}

	close(hold.release)
	m, quit := feed(t, m, <-pending)
	if !quit {
		t.Fatalf("the write came back and the console stays: %q", m.Flash())
	}
	// The row written is the one whose write was held (rows go in the
	// list's order); the others were not started.
	var written string
	for _, id := range ids {
		if got := strAttr(w.get(data.TableSessions, sessKey(id)), "status"); got == "COMPLETED" && written == "" {
			written = id
		} else if got != "RUNNING" || stopsOf(id) != 0 {
			t.Errorf("a row not started at quit was written: %s is %s", id, got)
		}
	}
	es, steps := w.auditEntries(), w.stepEntries()
	if written == "" || len(es) != 1 || es[0].Result != "ok" || es[0].Target != written {
		t.Fatalf("released %q; write lines: %+v", written, es)
	}
	if len(steps) != 1 || steps[0].Step != "stop-ecs-task" || steps[0].Result != "ok" || stopsOf(written) != 1 {
		t.Errorf("StopTask sent %d times; step lines %+v", stopsOf(written), steps)
	}
	wantBye := releasedFlash(written)
	if rows > 1 {
		wantBye = "1 of 2 succeeded · 1 errors"
	}
	if m.Farewell() != wantBye {
		t.Errorf("farewell %q, want %q", m.Farewell(), wantBye)
	}
	if n := hold.updates.Load(); n != 1 {
		t.Errorf("%d UpdateItem sent, want 1", n)
	}
}

// With nothing in flight, q quits at once, as before.
func TestQuitWithNothingInFlightIsImmediate(t *testing.T) {
	w := newActWorld(t)
	m := start(t, w.options(), 120, 40)
	if _, quit := press(t, m, "q"); !quit {
		t.Fatal("q did not quit")
	}
	nm, cmd := m.Update(QuitMsg{Signal: "SIGTERM"})
	if _, res := uitest.Settle(t, nm.(Model), cmd); !res.Quit {
		t.Fatal("SIGTERM did not quit")
	}
}
