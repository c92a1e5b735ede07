package screen

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// The differential test: generated sequences of frames, the way the console
// makes them (rows removed, inserted and scrolled, a tab bar that comes and
// goes, titles and column widths that change, wide and ambiguous-width
// graphemes), with the terminal resized mid-sequence and frames computed for
// an old size, are drawn by the Screen into a real terminal emulator. After
// every step at which the terminal has received all that was written for a
// frame of its own size, each of its cells must be the frame's.
//
// The emulator measures a grapheme as one cluster (as a terminal in mode
// 2027 does). A terminal that measures rune by rune (tmux) is held by a
// second check: until the terminal has said it measures graphemes, no
// cluster written has two widths.

// diffSequences is how many seeded sequences run (2,000 under the race
// detector, which slows this one goroutine's work several times over and
// has nothing to find in it); each is diffSteps long.
var diffSequences = map[bool]int{false: 3000, true: 2000}[raceOn]

const diffSteps = 24

func TestDifferentialFramesReachTheTerminalCellForCell(t *testing.T) {
	// One emulator, reset (RIS) for each sequence: a new one costs more
	// than the sequence.
	emu := vt.NewEmulator(80, 24)
	// Answers the emulator sends back (none are asked for here) must not
	// block its writes. It is never closed: Close races with the read
	// (x/vt v0.1.0).
	go func() { _, _ = io.Copy(io.Discard, emu) }()
	for seq := 0; seq < diffSequences; seq++ {
		if !runSequence(t, emu, int64(seq)) {
			return
		}
	}
}

// world is one sequence: the terminal, the screen, and the console's model.
type world struct {
	t   *testing.T
	rnd *rand.Rand
	log []string // what happened, for the failure message

	emu     *vt.Emulator
	tw, th  int // the terminal's size
	scr     *Screen
	out     *bytes.Buffer
	pending []byte // written, not yet arrived (a laggy link)
	dirty   bool   // shown or resized since the last draw
	unheard bool   // the terminal was resized, and no SIGWINCH read since
	content string // the newest frame
	graphs  bool   // the screen was told the terminal measures graphemes

	con console

	want    uv.ScreenBuffer // the cells the newest frame should show
	wantKey string          // what want was computed for
}

func runSequence(t *testing.T, emu *vt.Emulator, seed int64) bool {
	t.Helper()
	rnd := rand.New(rand.NewSource(seed))
	w := &world{t: t, rnd: rnd, emu: emu}
	w.tw, w.th = 10+rnd.Intn(30), 3+rnd.Intn(8)
	_, _ = emu.WriteString(ansi.ResetInitialState)
	emu.Resize(w.tw, w.th)
	w.out = &bytes.Buffer{}
	w.scr = newScreen(Options{Out: w.out, Width: w.tw, Height: w.th, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color"}})
	w.con = newConsole(rnd, w.tw, w.th)
	w.show()
	for step := 0; step < diffSteps; step++ {
		w.step()
		if !w.check(seed, step) {
			return false
		}
	}
	// The end of a sequence: every size has arrived and every frame is drawn.
	w.settle()
	return w.check(seed, diffSteps)
}

func (w *world) note(format string, a ...any) { w.log = append(w.log, fmt.Sprintf(format, a...)) }

// step does one thing that happens to a console on a terminal.
func (w *world) step() {
	r := w.rnd
	switch n := r.Intn(20); {
	case n == 0:
		// The terminal is resized; the screen hears of it later (SIGWINCH).
		w.tw, w.th = max(6, w.tw+r.Intn(17)-8), max(2, w.th+r.Intn(7)-3)
		w.emu.Resize(w.tw, w.th)
		w.unheard = true
		w.note("terminal resized to %dx%d", w.tw, w.th)
	case n == 1:
		// SIGWINCH: the size read then (resizes in between coalesce).
		w.scr.Resize(w.tw, w.th)
		w.dirty, w.unheard = true, false
		w.note("screen resized to %dx%d", w.tw, w.th)
	case n == 2:
		// The program hears of the size: its next frame fits it.
		w.con.w, w.con.h = w.scr.w, w.scr.h
		w.note("program sized %dx%d", w.con.w, w.con.h)
		w.show()
	case n == 3 && !w.graphs && r.Intn(3) == 0:
		w.scr.ModeReport(ansi.ModeUnicodeCore, ansi.ModeSet)
		w.graphs = true
		w.dirty = true
		w.note("terminal measures graphemes (2027)")
	default:
		w.con.mutate(w.note)
		w.show()
	}
	if r.Intn(5) != 0 {
		w.draw()
	}
	if r.Intn(4) != 0 {
		w.deliver()
	}
}

func (w *world) show() {
	w.content = w.con.frame()
	w.scr.Show(w.content, w.con.title)
	w.dirty = true
}

func (w *world) draw() {
	w.scr.draw()
	w.pending = append(w.pending, w.out.Bytes()...)
	w.out.Reset()
	w.dirty = false
}

func (w *world) deliver() {
	if !w.graphs {
		if bad := twoWidths(w.pending); bad != "" {
			w.t.Fatalf("a cluster with two widths written to a terminal not known to measure graphemes: %q in %q\n%s", bad, w.pending, strings.Join(w.log, "\n"))
		}
	}
	defer func() {
		// The emulator itself cannot take some stale states (a scroll
		// region past its bottom): a failure of the screen as well.
		if p := recover(); p != nil {
			w.t.Fatalf("the terminal broke on what was written (%v): %q\n%s", p, w.pending, strings.Join(w.log, "\n"))
		}
	}()
	_, _ = w.emu.Write(w.pending)
	w.pending = w.pending[:0]
}

func (w *world) settle() {
	w.scr.Resize(w.tw, w.th)
	w.unheard = false
	w.draw()
	w.deliver()
}

// check compares the terminal's cells with the frame whenever the terminal
// has everything written for a frame drawn at its size, after the screen
// heard of its last resize (a terminal resized and back, unheard, may have
// wrapped or scrolled a frame meant for the other size: the SIGWINCH that
// always follows redraws it).
func (w *world) check(seed int64, step int) bool {
	if w.dirty || w.unheard || len(w.pending) > 0 || w.scr.w != w.tw || w.scr.h != w.th {
		return true
	}
	key := fmt.Sprint(w.tw, w.th, w.graphs, w.content)
	if key != w.wantKey {
		w.want, w.wantKey = expectedCells(w.content, w.tw, w.th, w.graphs), key
	}
	want := w.want
	for y := 0; y < w.th; y++ {
		for x := 0; x < w.tw; x++ {
			got, exp := w.emu.CellAt(x, y), want.CellAt(x, y)
			if !sameCell(got, exp) {
				w.t.Errorf("seed %d step %d: cell %d,%d is %s, the frame has %s\nterminal:\n%s\nframe:\n%s\nsteps:\n%s",
					seed, step, x, y, cellText(got), cellText(exp), w.emu.String(), ansi.Strip(w.content), strings.Join(w.log, "\n"))
				return false
			}
		}
	}
	return true
}

// expectedCells is the frame as a terminal of w×h should show it: lines
// past the bottom dropped, missing ones blank, each cut at the right edge;
// on a terminal not known to measure graphemes, a cluster with two widths
// is shown as terminalSafe makes it.
func expectedCells(content string, w, h int, graphs bool) uv.ScreenBuffer {
	buf := uv.NewScreenBuffer(w, h)
	buf.Method = ansi.GraphemeWidth
	lines := strings.Split(content, "\n")
	for y := 0; y < h && y < len(lines); y++ {
		uv.NewStyledString(lines[y]).Draw(buf, uv.Rect(0, y, w, 1))
	}
	if !graphs {
		for y := 0; y < h; y++ {
			safeLine(buf.RenderBuffer, y)
		}
	}
	return buf
}

func sameCell(got, want *uv.Cell) bool {
	if got == nil {
		got = &uv.EmptyCell
	}
	if want == nil {
		want = &uv.EmptyCell
	}
	if got.Width == 0 && want.Width == 0 {
		return true // both the second column of a wide cell
	}
	gs, ws := got.Style, want.Style
	if got.Content == " " && want.Content == " " {
		// On a blank, what cannot be seen may differ: the renderer erases
		// a run of blanks whose only attributes are invisible there.
		gs, ws = onBlank(gs), onBlank(ws)
	}
	return got.Content == want.Content && got.Width == want.Width && gs.Equal(&ws) && got.Link.Equal(&want.Link)
}

// onBlank is the part of a style that shows on a space.
func onBlank(s uv.Style) uv.Style {
	if s.Attrs&uv.AttrReverse == 0 {
		s.Fg = nil
	}
	s.Attrs &^= uv.AttrBold | uv.AttrFaint | uv.AttrItalic | uv.AttrBlink | uv.AttrRapidBlink
	return s
}

func cellText(c *uv.Cell) string {
	if c == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%q (width %d, style %q)", c.Content, c.Width, c.Style.String())
}

// twoWidths is the first printed cluster in out that a terminal measuring
// rune by rune and one measuring graphemes would give different widths.
func twoWidths(out []byte) string {
	var state byte
	for len(out) > 0 {
		seq, width, n, next := ansi.DecodeSequence(out, state, nil)
		if width > 0 && ansi.WcWidth.StringWidth(string(seq)) != width {
			return string(seq)
		}
		state, out = next, out[n:]
	}
	return ""
}

// console is a model of the console's screen: a title line, a tab bar that
// comes and goes, a column header, the rows in view and a status bar.
type console struct {
	rnd    *rand.Rand
	w, h   int
	title  string // the window title
	head   string
	tabs   bool
	rows   []string
	top    int // the first row in view
	colW   int // the first column's width
	status string
}

func newConsole(rnd *rand.Rand, w, h int) console {
	c := console{rnd: rnd, w: w, h: h, tabs: rnd.Intn(2) == 0, colW: 4 + rnd.Intn(10), head: "Sessions", status: "ok"}
	for i := rnd.Intn(30); i > 0; i-- {
		c.rows = append(c.rows, c.row())
	}
	c.title = "opsdeck · " + c.titleWord()
	return c
}

// titleWord is a word for the window title: one whose UTF-8 has no byte
// 0x80–0x9F. The emulator's parser, like a terminal reading 8-bit
// controls, takes such a byte inside an OSC for a C1 control (0x9C ends
// the title, and the rest is printed as text); terminals that decode UTF-8
// first do not. The title is a string of the console's own, not a cell.
func (c *console) titleWord() string {
	for {
		w := c.word()
		if !strings.ContainsFunc(w, func(r rune) bool {
			for _, b := range []byte(string(r)) {
				if b >= 0x80 && b <= 0x9f {
					return true
				}
			}
			return false
		}) {
			return w
		}
	}
}

// pieces of text: ASCII, wide (CJK, emoji), ambiguous (a symbol or a keycap
// whose emoji presentation a terminal may draw in one cell or two), and a
// combining accent.
var pieces = []string{"sess_", "a0000001", "RUNNING", "COMPLETED", "·", "…", "│", "é", "e\u0301", "한글", "🙂", "☂️", "1️⃣", "✔️", "⚠️", "👩\u200d💻", "🇺🇸", " ", "x", "42"}

var styles = []string{"", "\x1b[1m", "\x1b[31m", "\x1b[7m", "\x1b[38;5;208m", "\x1b[38;2;10;200;90;48;2;30;30;30m", "\x1b[4m", "\x1b[2;3m"}

func (c *console) word() string {
	var b strings.Builder
	for i := 1 + c.rnd.Intn(3); i > 0; i-- {
		b.WriteString(pieces[c.rnd.Intn(len(pieces))])
	}
	return b.String()
}

func (c *console) styled(s string) string {
	st := styles[c.rnd.Intn(len(styles))]
	if st == "" {
		return s
	}
	return st + s + "\x1b[m"
}

func (c *console) row() string {
	return c.styled(c.word()) + "\t" + c.styled(c.word()) + "\t" + c.word()
}

// fit pads or cuts a line of styled text to the frame's width, measured as
// the console's layout measures it (grapheme clusters).
func (c *console) fit(s string) string {
	s = ansi.Truncate(s, c.w, "")
	return s + strings.Repeat(" ", max(0, c.w-ansi.StringWidth(s)))
}

func (c *console) cells(r string) string {
	parts := strings.Split(r, "\t")
	first := ansi.Truncate(parts[0], c.colW, "")
	first += strings.Repeat(" ", max(0, c.colW-ansi.StringWidth(first)))
	return first + " " + strings.Join(parts[1:], " ")
}

func (c *console) frame() string {
	lines := []string{c.fit(c.styled("opsdeck · " + c.head))}
	if c.tabs {
		lines = append(lines, c.fit("\x1b[7m 1 Sessions \x1b[m 2 Runs  3 Inbox"))
	}
	lines = append(lines, c.fit(c.cells("ID\tSTATUS\tNOTE")))
	body := max(0, c.h-len(lines)-1)
	for i := c.top; i < len(c.rows) && i < c.top+body; i++ {
		lines = append(lines, c.fit(c.cells(c.rows[i])))
	}
	for len(lines) < c.h-1 {
		lines = append(lines, c.fit(""))
	}
	status := c.fit(c.status)
	if c.status != "" {
		status = c.fit(c.styled(c.status))
	}
	lines = append(lines, status)
	return strings.Join(lines[:max(1, c.h)], "\n")
}

func (c *console) mutate(note func(string, ...any)) {
	r := c.rnd
	switch r.Intn(9) {
	case 0:
		c.tabs = !c.tabs
		note("tab bar %v", c.tabs)
	case 1:
		if len(c.rows) > 0 {
			i, n := r.Intn(len(c.rows)), 1+r.Intn(4)
			c.rows = append(c.rows[:i], c.rows[min(len(c.rows), i+n):]...)
			note("rows removed at %d", i)
		}
	case 2:
		i := r.Intn(len(c.rows) + 1)
		add := []string{c.row()}
		for r.Intn(2) == 0 {
			add = append(add, c.row())
		}
		c.rows = append(c.rows[:i], append(add, c.rows[i:]...)...)
		note("%d rows inserted at %d", len(add), i)
	case 3:
		c.top = max(0, min(len(c.rows)-1, c.top+r.Intn(9)-4))
		note("scrolled to %d", c.top)
	case 4:
		c.head = c.word()
		c.title = "opsdeck · " + c.titleWord()
		note("title %q", c.head)
	case 5:
		c.colW = 2 + r.Intn(16)
		note("column width %d", c.colW)
	case 6:
		if len(c.rows) > 0 {
			i := r.Intn(len(c.rows))
			c.rows[i] = c.row()
			note("row %d changed", i)
		}
	case 7:
		c.status = c.word() + " " + c.word()
		if r.Intn(3) == 0 {
			c.status = "" // a blank last line: the renderer clears below
		}
		note("status %q", c.status)
	default:
		// A filter: the rows left are a few of them.
		var keep []string
		for _, row := range c.rows {
			if r.Intn(3) == 0 {
				keep = append(keep, row)
			}
		}
		c.rows, c.top = keep, 0
		note("filtered to %d rows", len(keep))
	}
}
