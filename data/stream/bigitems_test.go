package stream

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// bigItemRig tails one sessions table through a Meter and can pile up
// modifications of one ~100 KB item while the reader is kept from reading
// them, so its next GetRecords meets a backlog of ~200 KB records (old and
// new image), like the 400 KB item modified 1,200 times that DynamoDB Local
// answered with ~737 MB.
type bigItemRig struct {
	conn   *data.Conn
	tables data.Tables
	meter  *streamtest.Meter
	sink   *collectSink
	n      int
}

func newBigItemRig(t *testing.T, opts Options) *bigItemRig {
	t.Helper()
	r := &bigItemRig{meter: streamtest.NewMeter(), sink: newCollectSink()}
	r.conn = testConn(t, "", data.ConnOptions{})
	r.tables = testTables(t, r.conn, data.TableSessions)
	read := testConn(t, "", data.ConnOptions{HTTPClient: r.meter.Client()})
	opts.Tables = []data.TableID{data.TableSessions}
	opts.MaxBackoff = 300 * time.Millisecond
	startTailer(t, read, r.tables, opts, r.sink)
	waitLive(t, r.sink, opts.Tables)
	return r
}

// pileUp writes n modifications of the big item while GetRecords is
// blocked, then lets the reader at them.
func (r *bigItemRig) pileUp(t *testing.T, n int) {
	t.Helper()
	r.meter.Block(true)
	name := aws.String(r.tables.Name(data.TableSessions))
	for i := 0; i < n; i++ {
		r.n++
		blob := strings.Repeat(string(rune('a'+r.n%26)), 100_000)
		_, err := r.conn.DB.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: name, Item: data.Item{
			"sessionId": &ddb.AttributeValueMemberS{Value: "big"},
			"n":         &ddb.AttributeValueMemberN{Value: fmt.Sprint(r.n)},
			"blob":      &ddb.AttributeValueMemberS{Value: blob},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	r.meter.Block(false)
}

// waitRecords waits for every write, then checks each arrived once, in order.
func (r *bigItemRig) waitRecords(t *testing.T) {
	t.Helper()
	r.sink.waitFor(t, 90*time.Second, fmt.Sprintf("%d big records", r.n), func() bool { return len(r.sink.recs) >= r.n })
	got, _ := r.sink.snapshot()
	if len(got) != r.n {
		t.Fatalf("got %d records, want %d", len(got), r.n)
	}
	for i, rec := range got {
		v, _ := rec.New["n"].(*ddb.AttributeValueMemberN)
		if v == nil || v.Value != fmt.Sprint(i+1) {
			t.Fatalf("record %d: n=%v, want %d (lost, duplicated or out of order)", i, rec.New["n"], i+1)
		}
		if rec.Size() < 100_000 {
			t.Errorf("record %d: size %d does not count its images", i, rec.Size())
		}
	}
}

// TestHugeAnswerThatTimesOutShrinksTheLimit: an answer too big to arrive
// within the call timeout made the reader retry the same call for ever
// ("reconnecting", nothing delivered). It must ask for fewer records until
// answers arrive, and deliver everything.
func TestHugeAnswerThatTimesOutShrinksTheLimit(t *testing.T) {
	r := newBigItemRig(t, Options{CallTimeout: time.Second})
	r.meter.SlowAbove(1 << 20) // > 1 MB does not arrive in time
	r.pileUp(t, 30)            // ~6 MB of records waiting
	r.waitRecords(t)
	held := 0
	for _, a := range r.meter.Answers() {
		if a.Held {
			held++
		}
	}
	if held == 0 {
		t.Fatalf("no answer was ever too slow: the test did not reproduce the stall")
	}
	t.Logf("%d answers held back until the timeout, then smaller ones delivered", held)
}

// TestAnswerBytesAreCapped: with the backlog, no GetRecords answer is read
// past MaxResponseBytes (one record over it is the only exception); the
// reader asks for fewer records and delivers every one once, in order.
func TestAnswerBytesAreCapped(t *testing.T) {
	const capBytes = 1 << 20
	r := newBigItemRig(t, Options{MaxResponseBytes: capBytes})
	r.pileUp(t, 30)
	r.waitRecords(t)
	big := 0
	for _, a := range r.meter.Answers() {
		// The cap reads one byte past itself to tell "at" from "over".
		if a.Read > capBytes+16 {
			t.Errorf("an answer of %d bytes was read to %d bytes, over the %d cap", a.Size, a.Read, capBytes)
		}
		if a.Size > capBytes {
			big++
		}
	}
	if big == 0 {
		t.Fatalf("no answer was over the cap: the test did not reproduce a huge answer")
	}
}

func TestSizerShrinksFollowsAndGrowsBack(t *testing.T) {
	z := newSizer(1000, 8<<20)
	if z.cap() != 8<<20 {
		t.Fatalf("cap %d", z.cap())
	}
	for _, want := range []int32{250, 62, 15, 3, 1} {
		if !z.shrink() || z.limit != want {
			t.Fatalf("shrink: limit %d, want %d", z.limit, want)
		}
	}
	if z.shrink() {
		t.Errorf("shrink below 1")
	}
	if z.cap() < singleRecordCap {
		t.Errorf("one record must always be readable: cap %d", z.cap())
	}
	// Small answers: held for a while after the shrink, then doubling.
	for i := 0; i < holdAfterShrink; i++ {
		z.answered(0, 100)
	}
	if z.limit != 1 {
		t.Errorf("grew during the hold: %d", z.limit)
	}
	for i := 0; i < 12; i++ {
		z.answered(0, 100)
	}
	if z.limit != 1000 {
		t.Errorf("did not grow back to the configured limit: %d", z.limit)
	}
	// Records of 800 KB: at most half the allowance per answer.
	z.answered(2, 1_600_000)
	if z.limit != 5 {
		t.Errorf("limit after 800 KB records: %d, want 5", z.limit)
	}
}
