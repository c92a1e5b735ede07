package ddblocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// TestEndpointEnv, when set, points the tests at an already running server
// instead of starting one (handy while developing).
const TestEndpointEnv = "OPSDECK_TEST_ENDPOINT"

// RequireDBEnv, when true, makes a test that needs DynamoDB Local fail when
// Java (or npm, for the one-time install) is missing, instead of skipping.
// `make test` sets it, so CI can never lose the database tests quietly.
const RequireDBEnv = "OPSDECK_REQUIRE_DB"

// T is the part of testing.TB the test helpers use. ddblocal does not
// import testing: the opsdeck binary links this package for --demo.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
	Cleanup(func())
}

// testRun is the lazily started server of one RunTests call.
type testRun struct {
	mu       sync.Mutex
	tried    bool // the first TestEndpoint call happened
	stopped  bool // RunTests has returned
	endpoint string
	srv      *Server // nil unless this run started one
	err      error   // why it could not start, for every later caller
	sigs     chan os.Signal
	sigDone  chan struct{}
}

var (
	testMu  sync.Mutex
	current *testRun // set while RunTests runs
)

// RunTests is for TestMain: it runs the tests and stops the DynamoDB Local
// that TestEndpoint started for them, if any.
//
//	func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }
//
// Nothing starts up front: a test binary whose selected tests need no
// database never looks for Java. A failing test returns normally and the
// deferred Stop runs. A panicking or timed-out test kills the process from
// another goroutine, so no defer runs; on Linux the kernel then SIGKILLs
// java (Pdeathsig). Once a server runs, SIGINT/SIGTERM stop it and exit.
func RunTests(m interface{ Run() int }) int {
	r := &testRun{}
	testMu.Lock()
	current = r
	testMu.Unlock()
	defer func() {
		testMu.Lock()
		current = nil
		testMu.Unlock()
		r.stop()
	}()
	return m.Run()
}

// TestEndpoint is the endpoint of the test binary's DynamoDB Local (or
// $OPSDECK_TEST_ENDPOINT), started on the first call and shared by every
// later one; RunTests stops it. Call it from each test (or helper) that
// uses the database, before any sync.Once of its own: it may end the test.
//
// If the server cannot start because Java or npm is missing, the test is
// skipped with the reason, unless $OPSDECK_REQUIRE_DB is true (as in `make
// test`), when it fails. Any other failure to start fails the test. The
// first attempt's error is kept: later tests fail or skip at once.
func TestEndpoint(t T) string {
	t.Helper()
	testMu.Lock()
	r := current
	testMu.Unlock()
	if r == nil {
		t.Fatalf("ddblocal.TestEndpoint outside ddblocal.RunTests: the package's TestMain must be `os.Exit(ddblocal.RunTests(m))`, which stops the server after the tests")
		return ""
	}
	ep, err := r.start()
	if err != nil {
		cannotRun(t, err)
		return ""
	}
	return ep
}

// StartTest starts a private DynamoDB Local for one test (one it may stop,
// restart or lose), under the same skip-or-fail rule as TestEndpoint, and
// stops it when the test ends.
func StartTest(ctx context.Context, t T, o Options) *Server {
	t.Helper()
	srv, err := Start(ctx, o)
	if err != nil {
		cannotRun(t, err)
		return nil
	}
	t.Cleanup(func() { _ = srv.Stop() })
	return srv
}

// Missing reports whether err means this machine lacks what DynamoDB Local
// needs (Java 17+, or npm for the one-time install), as opposed to a server
// that was there and failed.
func Missing(err error) bool {
	return errors.Is(err, ErrNoJava) || errors.Is(err, ErrNoNpm)
}

// Required reports whether $OPSDECK_REQUIRE_DB asks for database tests to
// fail rather than skip when Java or npm is missing.
func Required() bool {
	v, err := strconv.ParseBool(os.Getenv(RequireDBEnv))
	return err == nil && v
}

func cannotRun(t T, err error) {
	t.Helper()
	if Missing(err) && !Required() {
		t.Skipf("needs DynamoDB Local, which cannot run on this machine (set %s=1 to fail instead; `make test` does): %v", RequireDBEnv, err)
		return
	}
	t.Fatalf("needs DynamoDB Local, which did not start: %v", err)
}

// start returns the endpoint, starting the server on the first call.
// Callers that come while it starts wait for it.
func (r *testRun) start() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return "", errors.New("the tests have ended: RunTests already stopped DynamoDB Local")
	}
	if r.tried {
		return r.endpoint, r.err
	}
	r.tried = true
	if ep := os.Getenv(TestEndpointEnv); ep != "" {
		r.endpoint = ep
		return ep, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	srv, err := Start(ctx, Options{})
	cancel()
	if err != nil {
		r.err = err
		return "", err
	}
	r.srv, r.endpoint = srv, srv.Endpoint()
	r.watchSignals()
	return r.endpoint, nil
}

// watchSignals stops the server on SIGINT/SIGTERM and exits: the tests'
// own defers will not run, and java must not outlive them. It is armed
// only once a server runs, so a binary that started none keeps Go's
// default handling.
func (r *testRun) watchSignals() {
	r.sigs = make(chan os.Signal, 1)
	r.sigDone = make(chan struct{})
	signal.Notify(r.sigs, os.Interrupt, syscall.SIGTERM)
	srv, sigs, done := r.srv, r.sigs, r.sigDone
	go func() {
		select {
		case sig := <-sigs:
			_ = srv.Stop()
			fmt.Fprintf(os.Stderr, "ddblocal: %v: stopped DynamoDB Local\n", sig)
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-done:
		}
	}()
}

// stop ends the run: the signal watch first, then the server.
func (r *testRun) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.sigDone != nil {
		signal.Stop(r.sigs)
		close(r.sigDone)
		r.sigDone = nil
	}
	if r.srv != nil {
		_ = r.srv.Stop()
	}
}
