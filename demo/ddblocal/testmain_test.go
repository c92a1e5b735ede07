package ddblocal

import (
	"context"
	"net/http"
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
