//go:build demorolling

package main

// A build with -tags demorolling (make demo-rolling) adds --demo-rolling:
// the demo's live tail reads through streamtest.Front, which serves DynamoDB
// Local's real records through synthetic shards that roll over and split as
// production's do, so the Stream pane can be watched through rollovers by
// hand. Front is test support; this file keeps it out of the ordinary
// binary.
//
// SIGUSR1 stops the traffic simulator, waits for the tail to catch up and
// writes the check to the debug log (lines "rolling: …"): for each table,
// the real stream's records since the first one the console received,
// against what the reader handed the console (missing, duplicated), and
// the front's rollovers, splits and calls.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/data/stream/streamtest"
)

// rollingFront shapes the demo's lineage: a generation a minute (or every
// 60 records of a table), every third one a split in two, up to 8 open
// shards a table, DescribeStream in pages of 3, and AWS's 5 reads a second
// per shard enforced.
var rollingFront = streamtest.FrontOptions{
	RecordsPerGen: 60, GenEvery: time.Minute, Split: 2, SplitEvery: 3, MaxOpenShards: 8,
	PageSize: 3, ShardReadsPerSecond: 5, Seed: 12,
}

func init() {
	demoRolling = func(endpoint string, logf func(string, ...any)) rollingDemo {
		r := &rolling{front: streamtest.NewFront(endpoint, rollingFront), logf: logf, began: time.Now(),
			got: map[data.TableID]map[string]int{}, first: map[data.TableID]string{}, live: map[data.TableID]time.Time{}}
		logf("rolling: stream reads go through a rolling front %+v", rollingFront)
		return r
	}
}

type rolling struct {
	front *streamtest.Front
	logf  func(string, ...any)
	began time.Time

	mu    sync.Mutex
	got   map[data.TableID]map[string]int // sequence number → times delivered
	first map[data.TableID]string         // first sequence number delivered
	live  map[data.TableID]time.Time      // first reported live
	n     int
}

func (r *rolling) client() *http.Client { return r.front.Client() }

// tap wraps the console's sink, counting every record the reader hands it.
func (r *rolling) tap(s stream.Sink) stream.Sink { return &tapSink{r: r, next: s} }

type tapSink struct {
	r    *rolling
	next stream.Sink
}

func (t *tapSink) Records(recs []stream.Record) {
	t.r.mu.Lock()
	for _, rec := range recs {
		m := t.r.got[rec.Table]
		if m == nil {
			m = map[string]int{}
			t.r.got[rec.Table] = m
			t.r.first[rec.Table] = rec.Seq
		}
		m[rec.Seq]++
		t.r.n++
	}
	t.r.mu.Unlock()
	t.next.Records(recs)
}

func (t *tapSink) Health(h stream.Health) {
	t.r.mu.Lock()
	if _, ok := t.r.live[h.Table]; !ok && h.State == stream.StateLive {
		t.r.live[h.Table] = h.At
	}
	t.r.mu.Unlock()
	t.next.Health(h)
}

func (t *tapSink) Lineage(l stream.Lineage) {
	if ls, ok := t.next.(stream.LineageSink); ok {
		ls.Lineage(l)
	}
}

// watch runs the check on every SIGUSR1 until ctx ends.
func (r *rolling) watch(ctx context.Context, stopSim func(), conn *data.Conn, tables data.Tables) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	defer signal.Stop(sig)
	for {
		select {
		case <-ctx.Done():
			return
		case <-sig:
		}
		stopSim()
		r.logf("rolling: simulator stopped; waiting for the tail to catch up")
		r.settle(ctx)
		r.check(ctx, conn, tables)
	}
}

// settle waits until no record has reached the console for 5 s (at most a
// minute): the writes have stopped, so the tail is caught up.
func (r *rolling) settle(ctx context.Context) {
	deadline := time.Now().Add(time.Minute)
	last, since := -1, time.Now()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		r.mu.Lock()
		n := r.n
		r.mu.Unlock()
		if n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= 5*time.Second {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// check compares, per table, the real stream (read directly from DynamoDB
// Local, not through the front) with what the console received.
func (r *rolling) check(ctx context.Context, conn *data.Conn, tables data.Tables) {
	r.mu.Lock()
	defer r.mu.Unlock()
	totalReal, totalGot, totalMissing, totalDup := 0, 0, 0, 0
	for _, id := range data.TableIDs() {
		real, err := realStream(ctx, conn, tables.Name(id))
		if err != nil {
			r.logf("rolling: %s: reading the real stream: %v", id, err)
			continue
		}
		got, first := r.got[id], r.first[id]
		want, missing, dup, early := 0, 0, 0, 0
		for _, rec := range real {
			if first == "" || seqLess(rec.seq, first) {
				if live, ok := r.live[id]; ok && rec.at.After(live.Add(time.Second)) {
					early++ // written after the table went live, yet before the first record received
				}
				continue
			}
			want++
			switch got[rec.seq] {
			case 0:
				missing++
			case 1:
			default:
				dup++
			}
		}
		n := 0
		for _, c := range got {
			n += c
		}
		totalReal += want
		totalGot += n
		totalMissing += missing + early
		totalDup += dup
		r.logf("rolling: %s: real stream %d records since the first received, received %d, missing %d, duplicated %d, lost before the first %d",
			id, want, n, missing, dup, early)
	}
	s := r.front.Stats()
	secs := time.Since(r.began).Seconds()
	r.logf("rolling: total real %d received %d missing %d duplicated %d", totalReal, totalGot, totalMissing, totalDup)
	r.logf("rolling: front rollovers %d splits %d shards %d open %d; opsdeck GetRecords %d (%.1f/s over %.0fs), throttled %d",
		s.Rollovers, s.Splits, s.Shards, s.OpenShards, s.Calls[streamtest.DefaultReader]["GetRecords"],
		float64(s.Calls[streamtest.DefaultReader]["GetRecords"])/secs, secs, s.Throttled[streamtest.DefaultReader]+s.RateLimited[streamtest.DefaultReader])
}

type realRec struct {
	seq string
	at  time.Time
}

// realStream reads every record of a table's stream from its start.
func realStream(ctx context.Context, conn *data.Conn, name string) ([]realRec, error) {
	t, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return nil, err
	}
	if t.Table.LatestStreamArn == nil {
		return nil, fmt.Errorf("no stream")
	}
	d, err := conn.Streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: t.Table.LatestStreamArn})
	if err != nil {
		return nil, err
	}
	var out []realRec
	for _, sh := range d.StreamDescription.Shards {
		it, err := conn.Streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: t.Table.LatestStreamArn, ShardId: sh.ShardId, ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
		if err != nil {
			return nil, err
		}
		iter := it.ShardIterator
		for iter != nil {
			g, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				return nil, err
			}
			for _, rec := range g.Records {
				out = append(out, realRec{seq: aws.ToString(rec.Dynamodb.SequenceNumber), at: aws.ToTime(rec.Dynamodb.ApproximateCreationDateTime)})
			}
			if len(g.Records) == 0 {
				break // an open shard read to its end
			}
			iter = g.NextShardIterator
		}
	}
	slices.SortFunc(out, func(a, b realRec) int {
		if seqLess(a.seq, b.seq) {
			return -1
		}
		if seqLess(b.seq, a.seq) {
			return 1
		}
		return 0
	})
	return out, nil
}

// seqLess compares decimal sequence numbers of any length.
func seqLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}
