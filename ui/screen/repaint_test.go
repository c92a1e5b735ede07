package screen

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// emulated is a screen drawing into a terminal emulator.
func emulated(t *testing.T, w, h int) (*Screen, *bytes.Buffer, *vt.Emulator) {
	t.Helper()
	emu := vt.NewEmulator(w, h)
	// Its answers (none are asked for here) must not block its writes.
	// It is never closed: Close races with the read (x/vt v0.1.0).
	go func() { _, _ = io.Copy(io.Discard, emu) }()
	var out bytes.Buffer
	s := newScreen(Options{Out: &out, Width: w, Height: h, Profile: colorprofile.TrueColor, Env: []string{"TERM=xterm-256color"}})
	return s, &out, emu
}

// shown is the emulator's text, and text a frame's, as lines without
// trailing blanks.
func shown(emu *vt.Emulator) string { return text(emu.String()) }

func text(frame string) string {
	lines := strings.Split(strings.TrimRight(ansi.Strip(frame), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func flushTo(out *bytes.Buffer, emu *vt.Emulator) {
	_, _ = emu.Write(out.Bytes())
	out.Reset()
}

func TestRepaintDrawsEveryCellAgain(t *testing.T) {
	s, out, emu := emulated(t, 20, 3)
	f := frameOf(20, "alpha", "bravo", "charlie")
	s.Show(f, "")
	s.draw()
	flushTo(out, emu)
	// Something else writes over the console's cells.
	_, _ = emu.WriteString("\x1b[2;1HSTRAY\x1b[3;3Hxx")
	s.draw() // the frame did not change: nothing is written
	if out.Len() != 0 {
		t.Fatalf("an unchanged frame wrote %q", out.String())
	}
	s.Repaint()
	s.draw()
	flushTo(out, emu)
	if got, want := shown(emu), text(f); got != want {
		t.Fatalf("after Repaint the terminal shows\n%q\nwant\n%q", got, want)
	}
}

func TestSuspendGivesTheTerminalBackAndResumeDrawsWhole(t *testing.T) {
	s, out, emu := emulated(t, 20, 2)
	_, _ = emu.WriteString(openSeq)
	s.Show(frameOf(20, "one", "two"), "opsdeck")
	s.draw()
	flushTo(out, emu)
	if err := s.Suspend(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != closeSeq(true) {
		t.Fatalf("Suspend wrote %q, want %q", got, closeSeq(true))
	}
	flushTo(out, emu)
	if emu.IsAltScreen() {
		t.Fatal("suspended on the alternate screen")
	}
	// Frames shown while suspended are kept, not drawn.
	s.Show(frameOf(20, "ONE", "two"), "opsdeck")
	s.draw()
	if out.Len() != 0 {
		t.Fatalf("a frame was written while suspended: %q", out.String())
	}
	if err := s.Resume(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), openSeq) {
		t.Fatalf("Resume wrote %q, want the set-up first", out.String())
	}
	s.draw()
	flushTo(out, emu)
	if !emu.IsAltScreen() {
		t.Fatal("resumed off the alternate screen")
	}
	// The alternate screen was cleared on the way in: the rows are there
	// only because every cell was drawn, the unchanged one too.
	if got := shown(emu); got != text(frameOf(20, "ONE", "two")) {
		t.Fatalf("after Resume the terminal shows %q", got)
	}
	// Close after a resume gives the terminal back once more.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != closeSeq(true) {
		t.Fatalf("Close wrote %q", got)
	}
}

func TestCloseWhileSuspendedWritesNothing(t *testing.T) {
	s, out, _ := emulated(t, 10, 1)
	s.Show(frameOf(10, "x"), "")
	s.draw()
	out.Reset()
	if err := s.Suspend(); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatalf("Close after Suspend wrote %q: the shell's screen is not ours", out.String())
	}
}
