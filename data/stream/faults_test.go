package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"

	"opsdeck/data"
)

// faultKind is one thing the fault transport can do instead of (or after)
// forwarding a request to the real server.
type faultKind string

const (
	fExpired     faultKind = "expired-iterator"
	fTrimmed     faultKind = "trimmed"
	fNotFound    faultKind = "resource-not-found"
	fLimit       faultKind = "limit-exceeded"
	fThrottle    faultKind = "throttling"
	f500         faultKind = "internal-server-error"
	fResetBefore faultKind = "reset-before-send"
	fResetAfter  faultKind = "reset-after-send" // the server did the work; the answer is lost
)

// faultsFor lists the faults that are plausible for each Streams operation.
var faultsFor = map[string][]faultKind{
	"GetRecords":       {fExpired, fTrimmed, fNotFound, fLimit, fThrottle, f500, fResetBefore, fResetAfter},
	"GetShardIterator": {fTrimmed, fNotFound, fLimit, fThrottle, f500, fResetBefore, fResetAfter},
	"DescribeStream":   {fLimit, fThrottle, f500, fResetBefore, fResetAfter},
	"DescribeTable":    {fThrottle, f500, fResetBefore},
}

// faultTransport sits in front of the real DynamoDB Local and, when armed,
// answers a seeded random share of requests with a fault shaped exactly like
// AWS's own (status, X-Amzn-ErrorType, JSON __type and message), so the SDK
// turns them into its typed errors.
type faultTransport struct {
	base  http.RoundTripper
	armed atomic.Bool
	rate  float64

	mu     sync.Mutex
	rng    *rand.Rand
	counts map[faultKind]int
	calls  map[string]int
}

func newFaultTransport(seed uint64, rate float64) *faultTransport {
	return &faultTransport{
		base:   http.DefaultTransport.(*http.Transport).Clone(),
		rate:   rate,
		rng:    rand.New(rand.NewPCG(seed, 99)),
		counts: map[faultKind]int{},
		calls:  map[string]int{},
	}
}

func (f *faultTransport) pick(op string) (faultKind, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
	kinds := faultsFor[op]
	if !f.armed.Load() || len(kinds) == 0 || f.rng.Float64() >= f.rate {
		return "", false
	}
	k := kinds[f.rng.IntN(len(kinds))]
	f.counts[k]++
	return k, true
}

func (f *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	kind, ok := f.pick(op)
	if !ok {
		return f.base.RoundTrip(req)
	}
	switch kind {
	case fResetBefore:
		drain(req)
		return nil, resetErr()
	case fResetAfter:
		resp, err := f.base.RoundTrip(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return nil, resetErr()
	}
	drain(req)
	status, typ, msg := 400, "", ""
	switch kind {
	case fExpired:
		typ, msg = "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", "Iterator expired. The iterator was created at time Sat Nov 21 12:00:00 UTC 2026 while right now it is Sat Nov 21 12:15:01 UTC 2026 which is further in the future than the tolerated delay of 900000 milliseconds."
	case fTrimmed:
		typ, msg = "com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", "The operation attempted to read past the oldest stream record in a shard."
	case fNotFound:
		typ, msg = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "Requested resource not found: Shard does not exist"
	case fLimit:
		typ, msg = "com.amazonaws.dynamodb.v20120810#LimitExceededException", "Rate exceeded for shard"
	case fThrottle:
		typ, msg = "com.amazon.coral.availability#ThrottlingException", "Rate of requests exceeds the allowed throughput."
	case f500:
		status, typ, msg = 500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "Internal server error"
	}
	body := fmt.Sprintf(`{"__type":%q,"message":%q}`, typ, msg)
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-ErrorType", typ[strings.IndexByte(typ, '#')+1:])
	h.Set("X-Amzn-RequestId", "INJECTED0000000000000000000000000000000000000000000000")
	return &http.Response{
		Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewBufferString(body)), ContentLength: int64(len(body)),
		Request: req,
	}, nil
}

func drain(req *http.Request) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
}

func resetErr() error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
}

func (f *faultTransport) count(k faultKind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[k]
}

// coveredAll: every fault kind was injected at least once.
func (f *faultTransport) coveredAll() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range faultsFor["GetRecords"] {
		if f.counts[k] == 0 {
			return false
		}
	}
	return true
}

func (f *faultTransport) summary() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parts []string
	for k, n := range f.counts {
		parts = append(parts, fmt.Sprintf("%s=%d", k, n))
	}
	for op, n := range f.calls {
		parts = append(parts, fmt.Sprintf("calls:%s=%d", op, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// TestInjectedFaultsAreTypedErrors: the injected responses really are what
// the SDK makes typed errors of; otherwise the fault test below would test
// the "unknown error" path only.
func TestInjectedFaultsAreTypedErrors(t *testing.T) {
	ft := newFaultTransport(1, 1)
	ft.armed.Store(true)
	conn := testConn(t, "", data.ConnOptions{HTTPClient: &http.Client{Transport: ft}})
	ctx := context.Background()
	check := func(kind faultKind, want any) {
		t.Helper()
		for i := 0; i < 200; i++ { // the transport picks at random: call until it picks kind
			before := ft.count(kind)
			_, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("x")}, noStreamsRetry)
			if ft.count(kind) == before {
				continue
			}
			if !errors.As(err, want) {
				t.Errorf("%s: got %T %v", kind, err, err)
			}
			return
		}
		t.Errorf("%s never injected", kind)
	}
	check(fExpired, new(*st.ExpiredIteratorException))
	check(fTrimmed, new(*st.TrimmedDataAccessException))
	check(fNotFound, new(*st.ResourceNotFoundException))
	check(fLimit, new(*st.LimitExceededException))
	check(f500, new(*st.InternalServerError))
	var api smithy.APIError
	check(fThrottle, &api)
	if api == nil || api.ErrorCode() != "ThrottlingException" {
		t.Errorf("throttling: got %v", api)
	}
	// And the reader classifies them as intended.
	for kind, want := range map[faultKind]fault{fExpired: faultExpired, fTrimmed: faultTrimmed, fNotFound: faultNotFound, fLimit: faultTransient, fThrottle: faultTransient, f500: faultTransient, fResetBefore: faultTransient} {
		for i := 0; i < 500; i++ {
			before := ft.count(kind)
			_, err := conn.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String("x")}, noStreamsRetry)
			if ft.count(kind) != before {
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
	ft := newFaultTransport(seed, 0.25)
	readConn := testConn(t, "", data.ConnOptions{HTTPClient: &http.Client{Transport: ft}})
	writeConn := testConn(t, "", data.ConnOptions{})
	ids := []data.TableID{data.TableSessions, data.TableEvents}
	tables := testTables(t, writeConn, ids...)
	sink := newCollectSink()
	startTailer(t, readConn, tables, Options{Tables: ids, MaxBackoff: 400 * time.Millisecond, Limit: 7}, sink)
	waitLive(t, sink, ids)

	w := newWorkload(writeConn, tables, seed)
	ctx := context.Background()
	// Before any record of a shard is delivered, the only position known is
	// LATEST (see shardReader.position); arm the faults once each table has
	// delivered something, as on AWS where iterators only expire after a
	// 15-minute stall.
	for _, id := range ids {
		if err := w.step(ctx, id, 10); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 30*time.Second)
	ft.armed.Store(true)

	// Write until every kind of fault has hit the reader at least once (and
	// at least 400 writes), so the test proves what its name says.
	for i := 0; i < 400 || !ft.coveredAll(); i++ {
		if i >= 3000 {
			t.Fatalf("not every fault kind was injected after %d writes: %s", i, ft.summary())
		}
		if err := w.step(ctx, ids[i%2], 25); err != nil {
			t.Fatal(err)
		}
		if i%50 == 49 {
			// Let the reader catch up so its calls (and faults) interleave
			// with the writes rather than trail them.
			waitAll(t, sink, w, 120*time.Second)
		}
	}
	waitAll(t, sink, w, 120*time.Second)
	ft.armed.Store(false)
	// One more write per table, delivered after every earlier record of its
	// shard: a late duplicate would have arrived before it.
	for _, id := range ids {
		if err := w.step(ctx, id, 25); err != nil {
			t.Fatal(err)
		}
	}
	waitAll(t, sink, w, 60*time.Second)
	got, health := sink.snapshot()
	verifyExactly(t, got, w.wants)
	t.Logf("faults injected: %s", ft.summary())
	seen := map[State]bool{}
	for _, h := range health {
		seen[h.State] = true
	}
	for _, s := range []State{StateReconnecting, StateGap, StateLive} {
		if !seen[s] {
			t.Errorf("health never reported %q under faults: %s", s, healthString(health))
		}
	}
}
