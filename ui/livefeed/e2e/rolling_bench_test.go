package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/data/stream/streamtest"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// BenchmarkRootModelThroughRollingFront is the lineage proof at the root
// console model: 5,000 writes over two tables through a stream front that
// rolls every shard over every 150 records and splits every 5th
// generation, with 20% of reads throttled and iterators expiring after
// 1 s; the reader is told the screen's demand by the model (so the events
// table, on no pane, is read slowly). The model must receive every record
// exactly once in per-key order, the Stream pane hold them all, and the
// Sessions pane (kept up to date by the tail alone) end with exactly the
// table's rows. Reported: records, rollovers, splits, faults, seconds.
func BenchmarkRootModelThroughRollingFront(b *testing.B) {
	const seed, project = 31, "proj-rolling"
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writeConn := dbtest.Connect(b, data.ConnOptions{})
	tables := dbtest.Tables(b, "dev", "e2e")
	dbtest.Create(b, writeConn, tables, false, ids...)
	front := streamtest.NewFront(ddblocal.TestEndpoint(b), streamtest.FrontOptions{RecordsPerGen: 150, Split: 2, SplitEvery: 5, MaxOpenShards: 8, Seed: seed})
	readConn := dbtest.Connect(b, data.ConnOptions{HTTPClient: front.Client()})
	feed := livefeed.New(ctx, livefeed.Options{})
	tl := stream.New(readConn, tables, stream.Options{Tables: ids})
	d := newDriver(ctx, ui.New(ui.Options{
		Store: data.NewStore(writeConn, tables), Conn: writeConn, Tables: tables, Env: "dev",
		Theme: themes.Dark(), Keys: keymap.Default(), Location: time.UTC,
		Now:          func() time.Time { return time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC) },
		Scopes:       ui.Scopes{ProjectID: project},
		Feed:         feed,
		StreamBuffer: 100_000,
		Demand:       tl.SetDemand,
	}))
	tailed := make(chan struct{})
	go func() { defer close(tailed); _ = tl.Run(ctx, feed) }()
	defer func() { cancel(); feed.Close(); <-tailed }()

	d.Start(120, 40)
	sessions := d.Model.Pane(views.PaneSessions)
	live := d.Model.Pane(views.PaneStream).(*views.Stream).Live()
	d.untilLive(b, ids, sessions)
	if r := tl.Demand(); r[data.TableSessions] != stream.RateFull || r[data.TableEvents] != stream.RateSlow {
		b.Fatalf("the model did not tell the reader its demand: %v", r)
	}

	w := streamtest.NewWriter(writeConn, tables, seed)
	w.Attrs = func(id data.TableID, n int) data.Item {
		if id != data.TableSessions {
			return nil
		}
		return data.Item{
			"projectId": &types.AttributeValueMemberS{Value: project},
			"createdAt": &types.AttributeValueMemberS{Value: fmt.Sprintf("2026-11-21T12:%02d:%02dZ", n/60%60, n%60)},
		}
	}
	front.SetFaults(0.2, time.Second)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < 5000; i++ {
		if err := w.Step(ctx, ids[i%2], 200); err != nil {
			b.Fatal(err)
		}
		if i%100 == 99 {
			// Keep the model's queue drained while writing.
			d.Drain()
		}
	}
	front.SetFaults(0, 0)
	d.until(b, 5*time.Minute, fmt.Sprintf("%d records", len(w.Wants)), func() bool { return len(d.received) >= len(w.Wants) })
	elapsed := time.Since(start)
	b.StopTimer()

	got := make([]streamtest.Got, len(d.received))
	for i, r := range d.received {
		got[i] = streamtest.Got{ID: r.Shard + "/" + r.Seq, Want: streamtest.Want{
			Table: r.Table, Key: streamtest.Canon(r.Keys), Event: r.EventName,
			Old: streamtest.Canon(r.Old), New: streamtest.Canon(r.New),
		}}
	}
	streamtest.VerifyExactly(b, got, w.Wants)
	if live.Len() != len(w.Wants) || live.Dropped() != 0 {
		b.Fatalf("the Stream pane holds %d records (dropped %d), want %d", live.Len(), live.Dropped(), len(w.Wants))
	}
	want := scanAll(b, writeConn, tables.Name(data.TableSessions))
	rows := d.paneRows(b, views.PaneSessions)
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		b.Fatalf("Sessions pane rows differ from the table: pane %d rows, table %d", len(rows), len(want))
	}
	st := front.Stats()
	if st.Rollovers < 20 || st.Splits < 5 {
		b.Fatalf("%d rollovers and %d splits: fewer than the 20 and 5 asked", st.Rollovers, st.Splits)
	}
	b.ReportMetric(float64(len(got)), "records")
	b.ReportMetric(float64(len(want)), "session-rows")
	b.ReportMetric(float64(st.Rollovers), "rollovers")
	b.ReportMetric(float64(st.Splits), "splits")
	b.ReportMetric(float64(st.Throttled[streamtest.DefaultReader]), "throttled")
	b.ReportMetric(float64(st.Expired[streamtest.DefaultReader]), "expired")
	b.ReportMetric(elapsed.Seconds(), "s")
}
