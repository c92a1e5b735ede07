//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"opsdeck/data/export"
)

// exportsHelperEnv makes the test binary a console mid-export: it tracks
// exports as start does, starts a reveal export, says where its .part is,
// and ends as told (see TestHelperConsoleMidExport).
const exportsHelperEnv = "OPSDECK_EXPORTS_HELPER"

func TestHelperConsoleMidExport(t *testing.T) {
	dest := os.Getenv(exportsHelperEnv)
	if dest == "" {
		t.Skip("helper process only")
	}
	// Unbuffered, as the debug log is: the signal hook writes from its
	// own goroutine.
	logw := os.Stdout
	atExit := trackExports(logw)
	f, err := export.Create(dest, false)
	if err != nil {
		fmt.Fprintln(logw, "error", err)
		os.Exit(1)
	}
	f.WriteString(`{"signingKey":"-----BEGIN PRIVATE KEY-----"}` + "\n")
	fmt.Fprintln(logw, "part", f.File.Name())
	// "quit" on stdin is q: start's deferred atExit runs. A signal is
	// handled by trackExports itself; the helper then lingers (as a
	// console finishing its writes would) until stdin closes.
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	if strings.TrimSpace(line) == "quit" {
		atExit()
	}
	os.Exit(0)
}

type midExport struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  *bufio.Reader
	part   string
	before []string // what it logged before it started the export
}

func startMidExport(t *testing.T, state string) *midExport {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "q.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperConsoleMidExport$")
	cmd.Env = append(os.Environ(), exportsHelperEnv+"="+dest, "XDG_STATE_HOME="+state)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	c := &midExport{cmd: cmd, stdin: stdin, lines: bufio.NewReader(out)}
	line := c.line(t)
	for strings.HasPrefix(line, "export: ") {
		c.before = append(c.before, line)
		line = c.line(t)
	}
	part, ok := strings.CutPrefix(line, "part ")
	if !ok {
		t.Fatalf("helper: %q", line)
	}
	if _, err := os.Lstat(part); err != nil {
		t.Fatalf("no .part mid-export: %v", err)
	}
	c.part = part
	return c
}

func (c *midExport) line(t *testing.T) string {
	t.Helper()
	line, err := c.lines.ReadString('\n')
	if err != nil {
		t.Fatalf("helper ended: %q %v", line, err)
	}
	return strings.TrimSpace(line)
}

func gone(t *testing.T, path, when string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s: %s still there (%v)", when, path, err)
	}
}

// Quitting mid-export leaves no .part.
func TestQuitMidExportRemovesThePart(t *testing.T) {
	c := startMidExport(t, t.TempDir())
	fmt.Fprintln(c.stdin, "quit")
	if got := c.line(t); got != "export: removed unfinished "+c.part+" (exit)" {
		t.Fatalf("at quit: %q", got)
	}
	c.cmd.Wait()
	gone(t, c.part, "after quit")
}

// SIGTERM and SIGHUP remove it as they arrive, while the console is still
// ending (here it does not end at all until told).
func TestSignalMidExportRemovesThePart(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		c := startMidExport(t, t.TempDir())
		c.cmd.Process.Signal(sig)
		if got, want := c.line(t), "export: removed unfinished "+c.part+" ("+sig.String()+")"; got != want {
			t.Fatalf("%v: %q, want %q (before %q, part %s)", sig, got, want, c.before, c.part)
		}
		gone(t, c.part, sig.String())
		if err := c.cmd.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("%v: the console had ended already (%v): the signal hook, not the exit, must have removed it", sig, err)
		}
	}
}

// A console killed with SIGKILL cannot clean up: the next start does.
func TestCrashMidExportNextStartRemovesThePart(t *testing.T) {
	state := t.TempDir()
	c := startMidExport(t, state)
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.cmd.Wait()
	if _, err := os.Lstat(c.part); err != nil {
		t.Fatalf("after kill -9 the .part is expected still there: %v", err)
	}
	next := startMidExport(t, state)
	want := "export: removed " + c.part + ", left unfinished by an earlier console"
	if len(next.before) != 1 || next.before[0] != want {
		t.Fatalf("the next start said %q, want %q", next.before, want)
	}
	gone(t, c.part, "after the next start")
	if _, err := os.Lstat(next.part); err != nil {
		t.Fatalf("the next console's own export was touched: %v", err)
	}
}
