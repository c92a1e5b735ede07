// Package screen draws the console's frames on the terminal the moment they
// change, and never otherwise.
//
// The program library's own renderer writes on a fixed tick (30 or 60 a
// second): a key's frame waits for the next tick, up to a whole period, and
// the tick wakes the process all the time even when nothing on screen
// changed. Both were measured against issue 13's targets: the tick was most
// of a key's latency while a load-all ran, the first rows waited for the
// first tick, and an idle console spent half its CPU on tick wake-ups
// (BENCHMARKS.md). Screen is event-driven instead: the program hands it each
// frame (View), a goroutine diffs it against what the terminal shows and
// writes the difference at once. A burst of frames is coalesced (the
// newest wins), and a sustained burst is paced (frameRate); with nothing new
// to show it sleeps.
//
// Screen owns the terminal while it is open: raw mode, the alternate
// screen, a hidden cursor, bracketed paste and the keyboard protocol
// (disambiguated keys, so a lone esc is seen at once). Close puts all of it
// back. The program library only reads keys; it runs without its renderer.
package screen

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// Frames are paced by a bucket: frameBurst frames may go out back to
// back, and a sustained burst of changes (stream records, say) draws
// frameRate frames a second, the program library's own ceiling. A single
// spacing between frames instead (one every 1/120 s) held a key's frame
// for up to 12 ms whenever a page had just drawn one, under load.
const (
	frameRate  = 120
	frameBurst = 3
)

// Screen is the terminal the console draws on. Its methods may be called
// from any goroutine.
type Screen struct {
	out     io.Writer
	in      *os.File    // the terminal put in raw mode; nil if none
	restore *term.State // in's mode before Open

	mu      sync.Mutex
	content string                // the newest frame
	title   string                // the newest window title
	w, h    int                   // the newest size
	resized bool                  // the size changed since the last frame was drawn
	erase   bool                  // redraw every cell in the next frame
	profile *colorprofile.Profile // a new colour profile for the next frame
	raw     []string              // sequences to write before the next frame (queries)
	closed  bool
	running bool // the writer goroutine was started (Open)
	// suspended: the terminal is given back (Suspend) until Resume;
	// frames are kept, not drawn.
	suspended bool
	// synced: the terminal said it has synchronized output (mode 2026):
	// each frame is written between its begin and end, and shown whole.
	synced bool
	// graphemes: the terminal said it measures grapheme clusters (mode
	// 2027), as the console's layout does; until then a cluster it could
	// measure otherwise is written as one it cannot (graphemes.go).
	graphemes bool

	wake chan struct{} // a frame, size or sequence is waiting
	stop chan struct{}
	done chan struct{} // the writer has stopped

	// wmu is held while anything is written to the terminal: a frame,
	// or the terminal given back and taken again (suspend.go).
	wmu sync.Mutex
	// Owned by the writer goroutine (and by Close once it has stopped),
	// under wmu.
	scr    *uv.TerminalRenderer
	cells  uv.ScreenBuffer
	buf    bytes.Buffer
	framed []byte   // a frame between synchronized output's begin and end
	drawn  string   // the frame the terminal shows
	lines  []string // drawn, split into lines
	// asGraphemes: the cells are written for a terminal that measures
	// grapheme clusters (the newest answer about mode 2027, at draw).
	asGraphemes bool
	shownTitle  string
	credit      float64   // frames that may be written now (frameBurst at most)
	refilled    time.Time // when credit was last brought up to date
	err         error     // the first write that failed
}

// Options open a Screen.
type Options struct {
	// In is the terminal's input, put in raw mode until Close (nil, or not
	// a terminal: left as it is).
	In *os.File
	// Out is where frames are written: the terminal.
	Out io.Writer
	// Width and Height are the terminal's size (Size finds it).
	Width, Height int
	// Profile is the colour profile frames are written in; colours the
	// terminal cannot show are brought down to ones it can.
	Profile colorprofile.Profile
	// Env is the process environment; TERM tells which cursor movements the
	// terminal has.
	Env []string
}

// Open takes over the terminal: raw mode, the alternate screen, the
// cursor hidden. Nothing is drawn until the first Show.
func Open(o Options) (*Screen, error) {
	s := newScreen(o)
	if o.In != nil && term.IsTerminal(o.In.Fd()) {
		st, err := term.MakeRaw(o.In.Fd())
		if err != nil {
			return nil, err
		}
		s.in, s.restore = o.In, st
	}
	// The alternate screen, no cursor, pastes marked as pastes, and keys
	// the terminal sends unambiguously (modifyOtherKeys, and the kitty
	// protocol's first level: a lone esc is not the start of a sequence).
	seq := openSeq
	if asksSync(o.Env) {
		seq += ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore
	}
	if _, err := io.WriteString(s.out, seq); err != nil {
		_ = s.restoreInput()
		return nil, err
	}
	s.running = true
	go s.writer()
	return s, nil
}

// openSeq sets the terminal up; Close undoes each part, in reverse order
// (closeSeq). Mode 2027 asks a terminal that can to measure text by grapheme
// clusters, as the console's layout measures it (an emoji with its
// presentation selector is two cells, not one).
var openSeq = ansi.SetModeAltScreenSaveCursor + ansi.ResetModeTextCursorEnable +
	ansi.SetModeBracketedPaste + ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(1) +
	ansi.SetModeUnicodeCore

// asksSync says whether to ask the terminal if it has synchronized output
// (DECRQM 2026) and grapheme widths (DECRQM 2027): each answer comes back as input (the program reads it as a
// tea.ModeReportMsg, which main passes to ModeReport). It is asked where
// the program library's renderer asked it: not over SSH, where an answer
// that arrives late could be read as keys, unless the terminal is one
// known to answer; not of Apple's Terminal. A terminal that does not know
// the mode answers "not recognized", or nothing, and frames go out as they
// are.
func asksSync(env []string) bool {
	e := uv.Environ(env)
	termType, prog := e.Getenv("TERM"), e.Getenv("TERM_PROGRAM")
	_, overSSH := e.LookupEnv("SSH_TTY")
	_, windowsTerminal := e.LookupEnv("WT_SESSION")
	if windowsTerminal {
		return true
	}
	for _, known := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(termType, known) {
			return true
		}
	}
	return !overSSH && !strings.Contains(prog, "Apple")
}

// ModeReport takes the terminal's answer about a mode (DECRPM). An answer
// that it has synchronized output, set or not, turns it on for every frame
// after; "not recognized" or "permanently reset" leaves frames as they are.
// An answer that grapheme widths are on (Open set them) draws every cell
// again with its clusters as they are; any other leaves them written as a
// terminal that measures rune by rune places them.
func (s *Screen) ModeReport(mode ansi.Mode, value ansi.ModeSetting) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch mode {
	case ansi.ModeSynchronizedOutput:
		s.synced = value == ansi.ModeReset || value == ansi.ModeSet
	case ansi.ModeUnicodeCore:
		if on := value == ansi.ModeSet || value == ansi.ModePermanentlySet; on != s.graphemes {
			s.graphemes, s.erase = on, true
		}
	default:
		return
	}
	s.poke()
}

// Synchronized reports whether frames are written as synchronized output.
func (s *Screen) Synchronized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.synced
}

// newScreen is a Screen that has not touched the terminal yet and whose
// writer is not running (tests call draw themselves).
func newScreen(o Options) *Screen {
	s := &Screen{
		out:  o.Out,
		w:    max(o.Width, 1),
		h:    max(o.Height, 1),
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	s.scr = uv.NewTerminalRenderer(&s.buf, o.Env)
	s.scr.SetColorProfile(o.Profile)
	// Raw mode turns off the terminal's newline translation, so the
	// renderer must not count on it.
	s.scr.SetMapNewline(false)
	s.scr.SetTabStops(-1)
	// No hard scrolling (scroll regions, insert and delete line): the
	// renderer scrolls the terminal's lines and then rewrites only the
	// lines the new frame changed, but paint leaves a line untouched when
	// its text is the same as before, so a line scrolled over it stayed on
	// screen (a row where the column header belongs). And a scroll region
	// written for a frame of an old size outlived it. Rewriting the changed
	// cells is a little more output when a list scrolls, and always true.
	s.scr.SetScrollOptim(false)
	s.scr.SetGraphemeWidth(false)
	// The alternate screen: absolute cursor moves, every cell ours.
	s.scr.SetFullscreen(true)
	s.scr.SetRelativeCursor(false)
	s.scr.Erase()
	s.cells = uv.NewScreenBuffer(s.w, s.h)
	// Text is measured as the console's layout (lipgloss) measures it.
	s.cells.Method = ansi.GraphemeWidth
	return s
}

// Size is the size of the terminal f, or 80×24 when f is not one.
func Size(f *os.File) (w, h int) {
	if f != nil {
		if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
			return w, h
		}
	}
	return 80, 24
}

// Show makes content (lines of styled text) and title the frame to draw.
// It never waits for the terminal.
func (s *Screen) Show(content, title string) {
	s.mu.Lock()
	s.content, s.title = content, title
	s.mu.Unlock()
	s.poke()
}

// Resize tells the screen the terminal's new size; the next frame is
// drawn whole.
func (s *Screen) Resize(w, h int) {
	s.mu.Lock()
	s.w, s.h = max(w, 1), max(h, 1)
	s.resized = true
	s.mu.Unlock()
	s.poke()
}

// Repaint draws every cell of the next frame again, whatever the terminal
// shows now (ctrl+l; and after the terminal was given back, on resume).
func (s *Screen) Repaint() {
	s.mu.Lock()
	s.erase = true
	s.mu.Unlock()
	s.poke()
}

// SetProfile changes the colour profile frames are written in, from the
// next frame; every cell is drawn again.
func (s *Screen) SetProfile(p colorprofile.Profile) {
	s.mu.Lock()
	s.profile, s.erase = &p, true
	s.mu.Unlock()
	s.poke()
}

// Send writes seq (a query to the terminal, say) ahead of the next frame,
// in order with the frames.
func (s *Screen) Send(seq string) {
	s.mu.Lock()
	s.raw = append(s.raw, seq)
	s.mu.Unlock()
	s.poke()
}

func (s *Screen) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// writer draws frames until Close.
func (s *Screen) writer() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		if wait := s.turn(time.Now()); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-s.stop:
				t.Stop()
				return
			case <-t.C:
			}
		}
		s.draw()
	}
}

// turn is how long the next frame must wait for its turn, from now.
func (s *Screen) turn(now time.Time) time.Duration {
	if s.refilled.IsZero() {
		s.credit = frameBurst
	} else {
		s.credit = min(frameBurst, s.credit+now.Sub(s.refilled).Seconds()*frameRate)
	}
	s.refilled = now
	if s.credit >= 1 {
		return 0
	}
	return time.Duration((1 - s.credit) / frameRate * float64(time.Second))
}

// draw writes what changed since the last frame: pending sequences first,
// then the newest frame's changed cells, in one write.
func (s *Screen) draw() {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	if s.suspended {
		s.mu.Unlock()
		return
	}
	content, title := s.content, s.title
	w, h, resized, erase := s.w, s.h, s.resized, s.erase
	raw, profile, synced, graphemes := s.raw, s.profile, s.synced, s.graphemes
	s.resized, s.erase, s.raw, s.profile = false, false, nil, nil
	s.mu.Unlock()

	if profile != nil {
		s.scr.SetColorProfile(*profile)
	}
	s.scr.SetGraphemeWidth(graphemes)
	s.asGraphemes = graphemes
	if resized {
		s.cells.Resize(w, h)
		s.scr.Resize(w, h)
		erase = true
	}
	if erase {
		// A whole redraw starts from a terminal in a known state: no
		// scroll region (one left by anything before is forgotten), wrap
		// at the margin on.
		_, _ = s.scr.WriteString(resetMargins + ansi.SetModeAutoWrap + ansi.ResetStyle)
		s.scr.Erase()
	}
	for _, seq := range raw {
		_, _ = s.scr.WriteString(seq)
	}
	if title != s.shownTitle {
		_, _ = s.scr.WriteString(ansi.SetWindowTitle(title))
		s.shownTitle = title
	}
	if erase || content != s.drawn {
		s.paint(content, erase)
		s.scr.Render(s.cells.RenderBuffer)
		s.drawn = content
	}
	_ = s.scr.Flush() // into s.buf
	if s.buf.Len() == 0 {
		return
	}
	s.credit--
	out := s.buf.Bytes()
	if synced {
		// One write still: the terminal holds the frame from its begin to
		// its end and shows it whole, never half drawn.
		s.framed = append(append(append(s.framed[:0], ansi.SetModeSynchronizedOutput...), out...), ansi.ResetModeSynchronizedOutput...)
		out = s.framed
	}
	if _, err := s.out.Write(out); err != nil && s.err == nil {
		s.err = err
	}
	s.buf.Reset()
}

// paint puts content's lines into the cells: only the lines that differ
// from the last frame's, unless all is set. A frame is lines each styled on
// its own (the console fits and styles every line by itself), so a line is
// parsed alone: a style one line leaves open cannot spill onto the next.
// Most frames change a few lines (a count, the cursor's row); parsing the
// 48 lines of a screen each time was most of a frame's cost.
//
// When the frame's last line is blank, every line is then marked changed
// all the same. The renderer rewrites only the lines marked changed,
// trusting its model of the terminal for the others; but when the bottom
// lines turn blank it clears the screen below them itself and, in its
// model, one line above them too, which a frame that had not marked that
// line left blank on the terminal. Comparing the lines' cells with the
// model then rewrites it. (A console frame ends with its status bar, so this
// is the rare frame, drawn for a terminal since grown, say: comparing every
// line of every frame cost more than parsing the changed ones.)
func (s *Screen) paint(content string, all bool) {
	lines := strings.Split(content, "\n")
	w, h := s.cells.Width(), s.cells.Height()
	for y := 0; y < h; y++ {
		line := ""
		if y < len(lines) {
			line = lines[y]
		}
		if all || y >= len(s.lines) || s.lines[y] != line {
			uv.NewStyledString(line).Draw(s.cells, uv.Rect(0, y, w, 1))
			if !s.asGraphemes {
				safeLine(s.cells.RenderBuffer, y)
			}
		}
	}
	if blankLine(s.cells.Line(h - 1)) {
		for y := 0; y < h; y++ {
			s.cells.TouchLine(0, y, w)
		}
	}
	s.lines = lines
}

// blankLine: every cell of l is an unstyled space, the renderer's blank.
func blankLine(l uv.Line) bool {
	for x := range l {
		if c := l.At(x); c != nil && !c.Equal(&uv.EmptyCell) {
			return false
		}
	}
	return true
}

// Close stops drawing and gives the terminal back as Open found it: the
// main screen, the cursor, the keyboard protocol, pastes unmarked, no
// title, and the input's mode. The frame last shown is not drawn again.
// Its error is the first write to the terminal that failed.
func (s *Screen) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	suspended := s.suspended
	s.mu.Unlock()
	if s.running {
		close(s.stop)
		<-s.done
	}
	if suspended {
		// Given back already (Suspend), and never taken again.
		return s.err
	}
	_, err := io.WriteString(s.out, closeSeq(s.shownTitle != ""))
	if rerr := s.restoreInput(); err == nil {
		err = rerr
	}
	if s.err != nil {
		// A frame that could not be written says more than the rest.
		err = s.err
	}
	return err
}

// resetMargins makes the scroll region the whole screen (DECSTBM with no
// margins), whatever size it was set for.
const resetMargins = "\x1b[r"

// closeSeq undoes openSeq: the main screen is left last.
func closeSeq(titled bool) string {
	seq := ansi.ResetModeUnicodeCore + ansi.PopKittyKeyboard(1) + ansi.ResetModifyOtherKeys + ansi.ResetModeBracketedPaste
	if titled {
		seq += ansi.SetWindowTitle("")
	}
	return seq + ansi.SetModeTextCursorEnable + ansi.ResetModeAltScreenSaveCursor
}

func (s *Screen) restoreInput() error {
	if s.in == nil || s.restore == nil {
		return nil
	}
	return term.Restore(s.in.Fd(), s.restore)
}
