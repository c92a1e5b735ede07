package ddblocal

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

var client0 = &http.Client{Timeout: 2 * time.Second}

type fakeM func() int

func (f fakeM) Run() int { return f() }

// recordingT is a T that records how the helper ended the test instead of
// ending it, so the tests can look at the message.
type recordingT struct {
	fatal, skip string
	cleanups    []func()
}

func (r *recordingT) Helper()                           {}
func (r *recordingT) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recordingT) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }
func (r *recordingT) Cleanup(f func())                  { r.cleanups = append(r.cleanups, f) }

// serverPID is the pid of the java the current RunTests started (0 if none).
func serverPID() int {
	testMu.Lock()
	r := current
	testMu.Unlock()
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.srv == nil {
		return 0
	}
	return r.srv.PID()
}

// withoutJava makes FindJava fail for the rest of the test.
func withoutJava(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	t.Setenv(TestEndpointEnv, "")
}

// needJava applies TestEndpoint's skip-or-fail rule to the tests that
// start servers of their own.
func needJava(t *testing.T) {
	t.Helper()
	if _, err := FindJava(testCtx(t)); err != nil {
		cannotRun(t, err)
	}
}

func TestRunTestsStartsNothingUntilAsked(t *testing.T) {
	withoutJava(t)
	code := RunTests(fakeM(func() int {
		if pid := serverPID(); pid != 0 {
			t.Errorf("a server (pid %d) runs before any test asked for one", pid)
		}
		return 5
	}))
	if code != 5 {
		t.Fatalf("RunTests returned %d, want the tests' 5: without Java, tests that need no database must run", code)
	}
}

func TestRunTestsStartsOnFirstUseAndStops(t *testing.T) {
	t.Setenv(TestEndpointEnv, "")
	ctx := testCtx(t)
	var ep string
	var pid int
	code := RunTests(fakeM(func() int {
		ep = TestEndpoint(t)
		pid = serverPID()
		if err := ping(ctx, client0, ep); err != nil {
			t.Errorf("server not answering inside RunTests: %v", err)
		}
		if again := TestEndpoint(t); again != ep || serverPID() != pid {
			t.Errorf("second TestEndpoint started another server: %s (pid %d) then %s (pid %d)", ep, pid, again, serverPID())
		}
		return 7
	}))
	if code != 7 {
		t.Fatalf("RunTests returned %d, want the tests' 7", code)
	}
	if ep == "" || pid == 0 {
		t.Fatalf("no endpoint/pid inside RunTests: %q %d", ep, pid)
	}
	if !gone(pid) {
		t.Fatalf("java pid %d survived RunTests", pid)
	}
	if err := ping(context.Background(), client0, ep); err == nil {
		t.Fatal("endpoint still answers after RunTests")
	}
}

func TestRunTestsUsesGivenEndpoint(t *testing.T) {
	withoutJava(t)
	t.Setenv(TestEndpointEnv, "http://127.0.0.1:1")
	var ep string
	var pid int
	rt := &recordingT{}
	RunTests(fakeM(func() int {
		ep = TestEndpoint(rt)
		pid = serverPID()
		return 0
	}))
	if ep != "http://127.0.0.1:1" || rt.fatal != "" || rt.skip != "" {
		t.Fatalf("TestEndpoint = %q (fatal %q, skip %q), want the env's", ep, rt.fatal, rt.skip)
	}
	if pid != 0 {
		t.Fatal("RunTests started a server although OPSDECK_TEST_ENDPOINT was set")
	}
}

// Without Java a database test is skipped with the reason, or fails when
// the database is required; either way at once for every later test.
func TestEndpointWithoutJava(t *testing.T) {
	withoutJava(t)
	for _, required := range []string{"", "1"} {
		t.Run("required="+required, func(t *testing.T) {
			t.Setenv(RequireDBEnv, required)
			var first, second recordingT
			RunTests(fakeM(func() int {
				TestEndpoint(&first)
				TestEndpoint(&second)
				return 0
			}))
			got, other := first.skip, first.fatal
			if required == "1" {
				got, other = first.fatal, first.skip
			}
			if other != "" {
				t.Fatalf("required=%q: ended the wrong way: fatal %q, skip %q", required, first.fatal, first.skip)
			}
			for _, want := range []string{"needs DynamoDB Local", "openjdk-17-jre-headless"} {
				if !strings.Contains(got, want) {
					t.Errorf("required=%q: message %q lacks %q", required, got, want)
				}
			}
			if required == "" && !strings.Contains(got, RequireDBEnv+"=1") {
				t.Errorf("the skip does not say how to make it fail: %q", got)
			}
			if second.fatal != first.fatal || second.skip != first.skip {
				t.Errorf("a later test ended differently: %+v then %+v", first, second)
			}
		})
	}
}

// A server that fails to start for another reason than a missing runtime
// is a failure even when the database is not required.
func TestBrokenServerFailsEvenWhenNotRequired(t *testing.T) {
	t.Setenv(RequireDBEnv, "")
	rt := &recordingT{}
	cannotRun(rt, fmt.Errorf("DynamoDB Local on port 8000: %w", errPortInUse))
	if rt.fatal == "" || rt.skip != "" {
		t.Fatalf("fatal %q, skip %q", rt.fatal, rt.skip)
	}
	rt = &recordingT{}
	cannotRun(rt, fmt.Errorf("cannot start DynamoDB Local for the tests: %w", ErrNoNpm))
	if rt.skip == "" || rt.fatal != "" {
		t.Fatalf("npm missing: fatal %q, skip %q", rt.fatal, rt.skip)
	}
}

func TestEndpointOutsideRunTestsFails(t *testing.T) {
	rt := &recordingT{}
	if ep := TestEndpoint(rt); ep != "" || !strings.Contains(rt.fatal, "TestMain") {
		t.Fatalf("TestEndpoint outside RunTests: %q, fatal %q", ep, rt.fatal)
	}
}

// TestRunTestsInterrupt runs RunTests in a child test binary, interrupts it
// while "tests" run, and expects the server stopped and exit code 130.
func TestRunTestsInterrupt(t *testing.T) {
	if os.Getenv("DDBLOCAL_INTERRUPT_CHILD") == "1" {
		os.Exit(RunTests(fakeM(func() int {
			TestEndpoint(t)
			fmt.Println("PID", serverPID())
			select {} // until the signal arrives
		})))
	}
	needJava(t)
	ctx := testCtx(t)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRunTestsInterrupt$")
	cmd.Env = append(os.Environ(), "DDBLOCAL_INTERRUPT_CHILD=1", TestEndpointEnv+"=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	sc := bufio.NewScanner(stdout)
	for pid == 0 && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PID "); ok {
			pid, _ = strconv.Atoi(v)
		}
	}
	if pid == 0 {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("child reported no java pid; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit code %d, want 130; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped DynamoDB Local") {
		t.Fatalf("no stop message; stderr:\n%s", stderr.String())
	}
	waitGone(t, pid, 30*time.Second)
}
