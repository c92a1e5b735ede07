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

// TestPollingFallbackWithSeedStreams runs the whole live tail — the real
// stream reader, the feed and the program — against tables created with
// exactly the seeds' stream settings, where the sandbox pool has no stream.
// The Sandboxes pane must say it is polling, and a write to the table must
// appear in it (and a row that left the scope disappear) through polling
// alone, without the list being reloaded from scratch.
func TestPollingFallbackWithSeedStreams(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, err := data.ConnectLocal(ctx, ddblocal.TestEndpoint())
	if err != nil {
		t.Fatal(err)
	}
	base, _ := data.ResolveTables("dev", nil)
	tables := base.WithPrefix(uniquePrefix("pl"))
	if err := demo.CreateTables(ctx, conn, tables, demo.CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	if sc, _ := data.Schema(data.TableSandboxes); sc.Stream != data.StreamNone {
		t.Fatalf("the seed gives sandboxes a stream (%s); this test needs a table without one", sc.Stream)
	}
	pool := tables.Name(data.TableSandboxes)
	put := func(id, name, status string) {
		t.Helper()
		_, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(pool), Item: data.Item{
			"PK": s("SBX#" + id), "SK": s("META"), "sandbox_id": s(id), "name": s(name),
			"status": s(status), "allocated_at": n("1763726400"), "lab_duration_hours": n("4"),
			"deletion_retry_count": n("0"),
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	put("poll-a", "poll-sbx-a", "available")
	put("poll-b", "poll-sbx-b", "available")

	feed := livefeed.New(ctx, livefeed.Options{})
	defer feed.Close()
	go stream.New(conn, tables, stream.Options{
		Tables: []data.TableID{data.TableSessions, data.TableSandboxes},
	}).Run(ctx, feed)

	frames := make(chan frame, 1)
	m := New(Options{
		Store: data.NewStore(conn, tables), Conn: displayConn(conn), Tables: tables, Env: "dev",
		Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
		Feed: feed, FallbackInterval: 100 * time.Millisecond,
	})
	tm := teatest.NewTestModel(t, probe{Model: m, frames: frames}, teatest.WithInitialTermSize(120, 30))
	t.Cleanup(func() { _ = tm.Quit() })
	tm.Type("5")
	waitFor(t, frames, "the Sandboxes pane to list both sandboxes, say polling, and the status bar to count the states", func(f frame) bool {
		return f.active == views.PaneSandboxes && f.status.Rows == 2 && titleOf(f).contains("polling every") &&
			strings.Contains(stripANSI(f.screen), "tail 1 live 1 polling")
	})

	// A new sandbox in scope and one that leaves it: no stream record will
	// ever say so, only polling can find out.
	put("poll-c", "poll-sbx-c", "available")
	put("poll-a", "poll-sbx-a", "allocated")
	waitFor(t, frames, "polling to add poll-sbx-c and drop poll-sbx-a", func(f frame) bool {
		scr := stripANSI(f.screen)
		return f.status.Rows == 2 && strings.Contains(scr, "poll-sbx-c") &&
			strings.Contains(scr, "poll-sbx-b") && !strings.Contains(scr, "poll-sbx-a")
	})
}

type line string

func (l line) contains(s string) bool { return strings.Contains(string(l), s) }

// titleOf is the frame's pane-title line.
func titleOf(f frame) line {
	ls := strings.SplitN(stripANSI(f.screen), "\n", 3)
	if len(ls) < 2 {
		return ""
	}
	return line(ls[1])
}
