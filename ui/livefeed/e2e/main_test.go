package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
	"opsdeck/views/streamview"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }

// rig is one live tail wired to a pane, over tables of its own.
type rig struct {
	conn    *data.Conn
	tables  data.Tables
	feed    *livefeed.Feed
	pane    *streamview.Model
	batches chan livefeed.BatchMsg
	// seen is every record the pane was given, in order: the ground truth
	// of what the UI received.
	seen []stream.Record
	// health is each table's last health, kept as the root keeps it.
	health map[data.TableID]stream.Health
}

// healthLine is the tables' states, for failure messages.
func (r *rig) healthLine() string { return fmt.Sprint(r.health) }

// newRig creates the given tables with the seed's stream settings, starts a
// Tailer into a Feed, and a goroutine that runs the Feed's commands back to
// back (as the program does) and hands each batch to the test goroutine,
// which alone touches the pane.
func newRig(t testing.TB, ids ...data.TableID) *rig {
	t.Helper()
	return newRigSink(t, nil, ids...)
}

// Sink is what the Tailer writes to.
type Sink = stream.Sink

// newRigSink is newRig with the feed wrapped (wrap may be nil) before the
// Tailer gets it.
func newRigSink(t testing.TB, wrap func(Sink) Sink, ids ...data.TableID) *rig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	conn := dbtest.Connect(t, data.ConnOptions{})
	tables := dbtest.Tables(t, "dev", "e2e")
	dbtest.Create(t, conn, tables, false, ids...)
	r := &rig{
		conn: conn, tables: tables,
		feed:    livefeed.New(ctx, livefeed.Options{}),
		pane:    streamview.New(streamview.Options{Theme: themes.Dark(), Keys: keymap.Default(), Location: time.UTC, Summary: views.Summary}),
		batches: make(chan livefeed.BatchMsg, 64),
		health:  map[data.TableID]stream.Health{},
	}
	r.pane.SetSize(120, 40)
	done := make(chan struct{})
	tl := stream.New(conn, tables, stream.Options{Tables: ids})
	go func() {
		defer close(done)
		var sink Sink = r.feed
		if wrap != nil {
			sink = wrap(sink)
		}
		_ = tl.Run(ctx, sink)
	}()
	go func() {
		for {
			m := r.feed.Next()()
			if m == nil {
				return
			}
			select {
			case r.batches <- m.(livefeed.BatchMsg):
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		r.feed.Close()
		<-done
	})
	return r
}

// apply takes one batch into the pane and draws a frame, as the root does.
func (r *rig) apply(t testing.TB, m livefeed.BatchMsg) {
	r.pane.Append(m.Records)
	for _, h := range m.Health {
		r.health[h.Table] = h
	}
	r.pane.NoteDropped(m.Dropped)
	_ = r.pane.View()
	r.seen = append(r.seen, m.Records...)
}

// until applies batches until cond holds, failing after timeout.
func (r *rig) until(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond() {
		select {
		case m := <-r.batches:
			r.apply(t, m)
		case <-deadline.C:
			t.Fatalf("timed out after %v waiting for %s (health %q, %d records)", timeout, what, r.healthLine(), r.pane.Len())
		}
	}
}

func (r *rig) waitLive(t testing.TB, ids ...data.TableID) {
	t.Helper()
	r.until(t, 60*time.Second, "every stream live", func() bool {
		for _, id := range ids {
			if h, ok := r.health[id]; !ok || h.State != stream.StateLive {
				return false
			}
		}
		return true
	})
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func (r *rig) put(t testing.TB, id data.TableID, item data.Item) {
	t.Helper()
	if _, err := r.conn.DB.PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String(r.tables.Name(id)), Item: item,
	}); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) setStatus(t testing.TB, id data.TableID, key data.Item, status string) {
	t.Helper()
	if _, err := r.conn.DB.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName: aws.String(r.tables.Name(id)), Key: key,
		UpdateExpression:          aws.String("SET #s = :s"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": s(status)},
	}); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) del(t testing.TB, id data.TableID, key data.Item) {
	t.Helper()
	if _, err := r.conn.DB.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{
		TableName: aws.String(r.tables.Name(id)), Key: key,
	}); err != nil {
		t.Fatal(err)
	}
}

func keyString(r stream.Record) string {
	var parts []string
	for _, n := range data.MustSchema(r.Table).KeyNames() {
		if v, ok := r.Keys[n].(*types.AttributeValueMemberS); ok {
			parts = append(parts, v.Value)
		}
	}
	return string(r.Table) + "/" + strings.Join(parts, "/")
}
