package console

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair sized cols×rows: the program gets
// tty (its controlling terminal), the benchmark reads and writes ptm.
func openPTY(cols, rows int) (ptm, tty *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("opening /dev/ptmx: %w", err)
	}
	ptm = os.NewFile(uintptr(fd), "/dev/ptmx")
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		ptm.Close()
		return nil, nil, fmt.Errorf("unlocking the pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		ptm.Close()
		return nil, nil, fmt.Errorf("pty number: %w", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		ptm.Close()
		tty.Close()
		return nil, nil, fmt.Errorf("sizing the pty: %w", err)
	}
	return ptm, tty, nil
}

// attachTTY makes tty the command's stdin, stdout, stderr and controlling
// terminal, in a session of its own (as a terminal emulator starts a shell).
func attachTTY(cmd *exec.Cmd, tty *os.File) {
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}

// procCPU is the CPU time (user + system) a running process has used so
// far, from /proc/<pid>/stat, in seconds (clock-tick resolution, 10 ms).
func procCPU(pid int) (float64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from the last ')'.
	i := len(b) - 1
	for i >= 0 && b[i] != ')' {
		i--
	}
	fields := strings.Fields(string(b[i+1:]))
	// After ')': state(3) … utime(14) stime(15) → indexes 11 and 12.
	if len(fields) < 13 {
		return 0, fmt.Errorf("short /proc stat")
	}
	ut, _ := strconv.ParseFloat(fields[11], 64)
	st, _ := strconv.ParseFloat(fields[12], 64)
	return (ut + st) / 100, nil // USER_HZ is 100 on Linux
}

// procRSSMB reads a VmRSS/VmHWM line of /proc/<pid>/status in MB.
func procRSSMB(pid int, field string) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				kb, _ := strconv.ParseFloat(f[0], 64)
				return kb / 1024
			}
		}
	}
	return 0
}
