package screen

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// frameOf is a frame of h lines, each its text padded to w cells.
func frameOf(w int, lines ...string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l + strings.Repeat(" ", max(w-len(l), 0))
	}
	return strings.Join(out, "\n")
}

// drawn is a screen whose writer does not run: each draw is the test's.
func drawn(t *testing.T, w, h int) (*Screen, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s := newScreen(Options{Out: &out, Width: w, Height: h, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color"}})
	return s, &out
}

func TestAFrameIsDrawnWholeFirstThenOnlyItsChanges(t *testing.T) {
	s, out := drawn(t, 20, 3)
	s.Show(frameOf(20, "alpha", "bravo", "charlie"), "")
	s.draw()
	first := ansi.Strip(out.String())
	for _, want := range []string{"alpha", "bravo", "charlie"} {
		if !strings.Contains(first, want) {
			t.Fatalf("first frame %q lacks %q", first, want)
		}
	}
	out.Reset()
	s.Show(frameOf(20, "alpha", "BRAVO", "charlie"), "")
	s.draw()
	second := ansi.Strip(out.String())
	if !strings.Contains(second, "BRAVO") {
		t.Fatalf("second frame %q lacks the changed line", second)
	}
	if strings.Contains(second, "alpha") || strings.Contains(second, "charlie") {
		t.Fatalf("second frame %q wrote lines that did not change", second)
	}
}

func TestTheSameFrameAgainWritesNothing(t *testing.T) {
	s, out := drawn(t, 20, 2)
	f := frameOf(20, "one", "two")
	s.Show(f, "opsdeck")
	s.draw()
	if out.Len() == 0 {
		t.Fatal("the first frame wrote nothing")
	}
	out.Reset()
	s.Show(f, "opsdeck")
	s.draw()
	if out.Len() != 0 {
		t.Fatalf("an unchanged frame wrote %q", out.String())
	}
}

func TestTheWindowTitleIsWrittenWhenItChanges(t *testing.T) {
	s, out := drawn(t, 20, 1)
	f := frameOf(20, "x")
	s.Show(f, "")
	s.draw()
	if strings.Contains(out.String(), "\x1b]2;") {
		t.Fatalf("no title, yet one was set: %q", out.String())
	}
	out.Reset()
	s.Show(f, "opsdeck · prod")
	s.draw()
	if got := out.String(); got != ansi.SetWindowTitle("opsdeck · prod") {
		t.Fatalf("title change wrote %q, want only the title", got)
	}
}

func TestAResizeDrawsEveryCellAgain(t *testing.T) {
	s, out := drawn(t, 20, 2)
	s.Show(frameOf(20, "left", "right"), "")
	s.draw()
	out.Reset()
	s.Resize(30, 2)
	s.Show(frameOf(30, "left", "right"), "")
	s.draw()
	got := ansi.Strip(out.String())
	if !strings.Contains(got, "left") || !strings.Contains(got, "right") {
		t.Fatalf("after a resize the frame %q was not drawn whole", got)
	}
}

func TestSequencesSentGoOutBeforeTheNextFrame(t *testing.T) {
	s, out := drawn(t, 20, 1)
	s.Send(ansi.RequestBackgroundColor)
	s.Show(frameOf(20, "frame"), "")
	s.draw()
	got := out.String()
	q := strings.Index(got, ansi.RequestBackgroundColor)
	f := strings.Index(got, "frame")
	if q < 0 || f < 0 || q > f {
		t.Fatalf("want the query, then the frame, in one write: %q", got)
	}
	out.Reset()
	s.draw()
	if out.Len() != 0 {
		t.Fatalf("a sent sequence was written twice: %q", out.String())
	}
}

func TestANewProfileRedrawsInIt(t *testing.T) {
	s, out := drawn(t, 10, 1)
	red := "\x1b[38;2;255;0;0mred\x1b[m" + strings.Repeat(" ", 7)
	s.SetProfile(colorprofile.ANSI)
	s.Show(red, "")
	s.draw()
	if strings.Contains(out.String(), "38;2;") {
		t.Fatalf("a 16-colour terminal got a true colour: %q", out.String())
	}
	out.Reset()
	s.SetProfile(colorprofile.TrueColor)
	s.draw()
	if !strings.Contains(out.String(), "38;2;255;0;0") || !strings.Contains(ansi.Strip(out.String()), "red") {
		t.Fatalf("the new profile did not redraw the frame in true colour: %q", out.String())
	}
}

// writes hands each write to the terminal to the test.
type writes struct {
	mu   sync.Mutex
	got  chan string
	fail error
}

func (w *writes) Write(b []byte) (int, error) {
	w.mu.Lock()
	fail := w.fail
	w.mu.Unlock()
	if fail != nil {
		return 0, fail
	}
	w.got <- string(b)
	return len(b), nil
}

func next(t *testing.T, w *writes) string {
	t.Helper()
	select {
	case s := <-w.got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was written")
		return ""
	}
}

func TestOpenShowCloseOnATerminal(t *testing.T) {
	w := &writes{got: make(chan string, 16)}
	// Over SSH: the terminal is not asked about synchronized output.
	s, err := Open(Options{Out: w, Width: 20, Height: 1, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color", "SSH_TTY=/dev/pts/3"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := next(t, w); got != openSeq {
		t.Fatalf("Open wrote %q, want the set-up %q", got, openSeq)
	}
	// A frame shown is written by the screen itself, with nothing else
	// (no tick, no further frame) to prompt it.
	s.Show(frameOf(20, "shown"), "title")
	if got := next(t, w); !strings.Contains(ansi.Strip(got), "shown") {
		t.Fatalf("the frame written was %q", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	end := next(t, w)
	for _, want := range []string{ansi.ResetModeAltScreenSaveCursor, ansi.SetModeTextCursorEnable, ansi.ResetModeBracketedPaste,
		ansi.PopKittyKeyboard(1), ansi.ResetModifyOtherKeys, ansi.SetWindowTitle("")} {
		if !strings.Contains(end, want) {
			t.Errorf("Close wrote %q, lacking %q", end, want)
		}
	}
	if !strings.HasSuffix(end, ansi.ResetModeAltScreenSaveCursor) {
		t.Errorf("Close should leave the alternate screen last: %q", end)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	select {
	case extra := <-w.got:
		t.Fatalf("a second Close wrote %q", extra)
	default:
	}
}

func TestAFailedWriteIsCloseError(t *testing.T) {
	gone := errors.New("input/output error")
	w := &writes{got: make(chan string, 4), fail: gone}
	s := newScreen(Options{Out: w, Width: 10, Height: 1})
	s.Show(frameOf(10, "x"), "")
	s.draw()
	if err := s.Close(); !errors.Is(err, gone) {
		t.Fatalf("Close = %v, want the failed frame's error", err)
	}
}

func TestFramesGoOutInBurstsThenArePaced(t *testing.T) {
	s, out := drawn(t, 10, 1)
	at := time.Date(2026, 11, 27, 2, 0, 0, 0, time.UTC)
	show := func(i int) {
		s.Show(frameOf(10, fmt.Sprint(i)), "")
		s.draw()
	}
	// After a quiet spell, frameBurst frames go out at once (a page's
	// frame, then a key's).
	for i := 0; i < frameBurst; i++ {
		if wait := s.turn(at); wait != 0 {
			t.Fatalf("frame %d of a burst waits %v", i, wait)
		}
		show(i)
	}
	// The next waits for its turn: 1/frameRate s.
	wait := s.turn(at)
	if want := time.Second / frameRate; wait < want-time.Microsecond || wait > want+time.Microsecond {
		t.Fatalf("the frame after a burst waits %v, want %v", wait, want)
	}
	at = at.Add(wait)
	if w := s.turn(at); w != 0 {
		t.Fatalf("after its wait the frame waits %v more", w)
	}
	show(frameBurst)
	// A frame that writes nothing spends nothing.
	out.Reset()
	s.draw()
	if out.Len() != 0 {
		t.Fatalf("nothing changed, yet %q was written", out.String())
	}
	at = at.Add(time.Second / frameRate)
	if w := s.turn(at); w != 0 {
		t.Fatalf("a frame that wrote nothing took a turn: the next waits %v", w)
	}
	// A quiet second gives the whole burst back.
	at = at.Add(time.Second)
	for i := 0; i < frameBurst; i++ {
		if wait := s.turn(at); wait != 0 {
			t.Fatalf("after a quiet second, frame %d waits %v", i, wait)
		}
		show(10 + i)
	}
}

func TestOnlyChangedLinesAreRedrawnAndTheCellsMatchAWholeDraw(t *testing.T) {
	red := func(s string) string { return "\x1b[31m" + s + "\x1b[m" }
	a := frameOf(12, red("one"), "two", red("three"), "four")
	// Line 2 changes; line 3 is the same text; and line 1's style is left
	// open, which must not colour line 2.
	b := strings.Join([]string{
		red("one") + strings.Repeat(" ", 9),
		"\x1b[1mtwo!" + strings.Repeat(" ", 8),
		red("three") + strings.Repeat(" ", 7),
		"four" + strings.Repeat(" ", 8),
	}, "\n")
	inc, out := drawn(t, 12, 4)
	inc.Show(a, "")
	inc.draw()
	out.Reset()
	inc.Show(b, "")
	inc.draw()
	if got := ansi.Strip(out.String()); strings.Contains(got, "one") || strings.Contains(got, "three") || strings.Contains(got, "four") {
		t.Fatalf("unchanged lines were written again: %q", got)
	}
	whole, _ := drawn(t, 12, 4)
	whole.Show(b, "")
	whole.draw()
	for y := 0; y < 4; y++ {
		for x := 0; x < 12; x++ {
			ic, wc := inc.cells.CellAt(x, y), whole.cells.CellAt(x, y)
			if ic == nil || wc == nil || ic.Content != wc.Content || !ic.Style.Equal(&wc.Style) {
				t.Fatalf("cell %d,%d: drawn line by line %+v, drawn whole %+v", x, y, ic, wc)
			}
		}
	}
	if c := inc.cells.CellAt(0, 2); c.Style.Attrs != 0 {
		t.Fatalf("line 1's open bold spilled onto line 2: %+v", c.Style)
	}
}

func TestSynchronizedOutputIsAskedWhereTheLibraryAskedIt(t *testing.T) {
	cases := []struct {
		env  []string
		want bool
	}{
		{[]string{"TERM=xterm-256color"}, true},
		{[]string{"TERM=xterm-256color", "TERM_PROGRAM=tmux"}, true},
		{[]string{"TERM=xterm-256color", "TERM_PROGRAM=Apple_Terminal"}, false},
		{[]string{"TERM=xterm-256color", "SSH_TTY=/dev/pts/1"}, false},
		{[]string{"TERM=xterm-kitty", "SSH_TTY=/dev/pts/1"}, true},
		{[]string{"TERM=xterm-256color", "SSH_TTY=/dev/pts/1", "WT_SESSION=1"}, true},
	}
	for _, c := range cases {
		if got := asksSync(c.env); got != c.want {
			t.Errorf("asksSync(%q) = %v, want %v", c.env, got, c.want)
		}
	}
	w := &writes{got: make(chan string, 16)}
	s, err := Open(Options{Out: w, Width: 20, Height: 1, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if want := openSeq + ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore; next(t, w) != want {
		t.Fatalf("Open did not write the set-up and the questions %q", want)
	}
}

func TestFramesAreSynchronizedOnceTheTerminalSaysItCan(t *testing.T) {
	w := &writes{got: make(chan string, 16)}
	s := newScreen(Options{Out: w, Width: 20, Height: 2, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color"}})
	synced := func(frame string) bool {
		return strings.HasPrefix(frame, ansi.SetModeSynchronizedOutput) && strings.HasSuffix(frame, ansi.ResetModeSynchronizedOutput)
	}
	s.Show(frameOf(20, "one", "two"), "")
	s.draw()
	if got := next(t, w); synced(got) || strings.Contains(got, ansi.SetModeSynchronizedOutput) {
		t.Fatalf("a frame before any answer was synchronized: %q", got)
	}
	// Another mode's answer, and "not recognized", change nothing.
	s.ModeReport(ansi.ModeUnicodeCore, ansi.ModeSet)
	s.ModeReport(ansi.ModeSynchronizedOutput, ansi.ModeNotRecognized)
	s.Show(frameOf(20, "one", "TWO"), "")
	s.draw()
	if got := next(t, w); strings.Contains(got, ansi.SetModeSynchronizedOutput) {
		t.Fatalf("synchronized on an answer that says it cannot be: %q", got)
	}
	// The terminal has it (off for now): every frame after is held whole,
	// in one write.
	s.ModeReport(ansi.ModeSynchronizedOutput, ansi.ModeReset)
	if !s.Synchronized() {
		t.Fatal("Synchronized() false after the terminal said it has the mode")
	}
	s.Show(frameOf(20, "ONE", "TWO"), "")
	s.draw()
	got := next(t, w)
	if !synced(got) || !strings.Contains(ansi.Strip(got), "ONE") {
		t.Fatalf("the frame after the answer was %q", got)
	}
	// Nothing changed: nothing written, not even an empty begin and end.
	s.draw()
	select {
	case extra := <-w.got:
		t.Fatalf("an unchanged frame wrote %q", extra)
	default:
	}
}
