//go:build linux

package console

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// SIGTERM (kill, a closing session) ends the console cleanly and at once,
// whenever it comes. The program library's own handler used to race
// opsdeck's: when opsdeck's won, the library's blocked send hung the exit
// for good, about one time in three. Needs no database: the endpoint
// refuses, so the first page fails and the stream reader keeps retrying.
func TestSIGTERMEndsTheConsole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ops, _ := binaries(t)
	for i := 0; i < 10; i++ {
		c := launch(t, ops, "--endpoint-url", "http://127.0.0.1:1")
		if _, err := c.until(tabBar, time.Minute, "tab bar"); err != nil {
			t.Fatal(err)
		}
		c.stop() // SIGTERM; a hang fails the test with the goroutines
		if t.Failed() {
			return
		}
		if c.exitErr != nil {
			t.Fatalf("run %d: exit after SIGTERM: %v", i, c.exitErr)
		}
	}
}

// Closing the terminal ends the console even when the console is not the
// terminal's session leader, as under `make demo`: the kernel sends SIGHUP
// to the leader alone, and make, the leader there, outlives it and waits
// for its child, so nothing else is signalled. The console only sees its
// input end. It used to run on without keys, with its demo server, until
// killed. Needs no database, as above.
func TestClosedTerminalEndsTheConsole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ops, _ := binaries(t)
	// The shell leads the terminal's session, ignores the hang-up as make
	// does, and waits for the console, its child (the `exit` keeps it
	// from exec'ing the console instead).
	script := filepath.Join(t.TempDir(), "lead.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntrap '' HUP\n\""+ops+"\" \"$@\"\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := launch(t, script, "--endpoint-url", "http://127.0.0.1:1")
	if _, err := c.until(tabBar, time.Minute, "tab bar"); err != nil {
		t.Fatal(err)
	}
	pid := onlyChild(t, c.cmd.Process.Pid)
	exited, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	defer unix.Close(exited)
	defer unix.Kill(pid, unix.SIGKILL) // a console left running fails the test, then goes

	c.ptm.Close() // the terminal goes away
	fds := []unix.PollFd{{Fd: int32(exited), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int((20 * time.Second).Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("the console (pid %d) still runs 20 s after its terminal closed", pid)
		}
		return
	}
}

// onlyChild is the one child process of pid.
func onlyChild(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		t.Fatalf("process %d has children %q, want one", pid, f)
	}
	child, err := strconv.Atoi(f[0])
	if err != nil {
		t.Fatal(err)
	}
	return child
}

// Quitting gives the terminal back as the console found it: the screen
// (ui/screen) owns raw mode, the alternate screen, the hidden cursor,
// bracketed paste and the keyboard protocol, and must undo each. Needs no
// database, as above.
func TestQuitGivesTheTerminalBack(t *testing.T) {
	c := offline(t)
	raw, err := unix.IoctlGetTermios(int(c.ptm.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Lflag&(unix.ICANON|unix.ECHO) != 0 {
		t.Fatalf("the console runs without raw mode: lflag %#x", raw.Lflag)
	}
	c.mu.Lock()
	c.closed = true // it quits by itself; nothing to stop
	c.mu.Unlock()
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	c.send("q")
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after q: %v", err)
		}
	case <-time.After(20 * time.Second):
		_ = c.cmd.Process.Kill()
		t.Fatalf("q did not end the console; its screen:\n%s", c.screen())
	}
	after, err := unix.IoctlGetTermios(int(c.ptm.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if after.Lflag&(unix.ICANON|unix.ECHO) != unix.ICANON|unix.ECHO || after.Oflag&unix.OPOST == 0 {
		t.Errorf("the terminal was left in raw mode: lflag %#x oflag %#x", after.Lflag, after.Oflag)
	}
	c.ptm.Close()
	<-c.done
	out := string(c.raw)
	last := strings.LastIndex(out, ansi.ResetModeAltScreenSaveCursor) // the main screen back
	if last < 0 || strings.TrimSpace(ansi.Strip(out[last:])) != "" {
		t.Fatalf("the console did not end on the main screen; its output ends %q", out[max(len(out)-200, 0):])
	}
	end := out[max(strings.LastIndex(out, ansi.PopKittyKeyboard(1)), 0):]
	for _, want := range []string{ansi.PopKittyKeyboard(1), ansi.ResetModifyOtherKeys, ansi.ResetModeBracketedPaste,
		ansi.SetModeTextCursorEnable, ansi.ResetModeAltScreenSaveCursor} {
		if !strings.Contains(end, want) {
			t.Errorf("the console's last output %q does not give back %q", end, want)
		}
	}
}

// TestFramesSynchronizedWhenTheTerminalAnswers: the console asks the
// terminal whether it has synchronized output (DECRQM 2026); until it
// answers, frames go out bare, and once it answers that it has the mode,
// each frame is written between the mode's begin and end.
func TestFramesSynchronizedWhenTheTerminalAnswers(t *testing.T) {
	c := offline(t)
	c.mu.Lock()
	before := string(c.raw)
	c.mu.Unlock()
	if !strings.Contains(before, ansi.RequestModeSynchronizedOutput) {
		t.Fatalf("the console did not ask about synchronized output; it wrote %q", before[:min(len(before), 200)])
	}
	if strings.Contains(before, ansi.SetModeSynchronizedOutput) {
		t.Fatal("a frame was synchronized before the terminal answered")
	}
	c.send("\x1b[?2026;2$y") // DECRPM: the mode is known, and reset
	helpShown := func(s *Screen) bool { return s.Contains("(? or esc closes)") }
	// The answer is input like a key: ? after it draws a frame after it.
	c.send("?")
	// The screen may show the help before the frame's last bytes (the
	// mode's end) are read: wait for both. Conditions run under c.mu, so
	// this one may read the raw output.
	helpWritten := func(s *Screen) bool {
		return helpShown(s) && strings.Contains(string(c.raw[min(len(before), len(c.raw)):]), ansi.ResetModeSynchronizedOutput)
	}
	if _, err := c.until(helpWritten, 10*time.Second, "the help screen, synchronized"); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	after := string(c.raw[min(len(before), len(c.raw)):])
	c.mu.Unlock()
	begin := strings.Index(after, ansi.SetModeSynchronizedOutput)
	end := strings.LastIndex(after, ansi.ResetModeSynchronizedOutput)
	if begin < 0 || end < begin || !strings.Contains(ansi.Strip(after[begin:end]), "closes") {
		t.Fatalf("the help's frame was not synchronized: %q\nlog: %s", after[max(len(after)-300, 0):], c.logTail())
	}
}

// offline launches the built console against a port where nothing
// listens (these tests need no database) and waits for its tab bar.
func offline(t *testing.T) *console {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ops, _ := binaries(t)
	c := launch(t, ops, "--endpoint-url", "http://127.0.0.1:1")
	if _, err := c.until(tabBar, time.Minute, "tab bar"); err != nil {
		t.Fatal(err)
	}
	return c
}
