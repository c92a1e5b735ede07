//go:build linux

package console

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// ctrl+z suspends the console as every terminal program does, and so does a
// SIGTSTP from outside: the terminal is given back (the main screen, the
// cursor, the keyboard protocol, cooked mode) and the process stops; SIGCONT
// (what the shell's fg sends) brings it back in raw mode with every cell
// drawn again. Needs no database, as the other signal tests.
func TestSuspendGivesTheTerminalBackAndResumeRedraws(t *testing.T) {
	c := offline(t)
	pid := c.cmd.Process.Pid
	for _, how := range []string{"ctrl+z", "SIGTSTP"} {
		c.mu.Lock()
		mark := len(c.raw)
		c.mu.Unlock()
		if how == "ctrl+z" {
			c.send("\x1a")
		} else if err := unix.Kill(pid, unix.SIGTSTP); err != nil {
			t.Fatal(err)
		}
		// The console is our child: wait4 returns when it stops.
		stopped := make(chan unix.WaitStatus, 1)
		go func() {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pid, &ws, unix.WUNTRACED, nil)
			stopped <- ws
		}()
		select {
		case ws := <-stopped:
			if !ws.Stopped() {
				t.Fatalf("%s: the console did not stop: wait status %#x", how, ws)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the console did not stop; its screen:\n%s", how, c.screen())
		}
		mode, err := unix.IoctlGetTermios(int(c.ptm.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if mode.Lflag&(unix.ICANON|unix.ECHO) != unix.ICANON|unix.ECHO {
			t.Errorf("%s: stopped with the terminal in raw mode: lflag %#x", how, mode.Lflag)
		}
		// Everything written before the stop has been read once the main
		// screen shows: the emulator has left the alternate one.
		if _, err := c.until(func(s *Screen) bool { return !tabBar(s) }, 10*time.Second, "the main screen"); err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		c.mu.Lock()
		out := string(c.raw[mark:])
		c.mu.Unlock()
		for _, want := range []string{ansi.PopKittyKeyboard(1), ansi.ResetModifyOtherKeys, ansi.ResetModeBracketedPaste,
			ansi.SetModeTextCursorEnable, ansi.ResetModeAltScreenSaveCursor} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: suspending wrote %q, which does not give back %q", how, out, want)
			}
		}
		if !strings.HasSuffix(out, ansi.ResetModeAltScreenSaveCursor) {
			t.Errorf("%s: the last thing written before the stop was not leaving the alternate screen: %q", how, out)
		}

		if err := unix.Kill(pid, unix.SIGCONT); err != nil {
			t.Fatal(err)
		}
		// The alternate screen is blank again when the console enters it:
		// its rows are there only if it drew every cell.
		whole := func(s *Screen) bool {
			return tabBar(s) && strings.TrimSpace(s.Line(rows-1)) != "" && strings.TrimSpace(s.Line(1)) != ""
		}
		if _, err := c.until(whole, 20*time.Second, "the console redrawn after SIGCONT"); err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		mode, err = unix.IoctlGetTermios(int(c.ptm.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if mode.Lflag&(unix.ICANON|unix.ECHO) != 0 {
			t.Errorf("%s: resumed without raw mode: lflag %#x", how, mode.Lflag)
		}
	}
	// And it still takes keys: the help screen opens.
	c.send("?")
	if _, err := c.until(func(s *Screen) bool { return s.Contains("(? or esc closes)") }, 10*time.Second, "the help screen"); err != nil {
		t.Fatal(err)
	}
}

// ctrl+l draws every cell again: whatever else reached the terminal is
// overwritten, though the console's frame did not change.
func TestCtrlLRepaintsEveryCell(t *testing.T) {
	c := offline(t)
	c.mu.Lock()
	// Another program's output over the console's rows, where the
	// console has nothing new to draw.
	_, _ = c.scr.Write([]byte("\x1b[5;1HSTRAY-OUTPUT-STRAY-OUTPUT\x1b[1;1HSTRAY"))
	c.mu.Unlock()
	c.send("\x0c")
	clean := func(s *Screen) bool { return !s.Contains("STRAY") && tabBar(s) }
	if _, err := c.until(clean, 10*time.Second, "the screen without the stray output"); err != nil {
		t.Fatal(err)
	}
}
