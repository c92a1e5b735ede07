//go:build unix && !linux

package ddblocal

import (
	"os/exec"
	"syscall"
)

// detach puts java in its own process group. Without Linux's Pdeathsig a
// hard crash of the owner can orphan it; RunTests and Stop cover the rest.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
