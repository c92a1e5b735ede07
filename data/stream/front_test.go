package stream

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
	"opsdeck/demo/ddblocal"
)

// TestLineageThroughRollingFront: through a front that rolls every shard
// over every 40 records and splits every third generation (DescribeStream
// in pages of 3), every write of two tables arrives exactly once, in order
// per key.
func TestLineageThroughRollingFront(t *testing.T) {
	front := streamtest.NewFront(ddblocal.TestEndpoint(t), streamtest.FrontOptions{
		RecordsPerGen: 40, Split: 2, SplitEvery: 3, MaxOpenShards: 16, PageSize: 3, Seed: 1,
	})
	readConn := testConn(t, "", data.ConnOptions{HTTPClient: front.Client()})
	writeConn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, writeConn, ids...)
	sink := newCollectSink()
	startTailer(t, readConn, tables, Options{Tables: ids, MaxBackoff: 400 * time.Millisecond}, sink)
	waitLive(t, sink, ids)
	w := newWorkload(writeConn, tables, 61)
	for i := 0; i < 600; i++ {
		if err := w.Step(context.Background(), ids[i%2], 40); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 120*time.Second)
	got, _ := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	st := front.Stats()
	t.Logf("rollovers %d splits %d shards %d open %d calls %v", st.Rollovers, st.Splits, st.Shards, st.OpenShards, st.Calls)
	if st.Rollovers < 4 || st.Splits < 2 {
		t.Errorf("the front rolled %d times and split %d times: the lineage was not exercised", st.Rollovers, st.Splits)
	}
	// Every shard the front closed was followed into its children, and
	// reported so (a shard split in two counts once, as a split).
	closed := st.Shards - st.OpenShards
	followed := func() (n int) {
		for _, l := range sink.lineage {
			n += l.Rollovers + l.Splits
		}
		return n
	}
	sink.waitFor(t, 30*time.Second, fmt.Sprintf("%d closed shards reported followed", closed), func() bool { return followed() >= closed })
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if n := followed(); n != closed {
		t.Errorf("lineage reports %d shards followed, the front closed %d", n, closed)
	}
	for _, id := range ids {
		l := sink.lineage[id]
		t.Logf("%s: %d rollovers, %d splits, %d open, last %v", id, l.Rollovers, l.Splits, l.Open, l.Last.Format(time.TimeOnly))
		if l.Rollovers == 0 || l.Splits == 0 || l.Last.IsZero() || l.Open == 0 {
			t.Errorf("%s: lineage %+v, want rollovers and splits counted", id, l)
		}
	}
}

// TestFrontPresentsProductionShapes checks the front itself: after a
// rollover and a split, DescribeStream pages with LastEvaluatedShardId,
// CHILD_SHARDS lists exactly a shard's children, every iterator type
// positions where AWS would, a closed shard read to its end gives no
// NextShardIterator, and the injected faults are AWS's own errors.
func TestFrontPresentsProductionShapes(t *testing.T) {
	front := streamtest.NewFront(ddblocal.TestEndpoint(t), streamtest.FrontOptions{Split: 2, SplitEvery: 2, PageSize: 2, Seed: 9})
	conn := testConn(t, "", data.ConnOptions{HTTPClient: front.Client()})
	tables := testTables(t, conn, data.TableSessions)
	ctx := context.Background()
	out, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tables.Name(data.TableSessions))})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.Table.LatestStreamArn
	w := newWorkload(conn, tables, 91)
	write := func(n int) {
		for i := 0; i < n; i++ {
			if err := w.Step(ctx, data.TableSessions, 50); err != nil {
				t.Fatal(err)
			}
		}
	}
	describe := func(filter *st.ShardFilter) []st.Shard {
		t.Helper()
		var all []st.Shard
		var start *string
		pages := 0
		for {
			d, err := conn.Streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn, ExclusiveStartShardId: start, ShardFilter: filter})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if len(d.StreamDescription.Shards) > 2 {
				t.Fatalf("a page of %d shards, over the page size 2", len(d.StreamDescription.Shards))
			}
			all = append(all, d.StreamDescription.Shards...)
			if d.StreamDescription.LastEvaluatedShardId == nil {
				break
			}
			start = d.StreamDescription.LastEvaluatedShardId
		}
		if filter == nil && len(all) > 2 && pages < 2 {
			t.Errorf("%d shards in %d page(s)", len(all), pages)
		}
		return all
	}
	write(10)
	describe(nil) // the front learns the stream and reads its records
	front.Roll()  // generation 1: a rollover
	write(10)
	describe(nil)
	front.Roll() // generation 2: a split
	write(20)
	shards := describe(nil)
	if len(shards) != 4 {
		t.Fatalf("%d shards after a rollover and a split, want 4", len(shards))
	}
	root, mid := shards[0], shards[1]
	if root.SequenceNumberRange.EndingSequenceNumber == nil || aws.ToString(mid.ParentShardId) != aws.ToString(root.ShardId) {
		t.Fatalf("lineage: root %+v mid %+v", root, mid)
	}
	kids := describe(&st.ShardFilter{Type: st.ShardFilterTypeChildShards, ShardId: mid.ShardId})
	if len(kids) != 2 || aws.ToString(kids[0].ParentShardId) != aws.ToString(mid.ShardId) {
		t.Fatalf("CHILD_SHARDS of %s: %+v", aws.ToString(mid.ShardId), kids)
	}

	read := func(shard st.Shard, typ st.ShardIteratorType, seq string) ([]st.Record, bool) {
		t.Helper()
		in := &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: typ}
		if seq != "" {
			in.SequenceNumber = aws.String(seq)
		}
		it, err := conn.Streams.GetShardIterator(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		var recs []st.Record
		iter := it.ShardIterator
		for i := 0; i < 100 && iter != nil; i++ {
			r, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(3)})
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r.Records...)
			iter = r.NextShardIterator
			if len(r.Records) == 0 {
				break
			}
		}
		return recs, iter == nil
	}
	rootRecs, closed := read(root, st.ShardIteratorTypeTrimHorizon, "")
	if len(rootRecs) != 10 || !closed {
		t.Fatalf("closed root shard: %d records (want 10), closed %v", len(rootRecs), closed)
	}
	seq2 := aws.ToString(rootRecs[2].Dynamodb.SequenceNumber)
	if at, _ := read(root, st.ShardIteratorTypeAtSequenceNumber, seq2); len(at) != 8 {
		t.Errorf("AT_SEQUENCE_NUMBER of the 3rd record: %d records, want 8", len(at))
	}
	if after, _ := read(root, st.ShardIteratorTypeAfterSequenceNumber, seq2); len(after) != 7 {
		t.Errorf("AFTER_SEQUENCE_NUMBER of the 3rd record: %d records, want 7", len(after))
	}
	if latest, closed := read(root, st.ShardIteratorTypeLatest, ""); len(latest) != 0 || !closed {
		t.Errorf("LATEST on a closed shard: %d records, closed %v", len(latest), closed)
	}
	k0, _ := read(kids[0], st.ShardIteratorTypeTrimHorizon, "")
	k1, _ := read(kids[1], st.ShardIteratorTypeTrimHorizon, "")
	if len(k0)+len(k1) != 20 || len(k0) == 0 || len(k1) == 0 {
		t.Errorf("the split's children hold %d and %d of the 20 records", len(k0), len(k1))
	}

	front.SetFaults(0, time.Nanosecond) // every iterator is already too old
	it, err := conn.Streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: kids[0].ShardId, ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	var expired *st.ExpiredIteratorException
	if _, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator}, noStreamsRetry); !errors.As(err, &expired) {
		t.Errorf("an old iterator: %v, want ExpiredIteratorException", err)
	}
	front.SetFaults(1, 0)
	var limit *st.LimitExceededException
	if _, err := conn.Streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn, ShardId: kids[0].ShardId, ShardIteratorType: st.ShardIteratorTypeLatest}, noStreamsRetry); !errors.As(err, &limit) {
		t.Errorf("throttled: %v, want LimitExceededException", err)
	}
}
