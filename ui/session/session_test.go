package session

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
	"opsdeck/ui/livefeed"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }

// localTables creates the ten tables under a prefix of their own on the
// shared test server (ep, the caller's ddblocal.TestEndpoint).
func localTables(t *testing.T, ep, tag string) data.Tables {
	t.Helper()
	conn := dbtest.Connect(t, data.ConnOptions{Endpoint: ep})
	tables := dbtest.Tables(t, "dev", "s"+tag)
	dbtest.Create(t, conn, tables, false)
	return tables
}

func putSession(t *testing.T, s *Session, id string) {
	t.Helper()
	_, err := s.Conn.DB.PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String(s.Tables.Name(data.TableSessions)),
		Item: map[string]types.AttributeValue{
			"sessionId": &types.AttributeValueMemberS{Value: id},
			"projectId": &types.AttributeValueMemberS{Value: "p-live"},
			"status":    &types.AttributeValueMemberS{Value: "RUNNING"},
			// A write that changes nothing makes no stream record.
			"updatedAt": &types.AttributeValueMemberS{Value: time.Now().Format(time.RFC3339Nano)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// batches reads the feed on one goroutine (two readers of one feed would
// take each other's batches) until the feed ends.
func batches(f *livefeed.Feed) <-chan livefeed.BatchMsg {
	ch := make(chan livefeed.BatchMsg, 64)
	go func() {
		defer close(ch)
		for {
			b, ok := f.Next()().(livefeed.BatchMsg)
			if !ok {
				return
			}
			ch <- b
		}
	}()
	return ch
}

// tailGoroutines lists the goroutines running the stream reader or the
// feed (their stacks name the packages).
func tailGoroutines() []string {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	var out []string
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "opsdeck/data/stream.") || strings.Contains(g, "opsdeck/ui/session.(*Session).StartTail") {
			out = append(out, g)
		}
	}
	return out
}

// tailGoroutinesLeft is tailGoroutines once they are gone, or as they are
// after patience. Wait returns once every reader has called Done, which
// its goroutine does as its last act: it may still be on its way out (seen
// "runnable" at its closing brace) when Wait returns. One still there after
// patience is blocked, a leak.
func tailGoroutinesLeft(patience time.Duration) []string {
	deadline := time.Now().Add(patience)
	for {
		g := tailGoroutines()
		if len(g) == 0 || time.Now().After(deadline) {
			return g
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTailDeliversThenStopsWithoutLeaks(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	tables := localTables(t, ep, "tail")
	if g := tailGoroutines(); len(g) != 0 {
		t.Fatalf("reader goroutines before the test: %d", len(g))
	}
	ctx := context.Background()
	s, err := Open(ctx, ctx, Spec{Env: "dev", Conn: data.ConnOptions{Endpoint: ep, Region: "us-east-1"}, Tables: tables})
	if err != nil {
		t.Fatal(err)
	}
	s.StartTail(nil)
	id := fmt.Sprintf("sess-tail-%d", time.Now().UnixNano())
	feed := batches(s.Feed)
	deadline := time.After(60 * time.Second)
	got := false
	// The reader's first iterators may be set after a first write
	// (LATEST): write again each second until one comes through.
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	putSession(t, s, id)
	for !got {
		select {
		case b := <-feed:
			for _, r := range b.Records {
				if v, ok := r.Keys["sessionId"].(*types.AttributeValueMemberS); ok && v.Value == id {
					got = true
				}
			}
		case <-tick.C:
			putSession(t, s, id)
		case <-deadline:
			t.Fatal("no stream record of the write came through the session's feed in 60 s")
		}
	}
	if !got {
		t.Fatal("no stream record of the write came through the session's feed")
	}
	if len(tailGoroutines()) == 0 {
		t.Fatal("no reader goroutine while the tail runs: the leak check below would prove nothing")
	}
	s.Close()
	if err := s.Wait(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	if g := tailGoroutinesLeft(5 * time.Second); len(g) != 0 {
		t.Fatalf("%d reader goroutines left after Close and Wait:\n%s", len(g), strings.Join(g, "\n\n"))
	}
	// The feed is closed: its reader ends.
	for range feed {
	}
	s.Close() // twice is fine
}

func TestCloseBeforeStartStartsNothing(t *testing.T) {
	conn, err := data.Connect(context.Background(), data.ConnOptions{Endpoint: "http://127.0.0.1:1", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := data.ResolveTables("dev", nil)
	s := New(context.Background(), conn, Spec{Tables: tables})
	s.Close()
	s.StartTail(nil)
	select {
	case <-s.Done():
	default:
		t.Fatal("Done not closed for a session that never read")
	}
	if g := tailGoroutines(); len(g) != 0 {
		t.Fatalf("a reader started after Close: %d goroutines", len(g))
	}
}

func TestStartWaitsForItsSignal(t *testing.T) {
	conn, err := data.Connect(context.Background(), data.ConnOptions{Endpoint: "http://127.0.0.1:1", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := data.ResolveTables("dev", nil)
	s := New(context.Background(), conn, Spec{Tables: tables})
	never := make(chan struct{})
	s.StartTail(never)
	s.Close()
	if err := s.Wait(10 * time.Second); err != nil {
		t.Fatalf("a reader waiting to start did not end with Close: %v", err)
	}
}

func TestWhereRedactsTheEndpoint(t *testing.T) {
	conn, err := data.Connect(context.Background(), data.ConnOptions{Endpoint: "http://user:hunter2@127.0.0.1:1", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := data.ResolveTables("qa", nil)
	s := New(context.Background(), conn, Spec{Tables: tables, Protected: true, Color: "#ff0000", NoTail: true})
	defer s.Close()
	w := s.Where()
	if w.Env != "qa" || !w.Protected || w.Color != "#ff0000" || w.Region != "us-east-1" || strings.Contains(w.Endpoint, "hunter2") || w.Endpoint == "" {
		t.Fatalf("Where = %+v", w)
	}
	if s.Feed != nil {
		t.Fatal("NoTail made a feed")
	}
}
