package stream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// TestInjectedFaultsAreTypedErrors: the injected responses really are what
// the SDK makes typed errors of; otherwise the fault test below would test
// the "unknown error" path only.
func TestInjectedFaultsAreTypedErrors(t *testing.T) {
	ft := streamtest.New(1, 1)
	ft.Arm(true)
	conn := testConn(t, "", data.ConnOptions{HTTPClient: &http.Client{Transport: ft}})
	ctx := context.Background()
	check := func(kind streamtest.Kind, want any) {
		t.Helper()
		for i := 0; i < 200; i++ { // the transport picks at random: call until it picks kind
			before := ft.Count(kind)
			_, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("x")}, noStreamsRetry)
			if ft.Count(kind) == before {
				continue
			}
			if !errors.As(err, want) {
				t.Errorf("%s: got %T %v", kind, err, err)
			}
			return
		}
		t.Errorf("%s never injected", kind)
	}
	check(streamtest.Expired, new(*st.ExpiredIteratorException))
	check(streamtest.Trimmed, new(*st.TrimmedDataAccessException))
	check(streamtest.NotFound, new(*st.ResourceNotFoundException))
	check(streamtest.Limit, new(*st.LimitExceededException))
	check(streamtest.Internal500, new(*st.InternalServerError))
	var api smithy.APIError
	check(streamtest.Throttle, &api)
	if api == nil || api.ErrorCode() != "ThrottlingException" {
		t.Errorf("throttling: got %v", api)
	}
	// And the reader classifies them as intended.
	for kind, want := range map[streamtest.Kind]fault{streamtest.Expired: faultExpired, streamtest.Trimmed: faultTrimmed, streamtest.NotFound: faultNotFound, streamtest.Limit: faultThrottled, streamtest.Throttle: faultThrottled, streamtest.Internal500: faultTransient, streamtest.ResetBefore: faultTransient} {
		for i := 0; i < 500; i++ {
			before := ft.Count(kind)
			_, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("x")}, noStreamsRetry)
			if ft.Count(kind) != before {
				if got := classify(ctx, err); got != want {
					t.Errorf("%s classified %d, want %d (%v)", kind, got, want, err)
				}
				break
			}
		}
	}
}

// TestNothingLostUnderFaults: with a writer running and a share of every
// Streams call failing at random in every way the reader must handle, the
// records delivered equal the ground truth exactly: none lost, none
// duplicated, per-key order kept. The health reports show the faults.
func TestNothingLostUnderFaults(t *testing.T) {
	for _, seed := range []uint64{11, 12} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { faultRun(t, seed) })
	}
}

func faultRun(t *testing.T, seed uint64) {
	ft := streamtest.New(seed, 0.25)
	readConn := testConn(t, "", data.ConnOptions{HTTPClient: &http.Client{Transport: ft}})
	writeConn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, writeConn, ids...)
	sink := newCollectSink()
	startTailer(t, readConn, tables, Options{Tables: ids, MaxBackoff: 400 * time.Millisecond, Limit: 7,
		ThrottleBackoff: 50 * time.Millisecond, ThrottleBackoffMax: 400 * time.Millisecond}, sink)
	waitLive(t, sink, ids)

	w := newWorkload(writeConn, tables, seed)
	ctx := context.Background()
	// Before any record of a shard is delivered, the only position known is
	// LATEST (see shardReader.position); arm the faults once each table has
	// delivered something, as on AWS where iterators only expire after a
	// 15-minute stall.
	for _, id := range ids {
		if err := w.Step(ctx, id, 10); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 30*time.Second)
	ft.Arm(true)

	// Write until every kind of fault has hit the reader at least once (and
	// at least 400 writes), so the test proves what its name says.
	for i := 0; i < 400 || !ft.CoveredAll(); i++ {
		if i >= 3000 {
			t.Fatalf("not every fault kind was injected after %d writes: %s", i, ft.Summary())
		}
		if err := w.Step(ctx, ids[i%2], 25); err != nil {
			t.Fatal(err)
		}
		if i%50 == 49 {
			// Let the reader catch up so its calls (and faults) interleave
			// with the writes rather than trail them.
			waitAll(t, sink, w, 120*time.Second)
		}
	}
	waitAll(t, sink, w, 120*time.Second)
	ft.Arm(false)
	// One more write per table, delivered after every earlier record of its
	// shard: a late duplicate would have arrived before it.
	for _, id := range ids {
		if err := w.Step(ctx, id, 25); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 60*time.Second)
	got, health := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	t.Logf("faults injected: %s", ft.Summary())
	seen := map[State]bool{}
	for _, h := range health {
		seen[h.State] = true
	}
	for _, s := range []State{StateReconnecting, StateThrottled, StateGap, StateLive} {
		if !seen[s] {
			t.Errorf("health never reported %q under faults: %s", s, healthString(health))
		}
	}
}
