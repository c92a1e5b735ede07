package ui

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo/ddblocal"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// readOps are the operations a read-only session may send: anything else
// the recorder sees — a write, or an operation this list does not know —
// fails the test, so a new kind of write cannot slip past it.
var readOps = map[string]bool{
	"GetItem": true, "BatchGetItem": true, "Query": true, "Scan": true, "TransactGetItems": true,
	"DescribeTable": true, "ListTables": true, "DescribeTimeToLive": true, "DescribeContinuousBackups": true,
	"DescribeLimits": true, "DescribeEndpoints": true,
	"DescribeStream": true, "GetShardIterator": true, "GetRecords": true, "ListStreams": true,
}

// moreWriteOps are writes (besides writeOps) named in the failure message.
var moreWriteOps = map[string]bool{
	"UpdateTimeToLive": true, "UpdateContinuousBackups": true, "RestoreTableToPointInTime": true,
	"RestoreTableFromBackup": true, "CreateBackup": true, "DeleteBackup": true, "CreateGlobalTable": true,
	"UpdateGlobalTable": true, "TagResource": true, "UntagResource": true, "PutResourcePolicy": true,
	"EnableKinesisStreamingDestination": true, "DisableKinesisStreamingDestination": true, "ImportTable": true,
	"ExportTableToPointInTime": true,
}

// TestReadOnlySessionWithLiveTailSendsNoWrite is a full read-only session
// with the live tail running: the console (store AND stream reader) talks
// through one recording read-only connection, while another, writable
// connection — someone else — changes the data. The operator browses every
// pane, presses every action key on qualifying rows (list, detail, marked)
// and answers y; the tail delivers the other party's changes into the
// console meanwhile. The recorder saw the tail's DescribeStream,
// GetShardIterator and GetRecords calls (so the tail really ran through
// it), and only read operations, none of them a write.
func TestReadOnlySessionWithLiveTailSendsNoWrite(t *testing.T) {
	// The world is made by the writable connection, before the session.
	w := newActWorld(t)
	w.session("sess_rot", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.failedEvent("ev_rot", 0, fixedNow.Add(-time.Hour))
	w.sandbox("sb-rot", time.Hour)

	rec := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, err := data.Connect(ctx, data.ConnOptions{
		Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1",
		HTTPClient: &http.Client{Transport: rec}, ReadOnly: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	o := w.options()
	o.Store, o.Conn, o.ReadOnly = data.NewStore(conn, w.tables), displayConn(conn), true
	feed := livefeed.New(ctx, livefeed.Options{})
	o.Feed = feed
	tailed := make(chan struct{})
	tl := stream.New(conn, w.tables, stream.Options{Tables: []data.TableID{data.TableSessions, data.TableEvents, data.TableSandboxes}})
	go func() { defer close(tailed); _ = tl.Run(ctx, feed) }()
	defer func() { cancel(); feed.Close(); <-tailed }()

	d := newLiveDriver(ctx, New(o))
	d.Start(120, 40)
	d.until(t, "the sessions stream live", func() bool {
		h, ok := d.Model.live.health[data.TableSessions]
		return ok && h.State == stream.StateLive
	})

	// change makes another party's write and waits for the tail to bring
	// it into the console.
	changes := 0
	change := func() {
		t.Helper()
		changes++
		region := fmt.Sprintf("zz-%d", changes)
		w.set(data.TableSessions, sessKey("sess_rot"), data.Item{"region": sv(region)})
		d.until(t, "the tail to deliver "+region, func() bool {
			return slices.ContainsFunc(d.received, func(r stream.Record) bool {
				return r.Table == data.TableSessions && strAttr(r.New, "region") == region
			})
		})
	}

	change()
	for _, s := range []struct{ pane, act string }{{"1", "x"}, {"3", "R"}, {"5", "D"}, {"2", "F"}, {"4", "x"}} {
		d.press(t, s.pane, "space", s.act, "y")
		if d.Model.Mode() != "normal" {
			t.Fatalf("pane %s: %s opened %s", s.pane, s.act, d.Model.Mode())
		}
		if s.pane != "4" && !strings.Contains(d.Model.Flash(), "read-only") {
			t.Errorf("pane %s key %s: flash %q", s.pane, s.act, d.Model.Flash())
		}
		change()
		d.press(t, "enter", s.act, "y", "esc", "r")
	}
	d.press(t, "6") // the Stream pane, with the tail's records
	change()
	if d.Model.Active() != views.PaneStream || d.Model.streamLive().Len() == 0 {
		t.Fatalf("the Stream pane (active %s) holds %d records", d.Model.Active().Name(), d.Model.streamLive().Len())
	}
	d.press(t, "enter", "esc", "1")

	ops := rec.seen()
	count := map[string]int{}
	for _, op := range ops {
		count[op]++
	}
	for _, op := range []string{"DescribeStream", "GetShardIterator", "GetRecords", "Query"} {
		if count[op] == 0 {
			t.Errorf("the recorder saw no %s: the session did not run through it (saw %v)", op, count)
		}
	}
	for op, n := range count {
		switch {
		case writeOps[op] || moreWriteOps[op]:
			t.Errorf("read-only session sent %d× %s", n, op)
		case !readOps[op]:
			t.Errorf("read-only session sent %d× %s, not a known read operation", n, op)
		}
	}
	if strAttr(w.get(data.TableSessions, sessKey("sess_rot")), "status") != "RUNNING" {
		t.Error("session changed")
	}
	if es := w.auditEntries(); len(es) != 0 {
		t.Errorf("audit has %d entries in read-only mode", len(es))
	}
	t.Logf("operations: %v", count)
}

// liveDriver is uitest.Live over the root model, recording every record
// the model was given: a model with a live feed never settles.
type liveDriver struct {
	*uitest.Live[Model]
	received []stream.Record // every record the model was given
}

func newLiveDriver(ctx context.Context, m Model) *liveDriver {
	d := &liveDriver{Live: uitest.NewLive(ctx, m)}
	d.Seen = func(msg tea.Msg) {
		if b, ok := msg.(livefeed.BatchMsg); ok {
			d.received = append(d.received, b.Records...)
		}
	}
	return d
}

// until feeds messages until cond holds; 60 s at most.
func (d *liveDriver) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	d.Until(t, 60*time.Second, what, cond, func() string { return fmt.Sprintf("flash %q", d.Model.Flash()) })
}

// press sends keys one by one, each time waiting until the shown pane has
// finished loading.
func (d *liveDriver) press(t *testing.T, keys ...string) {
	t.Helper()
	for _, k := range keys {
		d.Update(keyMsg(k))
		d.until(t, "the load after "+strings.TrimSpace(k), func() bool { return !d.Model.Pane(d.Model.Active()).Status().Loading })
	}
}
