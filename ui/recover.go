package ui

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/views/inert"
)

// A panic anywhere in Update or View must never end the console, and never
// be the way a dialog ends. The root recovers: it closes any dialog without
// answering it (a confirmation is cancelled, never confirmed; a scan is
// stopped), says so in the status bar, keeps running on the state from
// before the message, and writes the stack to the --debug-log file only.

// panicGuard is shared by every copy of the Model: View has a value
// receiver and cannot change the model, so a panic while drawing is noted
// here and handled by the next Update.
type panicGuard struct {
	mu   sync.Mutex
	log  io.Writer
	view string // what a panic while drawing said; "" when none pending
}

func (g *panicGuard) logf(format string, a ...any) {
	if g == nil || g.log == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	fmt.Fprintf(g.log, "%s opsdeck: "+format+"\n", append([]any{time.Now().Format(time.RFC3339)}, a...)...)
}

func (g *panicGuard) takeView() string {
	if g == nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	v := g.view
	g.view = ""
	return v
}

func (g *panicGuard) noteView(what string) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.view = what
}

// recovered turns a panic while handling msg into a closed dialog and an
// error line. m is the model as it was before the message.
func (m Model) recovered(msg tea.Msg, r any, stack []byte) (tea.Model, tea.Cmd) {
	what := fmt.Sprintf("%T", msg)
	m.guard.logf("panic while handling %s: %v\n%s", what, r, stack)
	m.closeAfterPanic(fmt.Sprint(r))
	return m, nil
}

// closeAfterPanic leaves any dialog or prompt without answering it and
// says what happened.
func (m *Model) closeAfterPanic(reason string) {
	closed := ""
	switch d := m.dialog.(type) {
	case *confirmDialog:
		closed = "; the confirmation was closed and nothing was written"
	case *scanDialog:
		if d.cancel != nil {
			d.cancel()
		}
		closed = "; the scan dialog was closed and the scan stopped"
	case nil:
	default:
		closed = "; the dialog was closed"
	}
	if m.mode == modeDialog || m.mode == modeCommand || m.mode == modeFilter {
		m.mode = modeNormal
		m.input.Blur()
	}
	m.dialog = nil
	where := " (details in the --debug-log file)"
	if m.guard == nil || m.guard.log == nil || m.guard.log == io.Discard {
		where = " (run with --debug-log to record the details)"
	}
	m.setFlash("internal error: "+oneLine(clipReason(reason))+closed+where, true)
}

func clipReason(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// cmdPanicMsg reports a panic inside a command: commands run on other
// goroutines, where the root's recover cannot reach, so each one carries
// its own (guardCmd).
type cmdPanicMsg struct{ reason string }

// guardCmd wraps cmd, and every command of a batch it returns, so that a
// panic while it runs becomes a cmdPanicMsg instead of ending the program.
func (g *panicGuard) guardCmd(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				g.logf("panic in a background command: %v\n%s", r, debug.Stack())
				msg = cmdPanicMsg{reason: fmt.Sprint(r)}
			}
		}()
		msg = cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			out := make(tea.BatchMsg, len(b))
			for i, c := range b {
				out[i] = g.guardCmd(c)
			}
			return out
		}
		return msg
	}
}

// safeUpdate is Update with the recovery around it: the route, the
// clock tick, everything a message can run on this goroutine.
func (m Model) safeUpdate(msg tea.Msg) (next tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			next, cmd = m.recovered(msg, r, debug.Stack())
		}
	}()
	if reason := m.guard.takeView(); reason != "" {
		// The last frame could not be drawn: whatever dialog it showed
		// was not seen, so it is closed before any key can answer it.
		m.closeAfterPanic("drawing the screen failed: " + reason)
		if _, isKey := msg.(tea.KeyPressMsg); isKey {
			return m, nil
		}
	}
	if p, ok := msg.(cmdPanicMsg); ok {
		where := " (details in the --debug-log file)"
		if m.guard == nil || m.guard.log == nil || m.guard.log == io.Discard {
			where = " (run with --debug-log to record the details)"
		}
		m.setFlash("internal error in a background request: "+oneLine(clipReason(p.reason))+"; its answer is lost — r reloads"+where, true)
		return m, nil
	}
	next, cmd = m.routeAndTick(msg)
	return next, m.guard.guardCmd(cmd)
}

// safeRender is Render with the recovery around it: a frame that cannot be
// drawn becomes a short explanation, and the next message closes whatever
// dialog it held.
func (m Model) safeRender() (out string) {
	defer func() {
		if r := recover(); r != nil {
			m.guard.logf("panic while drawing (mode %s): %v\n%s", m.mode, r, debug.Stack())
			m.guard.noteView(fmt.Sprint(r))
			out = panicFrame(fmt.Sprint(r), m.width, m.height)
		}
	}()
	return m.render()
}

func panicFrame(reason string, w, h int) string {
	text := []string{
		"opsdeck could not draw this screen: " + clipReason(reason),
		"Any open dialog is closed by the next key, without answering it; nothing is written.",
		"Switch panes (tab), press esc, or q to quit. Details: --debug-log.",
	}
	lines := make([]string, max(h, 1))
	for i := range lines {
		if i < len(text) {
			lines[i] = fitLine(inert.Line(text[i], w), w)
		} else {
			lines[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return strings.Join(lines, "\n")
}
