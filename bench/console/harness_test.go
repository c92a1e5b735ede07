//go:build linux

package console

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"opsdeck/views"
)

// The terminal every run gets: the size the targets are measured in.
const cols, rows = 160, 48

// build compiles opsdeck and the bare program once per test process, plain
// (no -race, whatever the test binary was built with). OPSDECK_BENCH_OPSDECK
// names another opsdeck binary to run instead (a baseline build of an
// older commit); the bare program is always this tree's.
var built struct {
	once       sync.Once
	dir        string
	opsdeck    string
	bare       string
	err        error
	cleanupDir func()
}

func binaries(tb testing.TB) (opsdeck, bare string) {
	tb.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "opsdeck-bench-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		for _, p := range []struct{ out, pkg string }{
			{filepath.Join(dir, "opsdeck"), "opsdeck"},
			{filepath.Join(dir, "bare"), "opsdeck/bench/console/bare"},
		} {
			cmd := exec.Command("go", "build", "-o", p.out, p.pkg)
			if out, err := cmd.CombinedOutput(); err != nil {
				built.err = fmt.Errorf("go build %s: %v\n%s", p.pkg, err, out)
				return
			}
		}
		built.opsdeck, built.bare = filepath.Join(dir, "opsdeck"), filepath.Join(dir, "bare")
		if other := os.Getenv("OPSDECK_BENCH_OPSDECK"); other != "" {
			// Another build to measure (an older commit, for a baseline).
			built.opsdeck = other
		}
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.opsdeck, built.bare
}

// console is one run of the opsdeck binary in a pseudo-terminal. A reader
// goroutine feeds everything the program writes into a Screen and wakes the
// waiters whose condition the screen now meets, stamping the moment the
// bytes were read.
type console struct {
	cmd   *exec.Cmd
	ptm   *os.File
	start time.Time
	home  string
	log   string // --debug-log file

	mu      sync.Mutex
	scr     *Screen
	waiters []*waiter
	last    time.Time // last read
	bursts  int       // output bursts: reads more than burstGap after the previous one
	bytes   int
	closed  bool
	done    chan struct{}
	raw     []byte // the last rawKeep bytes of output, for diagnostics
	tb      testing.TB
	exitErr error // how the program ended, once stop returned
}

const rawKeep = 256 << 10

// burstGap separates two frames in the output: the screen writes one
// frame in one write (the pty may split it into several reads, microseconds
// apart). Frames written back to back, closer than this, count as one
// (ui/screen lets three go at once); sustained, they are 8 ms apart.
const burstGap = 4 * time.Millisecond

type waiter struct {
	cond func(*Screen) bool
	at   chan time.Time
}

// launch starts the binary with args in a fresh home directory (no config
// file of the developer's, no AWS profile) and TERM=xterm-256color.
func launch(tb testing.TB, bin string, args ...string) *console {
	return launchProfiled(tb, "", bin, args...)
}

// launchProfiled is launch with profiles of the run written to
// profile+".cpu" (CPU, the whole run) and profile+".heap" (the heap in use
// at the end); "" for none.
func launchProfiled(tb testing.TB, profile, bin string, args ...string) *console {
	tb.Helper()
	return launchEnv(tb, profile, nil, bin, args...)
}

// launchEnv is launchProfiled with env added to the clean environment.
func launchEnv(tb testing.TB, profile string, env []string, bin string, args ...string) *console {
	tb.Helper()
	home := tb.TempDir()
	c := &console{home: home, log: filepath.Join(home, "debug.log"), scr: NewScreen(cols, rows), done: make(chan struct{}), tb: tb}
	ptm, tty, err := openPTY(cols, rows)
	if err != nil {
		tb.Fatal(err)
	}
	c.ptm = ptm
	c.cmd = exec.Command(bin, append([]string{"--debug-log", c.log}, args...)...)
	c.cmd.Env = append(cleanEnv(home), env...)
	if profile != "" {
		c.cmd.Env = append(c.cmd.Env, "OPSDECK_CPUPROFILE="+profile+".cpu", "OPSDECK_MEMPROFILE="+profile+".heap")
	}
	attachTTY(c.cmd, tty)
	c.start = time.Now()
	if err := c.cmd.Start(); err != nil {
		ptm.Close()
		tty.Close()
		tb.Fatal(err)
	}
	tty.Close() // the child has it
	go c.read()
	tb.Cleanup(c.stop)
	return c
}

// cleanEnv is the environment of every launched program: PATH, a private
// HOME, a terminal type; nothing from the AWS environment; the Go
// runtime's GOMEMLIMIT, GOGC, GODEBUG and GOMAXPROCS when set.
func cleanEnv(home string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"AWS_EC2_METADATA_DISABLED=true",
	}
	// The Go runtime's own knobs pass through, to compare GC settings.
	for _, k := range []string{"GOMEMLIMIT", "GOGC", "GODEBUG", "GOMAXPROCS"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func (c *console) read() {
	defer close(c.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := c.ptm.Read(buf)
		now := time.Now()
		if n > 0 {
			c.mu.Lock()
			if now.Sub(c.last) > burstGap {
				c.bursts++
			}
			c.last = now
			c.bytes += n
			c.scr.Write(buf[:n])
			c.raw = append(c.raw, buf[:n]...)
			if len(c.raw) > rawKeep {
				c.raw = append(c.raw[:0], c.raw[len(c.raw)-rawKeep:]...)
			}
			kept := c.waiters[:0]
			for _, w := range c.waiters {
				if w.cond(c.scr) {
					w.at <- now
				} else {
					kept = append(kept, w)
				}
			}
			c.waiters = kept
			c.mu.Unlock()
		}
		if err != nil {
			return // EIO once the program has exited
		}
	}
}

// until waits for the screen to meet cond and returns how long after launch
// it first did (the moment its bytes were read).
func (c *console) until(cond func(*Screen) bool, timeout time.Duration, what string) (time.Duration, error) {
	w := &waiter{cond: cond, at: make(chan time.Time, 1)}
	c.mu.Lock()
	if cond(c.scr) {
		c.mu.Unlock()
		return time.Since(c.start), nil
	}
	c.waiters = append(c.waiters, w)
	c.mu.Unlock()
	select {
	case at := <-w.at:
		return at.Sub(c.start), nil
	case <-c.done:
		return 0, fmt.Errorf("the program exited before %s; screen:\n%s%s", what, c.screen(), c.logTail())
	case <-time.After(timeout):
		return 0, fmt.Errorf("no %s after %v; screen:\n%s%s", what, timeout, c.screen(), c.logTail())
	}
}

func (c *console) screen() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.scr.Lines(), "\n")
}

func (c *console) logTail() string {
	b, err := os.ReadFile(c.log)
	if err != nil {
		return ""
	}
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return "\n--- debug log (end) ---\n" + string(b)
}

// counters returns the output bursts and bytes so far.
func (c *console) counters() (bursts, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bursts, c.bytes
}

// send types keys into the terminal.
func (c *console) send(keys string) {
	_, _ = io.WriteString(c.ptm, keys)
}

// cpu is the CPU time the program has used so far, in seconds.
func (c *console) cpu() float64 {
	s, _ := procCPU(c.cmd.Process.Pid)
	return s
}

// peakRSS is the program's peak resident set so far, in MB.
func (c *console) peakRSS() float64 { return procRSSMB(c.cmd.Process.Pid, "VmHWM") }

// stop ends the program as a closing terminal would (SIGTERM, which opsdeck
// treats as the end of its session) and waits for it.
func (c *console) stop() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case c.exitErr = <-exited:
	case <-time.After(10 * time.Second):
		// A console that ignores SIGTERM is a bug: show where it hangs
		// (SIGQUIT makes the Go runtime print every goroutine).
		_ = c.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = c.cmd.Process.Kill()
			<-exited
		}
		c.ptm.Close()
		<-c.done
		msg := fmt.Sprintf("opsdeck did not exit within 10 s of SIGTERM; its last output:\n%s", c.rawTail())
		if _, bench := c.tb.(*testing.B); bench {
			// A benchmark has its figures by now; TestSIGTERMEndsTheConsole
			// is where a hang fails.
			c.tb.Log(msg)
		} else {
			c.tb.Error(msg)
		}
		return
	}
	c.ptm.Close()
	<-c.done
}

// rawTail is the end of what the program wrote, as text (escape sequences
// stripped): after a SIGQUIT, the Go runtime's goroutine dump.
func (c *console) rawTail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	text := ansi.Strip(string(c.raw))
	if len(text) > 32<<10 {
		text = text[len(text)-32<<10:]
	}
	return text
}

// phases returns the start-up lines of the debug log.
func (c *console) phases() string {
	b, err := os.ReadFile(c.log)
	if err != nil {
		return ""
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "startup:") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// execToMain is how long exec, the Go runtime and package initialisation
// took: from launch to the "process started at" line of the debug log.
func (c *console) execToMain() (time.Duration, bool) {
	b, err := os.ReadFile(c.log)
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "startup: process started at "); ok {
			var ns int64
			if _, err := fmt.Sscanf(rest, "%d", &ns); err == nil {
				return time.Unix(0, ns).Sub(c.start), true
			}
		}
	}
	return 0, false
}

// runBare runs the bare program and returns how long after launch its
// answer was read, and the ids it printed.
func runBare(b *testing.B, bin, endpoint, table string) (time.Duration, []string, error) {
	b.Helper()
	cmd := exec.Command(bin, "--endpoint-url", endpoint, "--sessions-table", table,
		// The console's first page: a screenful of sessions, its columns'
		// attributes only.
		"-limit", strconv.Itoa(int(views.FirstPageRows)), "-attrs", strings.Join(views.SessionListAttrs, ","))
	cmd.Env = cleanEnv(b.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, nil, err
	}
	// The ids are written in one buffered write after the query: the first
	// byte read is the answer.
	buf := make([]byte, 64<<10)
	n, rerr := out.Read(buf)
	took := time.Since(start)
	rest, _ := io.ReadAll(out)
	werr := cmd.Wait()
	if n == 0 {
		return 0, nil, errors.Join(fmt.Errorf("bare printed nothing: %s", stderr.String()), rerr, werr)
	}
	if werr != nil {
		return 0, nil, fmt.Errorf("bare: %v: %s", werr, stderr.String())
	}
	ids := strings.Fields(string(buf[:n]) + string(rest))
	return took, ids, nil
}
