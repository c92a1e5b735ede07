package main

import (
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/ui"
	"opsdeck/ui/screen"
)

// runInit delivers every message of a batch, nested batches included, and
// runs the commands concurrently (a command that blocks holds up no other).
func TestRunInitRunsEveryCommand(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	msgs := make(chan tea.Msg, 10)
	cmd := tea.Batch(
		func() tea.Msg { <-block; return "late" },
		func() tea.Msg { return "a" },
		nil,
		tea.Batch(func() tea.Msg { return "b" }, func() tea.Msg { return "c" }),
		func() tea.Msg { return nil },
	)
	go runInit(cmd, func(m tea.Msg) { msgs <- m })
	got := map[tea.Msg]bool{}
	for len(got) < 3 {
		select {
		case m := <-msgs:
			got[m] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("only %v arrived", got)
		}
	}
	if !got["a"] || !got["b"] || !got["c"] {
		t.Fatalf("got %v", got)
	}
}

// The first screen settles once the frame in which the active pane is no
// longer loading has been written to the terminal: not while the first
// page loads, not when that frame is only rendered, and not by a write
// that began before it.
func TestStartupSettlesWhenTheFirstPageIsOnTheTerminal(t *testing.T) {
	var mu sync.Mutex
	var buf strings.Builder
	log := newStartupLog(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}))
	term, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	out := terminalOut{File: term, log: log}
	settled := func() bool {
		select {
		case <-log.settled:
			return true
		default:
			return false
		}
	}

	loading := ui.New(ui.Options{})
	loading.Init() // the Sessions pane asks for its first page
	log.rendered(loading)
	frame := strings.Repeat("x", frameWriteMin)
	if _, err := out.WriteString(frame); err != nil {
		t.Fatal(err)
	}
	if settled() {
		t.Fatal("settled while the first page was loading")
	}
	idle := ui.New(ui.Options{}) // nothing asked yet: nothing to wait for
	log.rendered(idle)
	if settled() {
		t.Fatal("settled when the settling frame was only rendered, not written")
	}
	if _, err := out.Write([]byte("\x1b]11;?\x07")); err != nil { // a query to the terminal
		t.Fatal(err)
	}
	if settled() {
		t.Fatal("settled by a query to the terminal")
	}
	if _, err := out.Write([]byte(frame)); err != nil {
		t.Fatal(err)
	}
	if !settled() {
		t.Fatal("not settled after the settling frame was written")
	}
	if b, _ := os.ReadFile(term.Name()); string(b) != frame+"\x1b]11;?\x07"+frame {
		t.Errorf("the terminal got %q", b)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"first frame rendered", "first screen rendered", "first screen settled (written to the terminal)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("start-up lines lack %q:\n%s", want, buf.String())
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// A settling frame whose write goes unnoticed still settles the first
// screen, a few frames later.
func TestStartupSettlesWithoutAWriteToo(t *testing.T) {
	log := newStartupLog(io.Discard)
	log.rendered(ui.New(ui.Options{}))
	select {
	case <-log.settled:
	case <-time.After(10 * time.Second):
		t.Fatal("not settled 10 s after the settling frame was rendered")
	}
}

// passModel is a console that takes every message and does nothing.
type passModel struct{ got *[]tea.Msg }

func (m passModel) Init() tea.Cmd { return nil }
func (m passModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	*m.got = append(*m.got, msg)
	return m, nil
}
func (m passModel) View() tea.View { return tea.NewView("") }

// TestTheTerminalsAnswerReachesTheScreen: the answer to the screen's
// question about synchronized output arrives as input; main hands it to
// the screen, and the console still sees it.
func TestTheTerminalsAnswerReachesTheScreen(t *testing.T) {
	scr, err := screen.Open(screen.Options{Out: io.Discard, Width: 10, Height: 1, Env: []string{"TERM=xterm-256color"}})
	if err != nil {
		t.Fatal(err)
	}
	defer scr.Close()
	var got []tea.Msg
	m := timedModel{Model: passModel{got: &got}, log: newStartupLog(io.Discard), screen: scr}
	m.Update(tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
	if !scr.Synchronized() {
		t.Fatal("the screen did not hear that the terminal has synchronized output")
	}
	if len(got) != 1 {
		t.Fatalf("the console saw %d messages, want the one", len(got))
	}
}
