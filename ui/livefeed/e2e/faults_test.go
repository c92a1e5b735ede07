package e2e

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/data/stream/streamtest"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// TestRootModelGetsGroundTruthUnderFaults runs the whole live tail into the
// ROOT console model — DynamoDB Local → stream.Tailer (its Streams calls
// through a transport that injects every fault the reader must survive, at
// random) → livefeed.Feed → ui.Model, whose commands run the way the
// program runs them — while a writer inserts, modifies and removes on two
// tables. The records the model receives equal the ground truth exactly
// (none lost, none duplicated, per-key order, the right images); the
// Stream pane holds every one of them; and the Sessions pane, which starts
// empty and is kept up to date only by the tail, ends with exactly the
// rows the table holds.
func TestRootModelGetsGroundTruthUnderFaults(t *testing.T) {
	const seed = 21
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	writeConn := dbtest.Connect(t, data.ConnOptions{})
	tables := dbtest.Tables(t, "dev", "e2e")
	dbtest.Create(t, writeConn, tables, false, ids...)
	ft := streamtest.New(seed, 0.25)
	readConn := dbtest.Connect(t, data.ConnOptions{HTTPClient: ft.Client()})

	const project = "proj-faults"
	feed := livefeed.New(ctx, livefeed.Options{})
	d := newDriver(ctx, ui.New(ui.Options{
		Store: data.NewStore(writeConn, tables), Conn: writeConn, Tables: tables, Env: "dev",
		Theme: themes.Dark(), Keys: keymap.Default(), Location: time.UTC,
		Now:          func() time.Time { return time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC) },
		Scopes:       ui.Scopes{ProjectID: project},
		Feed:         feed,
		StreamBuffer: 100_000, // keep every record: the test counts them in the pane
	}))
	tl := stream.New(readConn, tables, stream.Options{Tables: ids, MaxBackoff: 400 * time.Millisecond, Limit: 7,
		ThrottleBackoff: 50 * time.Millisecond, ThrottleBackoffMax: 400 * time.Millisecond})
	tailed := make(chan struct{})
	go func() { defer close(tailed); _ = tl.Run(ctx, feed) }()
	defer func() { cancel(); feed.Close(); <-tailed }()

	d.Start(120, 40)
	sessions := d.Model.Pane(views.PaneSessions)
	live := d.Model.Pane(views.PaneStream).(*views.Stream).Live()
	d.untilLive(t, ids, sessions)
	if n := sessions.Status().Rows; n != 0 {
		t.Fatalf("the Sessions pane starts with %d rows, want 0", n)
	}

	w := streamtest.NewWriter(writeConn, tables, seed)
	w.Attrs = func(id data.TableID, n int) data.Item {
		if id != data.TableSessions {
			return nil
		}
		return data.Item{
			"projectId": &types.AttributeValueMemberS{Value: project},
			"createdAt": &types.AttributeValueMemberS{Value: fmt.Sprintf("2026-11-21T12:%02d:%02dZ", n/60, n%60)},
		}
	}
	received := func() bool { return len(d.received) >= len(w.Wants) }
	step := func(id data.TableID) {
		t.Helper()
		if err := w.Step(ctx, id, 25); err != nil {
			t.Fatal(err)
		}
	}
	// A shard's first position is LATEST until it has delivered a record;
	// arm the faults once each table has delivered some (on AWS iterators
	// only expire after a 15-minute stall).
	for i := 0; i < 10; i++ {
		step(ids[i%2])
	}
	d.until(t, 30*time.Second, "the first records", received)
	ft.Arm(true)

	// Write until every kind of fault has hit the reader (and ≥ 300 writes).
	for i := 0; i < 300 || !ft.CoveredAll(); i++ {
		if i >= 3000 {
			t.Fatalf("not every fault kind was injected after %d writes: %s", i, ft.Summary())
		}
		step(ids[i%2])
		if i%50 == 49 {
			// Let the tail catch up, so its calls (and faults) interleave
			// with the writes rather than trail them.
			d.until(t, 120*time.Second, fmt.Sprintf("%d records", len(w.Wants)), received)
		}
	}
	d.until(t, 120*time.Second, fmt.Sprintf("%d records", len(w.Wants)), received)
	ft.Arm(false)
	// One more write per table, received after every earlier record of its
	// shard: a late duplicate would have arrived before it.
	step(ids[0])
	step(ids[1])
	d.until(t, 60*time.Second, fmt.Sprintf("%d records", len(w.Wants)), received)
	t.Logf("%d records; faults injected: %s", len(w.Wants), ft.Summary())

	got := make([]streamtest.Got, len(d.received))
	for i, r := range d.received {
		got[i] = streamtest.Got{ID: r.Shard + "/" + r.Seq, Want: streamtest.Want{
			Table: r.Table, Key: streamtest.Canon(r.Keys), Event: r.EventName,
			Old: streamtest.Canon(r.Old), New: streamtest.Canon(r.New),
		}}
	}
	streamtest.VerifyExactly(t, got, w.Wants)
	if live.Len() != len(w.Wants) || live.Dropped() != 0 {
		t.Errorf("the Stream pane holds %d records (dropped %d), want %d", live.Len(), live.Dropped(), len(w.Wants))
	}
	if !d.sawHealth[stream.StateReconnecting] || !d.sawHealth[stream.StateGap] {
		t.Errorf("the model was never told of the faults: health states seen %v", d.sawHealth)
	}

	// The Sessions pane's rows are exactly the table's items.
	want := scanAll(t, writeConn, tables.Name(data.TableSessions))
	if len(want) == 0 {
		t.Fatal("the writer left no session in the table: the row comparison would prove nothing")
	}
	rows := d.paneRows(t, views.PaneSessions)
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("Sessions pane rows differ from the table:\n pane  %d %v\n table %d %v", len(rows), rows, len(want), want)
	}
}

// driver is uitest.Live over the root model (its feed never settles),
// recording what the model was given.
type driver struct {
	*uitest.Live[ui.Model]
	// received is every record the model was given, in order.
	received  []stream.Record
	sawHealth map[stream.State]bool
}

func newDriver(ctx context.Context, m ui.Model) *driver {
	d := &driver{Live: uitest.NewLive(ctx, m), sawHealth: map[stream.State]bool{}}
	d.Seen = func(msg tea.Msg) {
		if b, ok := msg.(livefeed.BatchMsg); ok {
			d.received = append(d.received, b.Records...)
			for _, h := range b.Health {
				d.sawHealth[h.State] = true
			}
		}
	}
	return d
}

// until feeds the model messages until cond holds, failing after timeout.
// untilLive waits until every table's stream is live and the Sessions
// pane has loaded.
func (d *driver) untilLive(t testing.TB, ids []data.TableID, sessions views.Pane) {
	t.Helper()
	d.until(t, 60*time.Second, "every stream live and the Sessions pane loaded", func() bool {
		for _, id := range ids {
			if h, ok := d.Model.Health(id); !ok || h.State != stream.StateLive {
				return false
			}
		}
		return !sessions.Status().Loading
	})
}

func (d *driver) until(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	d.Until(t, timeout, what, cond, func() string { return fmt.Sprintf("%d records received", len(d.received)) })
}

// paneRows walks the cursor over every row of pane id (which must be the
// shown one) and returns the rows, each in canonical text form, sorted.
func (d *driver) paneRows(t testing.TB, id views.PaneID) []string {
	t.Helper()
	if d.Model.Active() != id {
		t.Fatalf("pane %s is not shown", id.Name())
	}
	p := d.Model.Pane(id)
	sel := p.(views.Selector) // a list pane has a cursor
	n := p.Status().Visible
	d.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	var rows []string
	for i := 0; i < n; i++ {
		it, ok := sel.Selected()
		if !ok {
			t.Fatalf("no row under the cursor at %d of %d", i, n)
		}
		rows = append(rows, streamtest.Canon(it))
		d.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	sort.Strings(rows)
	return rows
}

// scanAll is every item of a table (consistent), in canonical text form, sorted.
func scanAll(t testing.TB, conn *data.Conn, name string) []string {
	t.Helper()
	var out []string
	var start map[string]types.AttributeValue
	for {
		page, err := conn.DB.Scan(context.Background(), &dynamodb.ScanInput{
			TableName: aws.String(name), ConsistentRead: aws.Bool(true), ExclusiveStartKey: start,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out = append(out, streamtest.Canon(it))
		}
		if len(page.LastEvaluatedKey) == 0 {
			break
		}
		start = page.LastEvaluatedKey
	}
	sort.Strings(out)
	return out
}
