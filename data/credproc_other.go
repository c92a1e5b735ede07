//go:build !unix

package data

import "os/exec"

// detachHelper has nothing more to do where there are no sessions or
// process groups: cancelling kills the helper itself.
func detachHelper(cmd *exec.Cmd) {}
