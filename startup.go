package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/ui"
	"opsdeck/ui/screen"
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
// first frame in which the active pane is no longer loading (so with its
// first page, or its error, or nothing to load) has been written to the
// terminal, not merely rendered: that write, the first of a screenful
// (ui/screen writes it at once, from its own goroutine), must not share the
// two cores with the work that waits for settled (stream discovery, the
// collector). Work the first screen does not need waits for that.
type startupLog struct {
	mu   sync.Mutex
	w    io.Writer
	done bool // the first rows were drawn

	framed  atomic.Bool
	shown   atomic.Bool
	frames  atomic.Int64
	settled chan struct{}
	settle  sync.Once
	// ready: a frame that settles the first screen has been rendered; the
	// next frame written to the terminal after it closes settled.
	ready atomic.Bool
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
		l.settleNow("first screen settled")
		return
	}
	st := um.Pane(um.Active()).Status()
	if !st.Loading && !l.ready.Swap(true) {
		l.event("first screen rendered")
		// The screen writes it at once; should that write go unnoticed (a
		// frame that changed only a few cells), this settles.
		time.AfterFunc(settleAfter, func() { l.settleNow("first screen settled (timer)") })
	}
	if st.Rows > 0 {
		l.shown.Store(true)
		l.event(fmt.Sprintf("first rows rendered (%d rows)", st.Rows))
		l.mu.Lock()
		l.done = true
		l.mu.Unlock()
	}
}

// settleAfter is when the first screen counts as written even though no
// write of a frame's size was seen: a few frame gaps.
const settleAfter = 100 * time.Millisecond

// wrote is told of every write to the terminal: began, whether the write
// began after the settling frame was rendered, and its size. The first
// such write of a frame's size carries that frame (or a later one): the
// first screen is on the terminal. Smaller writes are the program's
// queries to the terminal.
func (l *startupLog) wrote(began bool, n int) {
	if began && n >= frameWriteMin {
		l.settleNow("first screen settled (written to the terminal)")
	}
}

// frameWriteMin is the least a write must carry to count as a frame: the
// terminal queries the program writes are a few dozen bytes, a frame that
// draws a page or an error some hundreds.
const frameWriteMin = 64

func (l *startupLog) settleNow(why string) {
	l.settle.Do(func() {
		l.event(why)
		close(l.settled)
	})
}

// terminalOut is the program's output, the terminal, telling the start-up
// log of each write. It is still the *os.File underneath (the program
// finds the terminal's size and modes through Fd).
type terminalOut struct {
	*os.File
	log *startupLog
}

func (o terminalOut) Write(b []byte) (int, error) {
	after := o.log.ready.Load()
	n, err := o.File.Write(b)
	o.log.wrote(after, n)
	return n, err
}

func (o terminalOut) WriteString(s string) (int, error) { return o.Write([]byte(s)) }

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
	log    *startupLog
	procs  *procs         // procs.go; nil: leave GOMAXPROCS alone
	screen *screen.Screen // draws each frame (the program's renderer is off); nil: none
}

// Init does nothing: main has run the console's Init already (runInit).
func (m timedModel) Init() tea.Cmd { return nil }

// Update passes msg on (a mode report goes to the screen too); until the
// first rows are drawn, it logs what each message was and how long it took.
func (m timedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if r, ok := msg.(tea.ModeReportMsg); ok && m.screen != nil {
		// The terminal's answer to the screen's question (synchronized
		// output); the console has no use for it.
		m.screen.ModeReport(r.Mode, r.Value)
		m.log.event(fmt.Sprintf("terminal answered for mode %d: %d (frames synchronized: %v)", r.Mode, r.Value, m.screen.Synchronized()))
	}
	if m.log.shown.Load() {
		next, cmd := m.Model.Update(msg)
		m.Model = next
		m.procs.adapt(next)
		return m, cmd
	}
	start := time.Now()
	next, cmd := m.Model.Update(msg)
	m.Model = next
	m.log.phase(fmt.Sprintf("update %T", msg), start)
	m.procs.adapt(next)
	return m, cmd
}

func (m timedModel) View() tea.View {
	if m.log.shown.Load() {
		m.log.frames.Add(1)
		return m.show(m.Model.View())
	}
	start := time.Now()
	v := m.Model.View()
	m.log.phase("view", start)
	m.log.rendered(m.Model)
	return m.show(v)
}

// show hands v to the screen, which writes it at once if it changed.
func (m timedModel) show(v tea.View) tea.View {
	if m.screen != nil {
		m.screen.Show(v.Content, v.WindowTitle)
	}
	return v
}
