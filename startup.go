package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/ui"
)

// processStart stands for the moment the process started: package variables
// are set before main runs, a fraction of a millisecond after exec.
var processStart = time.Now()

// startupLog writes the start-up timeline to the debug log, every line
// starting "startup:": each phase with its offset from process start and its
// duration, every API call that finishes before the first rows are drawn
// (when it was sent, how long it took), the first frame and the first rows.
// Then it falls silent, but for the frame count at exit ("frames:"). It is
// how the critical path to the first screen is found (BENCHMARKS.md).
type startupLog struct {
	mu   sync.Mutex
	w    io.Writer
	done bool // the first rows were drawn

	framed atomic.Bool
	shown  atomic.Bool
	frames atomic.Int64
}

func newStartupLog(w io.Writer) *startupLog { return &startupLog{w: w} }

func since(t time.Time) float64 { return float64(t.Sub(processStart).Microseconds()) / 1000 }

// phase records a phase that began at start and has just ended.
func (l *startupLog) phase(name string, start time.Time) {
	l.line(time.Now(), time.Since(start), name)
}

// event records a moment.
func (l *startupLog) event(name string) { l.line(time.Now(), -1, name) }

func (l *startupLog) line(at time.Time, took time.Duration, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return
	}
	tookText := "        "
	if took >= 0 {
		tookText = fmt.Sprintf("%6.1f ms", float64(took.Microseconds())/1000)
	}
	fmt.Fprintf(l.w, "startup: at %7.1f ms  took %s  %s\n", since(at), tookText, what)
}

// call is data.ConnOptions.OnCall.
func (l *startupLog) call(c data.Call) {
	what := c.Op
	if c.Service != "" {
		what = c.Service + " " + c.Op
	}
	what += fmt.Sprintf(" (sent at %.1f ms)", since(c.Start))
	if c.Err != nil {
		what += ": " + data.Describe(c.Err)
	}
	l.line(c.Start.Add(c.Took), c.Took, what)
}

// rendered notes a frame of m: the first one, and the first that shows
// rows in the active pane.
func (l *startupLog) rendered(m tea.Model) {
	l.frames.Add(1)
	if l.shown.Load() {
		return
	}
	if !l.framed.Swap(true) {
		l.event("first frame rendered")
	}
	um, ok := m.(ui.Model)
	if !ok {
		return
	}
	if st := um.Pane(um.Active()).Status(); st.Rows > 0 {
		l.shown.Store(true)
		l.event(fmt.Sprintf("first rows rendered (%d rows)", st.Rows))
		l.mu.Lock()
		l.done = true
		l.mu.Unlock()
	}
}

// exit writes how many frames the session rendered.
func (l *startupLog) exit() {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "frames: %d views rendered in %.1f s\n", l.frames.Load(), time.Since(processStart).Seconds())
}

// timedModel wraps the console to tell the start-up log about frames. It
// changes nothing else: every message and command passes through.
type timedModel struct {
	tea.Model
	log *startupLog
}

func (m timedModel) Init() tea.Cmd {
	cmd := m.Model.Init()
	m.log.event("Init returned (the first page's command is queued)")
	return cmd
}

func (m timedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.Model.Update(msg)
	m.Model = next
	return m, cmd
}

func (m timedModel) View() tea.View {
	v := m.Model.View()
	m.log.rendered(m.Model)
	return v
}
