package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// TestSwitchPollsAtOnce: with a fallback interval far longer than the
// test, a write to a polled table shows up when the operator switches back
// to its pane — only an immediate poll on switch can bring it.
func TestSwitchPollsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, err := data.ConnectLocal(ctx, ddblocal.TestEndpoint())
	if err != nil {
		t.Fatal(err)
	}
	base, _ := data.ResolveTables("dev", nil)
	tables := base.WithPrefix(uniquePrefix("ps"))
	if err := demo.CreateTables(ctx, conn, tables, demo.CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	pool := tables.Name(data.TableSandboxes)
	put := func(id string) {
		t.Helper()
		_, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(pool), Item: data.Item{
			"PK": s("SBX#" + id), "SK": s("META"), "sandbox_id": s(id), "name": s("sw-" + id),
			"status": s("available"), "allocated_at": n("1763726400"), "lab_duration_hours": n("4"),
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("a")

	feed := livefeed.New(ctx, livefeed.Options{})
	defer feed.Close()
	go stream.New(conn, tables, stream.Options{
		Tables: []data.TableID{data.TableSessions, data.TableSandboxes},
	}).Run(ctx, feed)

	frames := make(chan frame, 1)
	m := New(Options{
		Store: data.NewStore(conn, tables), Conn: displayConn(conn), Tables: tables, Env: "dev",
		Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
		Feed: feed, FallbackInterval: time.Hour,
	})
	tm := teatest.NewTestModel(t, probe{Model: m, frames: frames}, teatest.WithInitialTermSize(120, 30))
	t.Cleanup(func() { _ = tm.Quit() })
	tm.Type("5")
	waitFor(t, frames, "the Sandboxes pane to list sw-a and say polling", func(f frame) bool {
		return f.active == views.PaneSandboxes && f.status.Rows == 1 && !f.status.Loading &&
			titleOf(f).contains("polling every")
	})
	tm.Type("1")
	waitFor(t, frames, "the Sessions pane", func(f frame) bool { return f.active == views.PaneSessions })
	put("b")
	tm.Type("5")
	waitFor(t, frames, "switching back to poll at once and show sw-b", func(f frame) bool {
		return f.active == views.PaneSandboxes && f.status.Rows == 2 && strings.Contains(stripANSI(f.screen), "sw-b")
	})
}
