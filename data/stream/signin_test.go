package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/ssostandin"
)

// A tail whose SSO sign-in expired says so in our words — what to run,
// not the SDK's "failed to refresh cached credentials" — keeps retrying,
// and resumes by itself once a fresh token is in the CLI's cache: no
// restart, no key. DynamoDB Local is real; the portal a stand-in.
func TestTailResumesAfterSignIn(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	local := testConn(t, ep, data.ConnOptions{})
	ids := []data.TableID{data.TableSessions}
	tables := testTables(t, local, ids...)

	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	ssostandin.WriteToken(t, cache, "corp", "old", time.Now().Add(-time.Hour))
	conn, err := data.Connect(context.Background(), data.ConnOptions{Profile: "corp-dev", Endpoint: ep})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	sink := newCollectSink()
	startTailer(t, conn, tables, Options{Tables: ids, MaxBackoff: 200 * time.Millisecond}, sink)
	want := SignedOut + "run aws sso login --sso-session corp"
	sink.waitFor(t, 30*time.Second, "sessions signed out", func() bool {
		for _, h := range sink.health {
			if h.Table == data.TableSessions && h.State == StateReconnecting && h.Detail == want {
				return true
			}
		}
		return false
	})
	_, health := sink.snapshot()
	for _, h := range health {
		if strings.Contains(h.Detail, "failed to refresh") || strings.Contains(h.Detail, "operation error") {
			t.Errorf("health in the SDK's words: %q", h.Detail)
		}
	}
	if n, _ := portal.Calls(); n != 0 {
		t.Fatalf("the portal was asked %d times with an expired token", n)
	}

	ssostandin.WriteToken(t, cache, "corp", "fresh", time.Now().Add(8*time.Hour))
	waitLive(t, sink, ids)
	w := newWorkload(local, tables, 7)
	for i := 0; i < 5; i++ {
		if err := w.Step(context.Background(), data.TableSessions, 5); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 60*time.Second)
	if _, last := portal.Calls(); last != "fresh" {
		t.Errorf("portal given %q, want the fresh token", last)
	}
}
