package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
	"opsdeck/demo"
)

// TestStreamDisabledIsOff: disabling a table's stream closes its shard; the
// reader delivers what was written before, then reports "off" saying why.
func TestStreamDisabledIsOff(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableSessions)
	sink := newCollectSink()
	ids := []data.TableID{data.TableSessions}
	startTailer(t, conn, tables, Options{Tables: ids}, sink)
	waitLive(t, sink, ids)

	w := newWorkload(conn, tables, 2)
	for i := 0; i < 10; i++ {
		if err := w.Step(context.Background(), data.TableSessions, 3); err != nil {
			t.Fatal(err)
		}
	}
	_, err := conn.DB.UpdateTable(context.Background(), &dynamodb.UpdateTableInput{
		TableName:           aws.String(tables.Name(data.TableSessions)),
		StreamSpecification: &ddb.StreamSpecification{StreamEnabled: aws.Bool(false)},
	})
	if err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, 30*time.Second, "off", func() bool { return sink.lastState(data.TableSessions) == StateOff })
	got, health := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	last := health[len(health)-1]
	if !strings.Contains(last.Detail, "disabled") {
		t.Errorf("off detail should say the stream was disabled: %q", last.Detail)
	}
}

// TestTableDeletedIsOff: DynamoDB Local keeps serving a deleted table's
// stream, so the periodic table check is what notices; the reader stops
// with "off".
func TestTableDeletedIsOff(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableEvents)
	sink := newCollectSink()
	ids := []data.TableID{data.TableEvents}
	startTailer(t, conn, tables, Options{Tables: ids, TableCheckInterval: 300 * time.Millisecond}, sink)
	waitLive(t, sink, ids)
	if _, err := conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(tables.Name(data.TableEvents))}); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, 30*time.Second, "off", func() bool { return sink.lastState(data.TableEvents) == StateOff })
	_, health := sink.snapshot()
	if d := health[len(health)-1].Detail; !strings.Contains(d, "deleted") && !strings.Contains(d, "does not exist") {
		t.Errorf("off detail should say the table is gone: %q", d)
	}
}

// comeBackOptions re-check a stopped table quickly, so the tests below do
// not wait for the production backoff.
func comeBackOptions(ids []data.TableID) Options {
	return Options{Tables: ids, TableCheckInterval: 300 * time.Millisecond, RecheckMin: 100 * time.Millisecond, RecheckMax: 500 * time.Millisecond}
}

// phase makes n more writes with w and checks that exactly the records of
// this phase arrive after the from-th record.
func phase(t *testing.T, w *streamtest.Writer, sink *collectSink, from, n int) {
	t.Helper()
	done := len(w.Wants)
	for i := 0; i < n; i++ {
		if err := w.Step(context.Background(), data.TableSessions, 5); err != nil {
			t.Fatal(err)
		}
	}
	sink.waitFor(t, 30*time.Second, "the phase's records", func() bool { return len(sink.recs) >= from+len(w.Wants)-done })
	got, _ := sink.snapshot()
	verifyExactly(t, got[from:], w.Wants[done:])
}

// TestDeletedTableComesBackLive: a table deleted and created again (as
// after a DynamoDB Local restart without its data and a re-seed) is "off"
// only until it exists again with a stream; then the reader goes "live"
// on the new stream and delivers its records, including those written
// before it noticed.
func TestDeletedTableComesBackLive(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableSessions)
	name := tables.Name(data.TableSessions)
	ids := []data.TableID{data.TableSessions}
	sink := newCollectSink()
	startTailer(t, conn, tables, comeBackOptions(ids), sink)
	waitLive(t, sink, ids)
	phase(t, newWorkload(conn, tables, 31), sink, 0, 10)

	ctx := context.Background()
	if _, err := conn.DB.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, 30*time.Second, "off", func() bool { return sink.lastState(data.TableSessions) == StateOff })
	if _, err := conn.DB.CreateTable(ctx, demo.CreateTableInput(data.MustSchema(data.TableSessions), name, false)); err != nil {
		t.Fatal(err)
	}
	// Written at once: the reader has not noticed the new stream yet. The
	// new table is empty: a new writer's ground truth starts from nothing.
	w := newWorkload(conn, tables, 32)
	phase(t, w, sink, 10, 10)
	sink.waitFor(t, 30*time.Second, "live again", func() bool { return sink.lastState(data.TableSessions) == StateLive })
	if _, health := sink.snapshot(); replacedReports(health, data.TableSessions) != 1 {
		t.Errorf("the re-created table's stream was not reported as a replacement: %s", healthString(health))
	}
	phase(t, w, sink, 20, 10)
}

// TestDisabledStreamComesBackLive: a stream disabled and enabled again (a
// new stream ARN) goes from "off" back to "live" on the new stream.
func TestDisabledStreamComesBackLive(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableSessions)
	name := aws.String(tables.Name(data.TableSessions))
	ids := []data.TableID{data.TableSessions}
	sink := newCollectSink()
	startTailer(t, conn, tables, comeBackOptions(ids), sink)
	waitLive(t, sink, ids)
	w := newWorkload(conn, tables, 41)
	phase(t, w, sink, 0, 10)

	ctx := context.Background()
	setStream := func(on bool) {
		t.Helper()
		spec := &ddb.StreamSpecification{StreamEnabled: aws.Bool(on)}
		if on {
			spec.StreamViewType = ddb.StreamViewTypeNewAndOldImages
		}
		if _, err := conn.DB.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: name, StreamSpecification: spec}); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
	setStream(false)
	sink.waitFor(t, 30*time.Second, "off", func() bool { return sink.lastState(data.TableSessions) == StateOff })
	setStream(true)
	after, _ := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
	if aws.ToString(after.Table.LatestStreamArn) == aws.ToString(before.Table.LatestStreamArn) {
		t.Fatalf("re-enabling kept the stream ARN: the test would not cover a new stream")
	}
	sink.waitFor(t, 30*time.Second, "live again", func() bool { return sink.lastState(data.TableSessions) == StateLive })
	if _, health := sink.snapshot(); replacedReports(health, data.TableSessions) != 1 {
		t.Errorf("the new stream was not reported as a replacement: %s", healthString(health))
	}
	// The writer's keys still exist: modifies and removes as well as inserts.
	phase(t, w, sink, 10, 15)
}

// TestStreamReenabledAtOnceIsAGap: a stream disabled and enabled again at
// once (the reader never sees it "off"): the writes made in between are in
// no stream, so the reader must say so — a gap, flagged as a replacement,
// so panes read the table again — and read the new stream.
func TestStreamReenabledAtOnceIsAGap(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableSessions)
	name := aws.String(tables.Name(data.TableSessions))
	ids := []data.TableID{data.TableSessions}
	sink := newCollectSink()
	startTailer(t, conn, tables, comeBackOptions(ids), sink)
	waitLive(t, sink, ids)
	w := newWorkload(conn, tables, 43)
	phase(t, w, sink, 0, 5)

	ctx := context.Background()
	for _, on := range []bool{false, true} {
		spec := &ddb.StreamSpecification{StreamEnabled: aws.Bool(on)}
		if on {
			spec.StreamViewType = ddb.StreamViewTypeNewAndOldImages
		}
		if _, err := conn.DB.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: name, StreamSpecification: spec}); err != nil {
			t.Fatal(err)
		}
		if !on {
			// Made while no stream records: lost by DynamoDB itself.
			ovwPut(t, conn, tables, data.TableSessions, ovwSession("between", "p0", "RUNNING", 0))
		}
	}
	sink.waitFor(t, 30*time.Second, "the replacement reported", func() bool { return replacedReports(sink.health, data.TableSessions) == 1 })
	sink.waitFor(t, 30*time.Second, "live again", func() bool { return sink.lastState(data.TableSessions) == StateLive })
	_, health := sink.snapshot()
	for _, h := range health {
		if h.Replaced && !strings.Contains(h.Detail, "replaced") {
			t.Errorf("the report does not say what happened: %q", h.Detail)
		}
	}
	recs, _ := sink.snapshot()
	phase(t, w, sink, len(recs), 5)
}
