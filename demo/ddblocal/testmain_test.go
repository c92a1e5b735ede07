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

func TestRunTestsStartsAndStops(t *testing.T) {
	t.Setenv(TestEndpointEnv, "")
	ctx := testCtx(t)
	var ep string
	var pid int
	code := RunTests(fakeM(func() int {
		ep = TestEndpoint()
		testMu.Lock()
		pid = testServer.PID()
		testMu.Unlock()
		if err := ping(ctx, client0, ep); err != nil {
			t.Errorf("server not answering inside RunTests: %v", err)
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
	t.Setenv(TestEndpointEnv, "http://127.0.0.1:1")
	var ep string
	var started *Server
	RunTests(fakeM(func() int {
		ep = TestEndpoint()
		testMu.Lock()
		started = testServer
		testMu.Unlock()
		return 0
	}))
	if ep != "http://127.0.0.1:1" {
		t.Fatalf("TestEndpoint = %q, want the env's", ep)
	}
	if started != nil {
		t.Fatal("RunTests started a server although OPSDECK_TEST_ENDPOINT was set")
	}
}

// TestRunTestsInterrupt runs RunTests in a child test binary, interrupts it
// while "tests" run, and expects the server stopped and exit code 130.
func TestRunTestsInterrupt(t *testing.T) {
	if os.Getenv("DDBLOCAL_INTERRUPT_CHILD") == "1" {
		os.Exit(RunTests(fakeM(func() int {
			fmt.Println("PID", testServer.PID())
			select {} // until the signal arrives
		})))
	}
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
