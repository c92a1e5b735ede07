//go:build unix

package data

import (
	"os/exec"
	"syscall"
)

// detachHelper starts the helper in a session of its own (no controlling
// terminal: it cannot open /dev/tty) and makes cancelling it kill its whole
// process group, so a shell script's children go with it.
func detachHelper(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
