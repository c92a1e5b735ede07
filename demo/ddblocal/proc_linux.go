//go:build linux

package ddblocal

import (
	"os/exec"
	"syscall"
)

// detach puts java in its own process group (so Stop can kill the group and
// a Ctrl-C in the terminal is ours to handle) and asks the kernel to SIGKILL
// it when we die: a crashed test binary, a test timeout or `kill -9` can
// then never leave an orphan java behind.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
