package ui

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
)

// pollRig is the whole live tail for the polling-fallback tests: tables
// created with exactly the seeds' stream settings (the sandbox pool has no
// stream), the real stream reader, the feed and a teatest program.
type pollRig struct {
	ctx    context.Context
	conn   *data.Conn
	tables data.Tables
}

// newPollRig connects to DynamoDB Local and creates every table under a
// fresh prefix made from tag. Its context ends when the test does.
func newPollRig(t *testing.T, tag string) *pollRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w := dbtest.New(t, dbtest.Options{Tag: "t" + tag})
	return &pollRig{ctx: ctx, conn: w.Conn, tables: w.Tables}
}

// sandbox is a sandbox pool item with the attributes the pane shows.
func sandbox(id, name, status string) data.Item {
	return data.Item{
		"PK": s("SBX#" + id), "SK": s("META"), "sandbox_id": s(id), "name": s(name),
		"status": s(status), "allocated_at": n("1763726400"), "lab_duration_hours": n("4"),
	}
}

// putSandbox writes item to the sandbox pool.
func (r *pollRig) putSandbox(t *testing.T, item data.Item) {
	t.Helper()
	_, err := r.conn.DB.PutItem(r.ctx, &dynamodb.PutItemInput{TableName: aws.String(r.tables.Name(data.TableSandboxes)), Item: item})
	if err != nil {
		t.Fatal(err)
	}
}

// start runs the stream reader on Sessions and Sandboxes into a feed, and
// the program with that feed and the given fallback poll interval; frames
// reports what it draws.
func (r *pollRig) start(t *testing.T, fallback time.Duration) (*teatest.TestModel, chan frame) {
	t.Helper()
	feed := livefeed.New(r.ctx, livefeed.Options{})
	t.Cleanup(feed.Close)
	go stream.New(r.conn, r.tables, stream.Options{
		Tables: []data.TableID{data.TableSessions, data.TableSandboxes},
	}).Run(r.ctx, feed)

	frames := make(chan frame, 1)
	m := New(Options{
		Store: data.NewStore(r.conn, r.tables), Conn: displayConn(r.conn), Tables: r.tables, Env: "dev",
		Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
		Feed: feed, FallbackInterval: fallback,
	})
	tm := teatest.NewTestModel(t, probe{Model: m, frames: frames}, teatest.WithInitialTermSize(120, 30))
	t.Cleanup(func() { _ = tm.Quit() })
	return tm, frames
}
