package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/data/stream/streamtest"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/termcells"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// A table whose stream reads the policy refuses (GetRecords on the
// sessions table, answered AccessDeniedException in front of the real
// DynamoDB Local) is polled instead: the Sessions pane says so in its
// title, the message line names the refused read and its resource, the
// status bar names the table, a session written meanwhile appears
// through polling alone — and the events table, allowed, stays live.
func TestDeniedStreamIsPolledAndSaysWhy(t *testing.T) {
	r := newPollRig(t, "dn")
	name := r.tables.Name(data.TableSessions)
	deny := streamtest.NewDeny(name, "GetRecords")
	tailConn := testConnVia(t, deny)
	feed := livefeed.New(r.ctx, livefeed.Options{})
	t.Cleanup(feed.Close)
	go stream.New(tailConn, r.tables, stream.Options{
		Tables: []data.TableID{data.TableSessions, data.TableEvents},
	}).Run(r.ctx, feed)

	frames := make(chan frame, 1)
	m := New(Options{
		Store: data.NewStore(r.conn, r.tables), Conn: displayConn(r.conn), Tables: r.tables, Env: "dev",
		Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
		Feed: feed, FallbackInterval: 100 * time.Millisecond,
	})
	tm := teatest.NewTestModel(t, probe{Model: m, frames: frames}, teatest.WithInitialTermSize(140, 30))
	t.Cleanup(func() { _ = tm.Quit() })

	screen := func(f frame) string { return termcells.Draw(f.screen, 140, 30).String() }
	want := "stream not allowed: dynamodbstreams:GetRecords on table/" + name + "/stream/"
	var last string
	defer func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", last)
		}
	}()
	waitFor(t, frames, "the Sessions pane polling, saying why", func(f frame) bool {
		scr := screen(f)
		last = scr
		return f.active == views.PaneSessions && titleOf(frame{screen: scr}).contains("stream not allowed: polling every") &&
			strings.Contains(scr, want) && strings.Contains(scr, "sessions polling (stream denied)") &&
			strings.Contains(scr, "1 live")
	})
	if deny.Denied("GetRecords") == 0 {
		t.Fatal("no GetRecords was refused: the test did not test")
	}

	// Only polling can bring this row: no record of it will ever arrive.
	w := &actWorld{t: t, ctx: r.ctx, conn: r.conn, tables: r.tables, tenant: "project_dn"}
	w.session("sess_polled_in", "RUNNING", "READY", fixedNow.Add(-time.Minute))
	waitFor(t, frames, "polling to list the new session", func(f frame) bool {
		last = screen(f)
		return strings.Contains(last, "sess_polled_in")
	})
}

func testConnVia(t *testing.T, d *streamtest.Deny) *data.Conn {
	t.Helper()
	t.Setenv("AWS_CA_BUNDLE", "")
	conn, err := data.Connect(t.Context(), data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: d.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return conn
}
