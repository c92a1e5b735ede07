package ddblocal

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// TestEndpointEnv, when set, points RunTests at an already running server
// instead of starting one (handy while developing).
const TestEndpointEnv = "OPSDECK_TEST_ENDPOINT"

var (
	testMu       sync.Mutex
	testEndpoint string
	testServer   *Server // the server RunTests started, if any
)

// RunTests is for TestMain: it starts DynamoDB Local (or uses
// $OPSDECK_TEST_ENDPOINT), runs the tests and always stops the server.
//
//	func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }
//
// A failing test returns normally and the deferred Stop runs. A panicking or
// timed-out test kills the process from another goroutine, so no defer runs;
// on Linux the kernel then SIGKILLs java (Pdeathsig). SIGINT/SIGTERM stop
// the server and exit.
func RunTests(m interface{ Run() int }) int {
	if ep := os.Getenv(TestEndpointEnv); ep != "" {
		setTestServer(ep, nil)
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	srv, err := Start(ctx, Options{})
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "ddblocal: cannot start DynamoDB Local for the tests: %v\n", err)
		return 1
	}
	setTestServer(srv.Endpoint(), srv)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
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
	defer func() {
		signal.Stop(sigs)
		close(done)
		_ = srv.Stop()
	}()
	return m.Run()
}

// TestEndpoint is the endpoint RunTests set up ("" outside RunTests).
func TestEndpoint() string {
	testMu.Lock()
	defer testMu.Unlock()
	return testEndpoint
}

func setTestServer(ep string, srv *Server) {
	testMu.Lock()
	defer testMu.Unlock()
	testEndpoint, testServer = ep, srv
}
