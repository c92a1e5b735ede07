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
//
// It also says when the first screen has settled (settled is closed): the
// first frame in which the active pane is no longer loading, so with its
// first page drawn, or its error, or nothing to load. Work the first screen
// does not need waits for that.
type startupLog struct {
	mu   sync.Mutex
	w    io.Writer
	done bool // the first rows were drawn

	framed  atomic.Bool
	shown   atomic.Bool
	frames  atomic.Int64
	settled chan struct{}
	settle  sync.Once
}

func newStartupLog(w io.Writer) *startupLog {
	l := &startupLog{w: w, settled: make(chan struct{})}
	// The offsets below count from here; this line ties them to the wall
	// clock, so a benchmark can tell how long exec and package
	// initialisation took before it.
	fmt.Fprintf(w, "startup: process started at %d (unix ns); offsets below are from then\n", processStart.UnixNano())
	return l
}

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
	if !l.framed.Swap(true) {
		l.event("first frame rendered")
	}
	um, ok := m.(ui.Model)
	if !ok {
		l.settle.Do(func() { close(l.settled) })
		return
	}
	st := um.Pane(um.Active()).Status()
	if !st.Loading {
		l.settle.Do(func() {
			l.event("first screen settled")
			close(l.settled)
		})
	}
	if st.Rows > 0 {
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

// Init does nothing: main has run the console's Init already (runInit).
func (m timedModel) Init() tea.Cmd { return nil }

// Update passes msg on; until the first rows are drawn, it logs what each
// message was and how long it took.
func (m timedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.log.shown.Load() {
		next, cmd := m.Model.Update(msg)
		m.Model = next
		return m, cmd
	}
	start := time.Now()
	next, cmd := m.Model.Update(msg)
	m.Model = next
	m.log.phase(fmt.Sprintf("update %T", msg), start)
	return m, cmd
}

func (m timedModel) View() tea.View {
	if m.log.shown.Load() {
		m.log.frames.Add(1)
		return m.Model.View()
	}
	start := time.Now()
	v := m.Model.View()
	m.log.phase("view", start)
	m.log.rendered(m.Model)
	return v
}
