package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// Inside tmux the first frames do not wait for `tmux info`: the fast
// profile comes from the environment and terminfo alone, and the full one
// (which asks tmux) is offered separately for the program to switch to.
func TestColorProfileDoesNotWaitForTmux(t *testing.T) {
	dir := t.TempDir()
	asked := filepath.Join(dir, "asked")
	script := "#!/bin/sh\n: > " + asked + "\necho '  Tc: (flag) true'\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	env := []string{"TERM=tmux-256color", "TTY_FORCE=1", "TMUX=/tmp/tmux-test/default,1,0"}

	fast, full := colorProfile(io.Discard, env)
	if _, err := os.Stat(asked); err == nil {
		t.Fatal("tmux was asked before the first frame")
	}
	if fast != colorprofile.ANSI256 {
		t.Errorf("fast profile %v, want ANSI256 from TERM", fast)
	}
	if full == nil {
		t.Fatal("no full profile offered inside tmux")
	}
	if got := full(); got != colorprofile.TrueColor {
		t.Errorf("full profile %v, want TrueColor (tmux says Tc)", got)
	}
	if _, err := os.Stat(asked); err != nil {
		t.Error("the full profile did not ask tmux")
	}

	if _, full := colorProfile(io.Discard, env[:2]); full != nil {
		t.Error("a full profile offered outside tmux")
	}
}
