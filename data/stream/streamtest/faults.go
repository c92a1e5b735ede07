package streamtest

import (
	"bytes"
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
)

// Kind is one thing the fault transport can do instead of (or after)
// forwarding a request to the real server.
type Kind string

const (
	Expired     Kind = "expired-iterator"
	Trimmed     Kind = "trimmed"
	NotFound    Kind = "resource-not-found"
	Limit       Kind = "limit-exceeded"
	Throttle    Kind = "throttling"
	Internal500 Kind = "internal-server-error"
	ResetBefore Kind = "reset-before-send"
	ResetAfter  Kind = "reset-after-send" // the server did the work; the answer is lost
)

// FaultsFor lists the faults that are plausible for each operation the
// reader makes. Operations not listed (every table read and write) are
// always forwarded untouched, so one transport can sit under a whole
// connection.
var FaultsFor = map[string][]Kind{
	"GetRecords":       {Expired, Trimmed, NotFound, Limit, Throttle, Internal500, ResetBefore, ResetAfter},
	"GetShardIterator": {Trimmed, NotFound, Limit, Throttle, Internal500, ResetBefore, ResetAfter},
	"DescribeStream":   {Limit, Throttle, Internal500, ResetBefore, ResetAfter},
	"DescribeTable":    {Throttle, Internal500, ResetBefore},
}

// Transport sits in front of the real server and, when armed, answers a
// seeded random share of requests with a fault shaped exactly like AWS's
// own (status, X-Amzn-ErrorType, JSON __type and message), so the SDK
// turns them into its typed errors. It starts disarmed: tests arm it once
// the reader has a position to resume from, as on AWS, where iterators
// only expire after a 15-minute stall.
type Transport struct {
	base  http.RoundTripper
	armed atomic.Bool
	rate  float64

	mu     sync.Mutex
	rng    *rand.Rand
	counts map[Kind]int
	calls  map[string]int
}

// New returns a disarmed Transport that, once armed, fails the given share
// (0..1) of the requests FaultsFor lists, picking the fault at random from
// a generator seeded with seed (the same seed gives the same sequence of
// decisions for the same sequence of requests).
func New(seed uint64, rate float64) *Transport {
	return &Transport{
		base:   http.DefaultTransport.(*http.Transport).Clone(),
		rate:   rate,
		rng:    rand.New(rand.NewPCG(seed, 99)),
		counts: map[Kind]int{},
		calls:  map[string]int{},
	}
}

// Client is an *http.Client over t, for data.ConnOptions.HTTPClient.
func (f *Transport) Client() *http.Client { return &http.Client{Transport: f} }

// Arm starts (true) or stops (false) injecting faults.
func (f *Transport) Arm(on bool) { f.armed.Store(on) }

func (f *Transport) pick(op string) (Kind, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
	kinds := FaultsFor[op]
	if !f.armed.Load() || len(kinds) == 0 || f.rng.Float64() >= f.rate {
		return "", false
	}
	k := kinds[f.rng.IntN(len(kinds))]
	f.counts[k]++
	return k, true
}

// RoundTrip forwards req, or answers with a fault.
func (f *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	kind, ok := f.pick(op)
	if !ok {
		return f.base.RoundTrip(req)
	}
	switch kind {
	case ResetBefore:
		drain(req)
		return nil, resetErr()
	case ResetAfter:
		resp, err := f.base.RoundTrip(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return nil, resetErr()
	}
	drain(req)
	return ErrorResponse(req, kind), nil
}

// ErrorResponse is the response AWS sends for kind (one of the error
// kinds, not a reset), as the SDK expects to parse it.
func ErrorResponse(req *http.Request, kind Kind) *http.Response {
	status, typ, msg := 400, "", ""
	switch kind {
	case Expired:
		typ, msg = "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", "Iterator expired. The iterator was created at time Sat Nov 21 12:00:00 UTC 2026 while right now it is Sat Nov 21 12:15:01 UTC 2026 which is further in the future than the tolerated delay of 900000 milliseconds."
	case Trimmed:
		typ, msg = "com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", "The operation attempted to read past the oldest stream record in a shard."
	case NotFound:
		typ, msg = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "Requested resource not found: Shard does not exist"
	case Limit:
		typ, msg = "com.amazonaws.dynamodb.v20120810#LimitExceededException", "Rate exceeded for shard"
	case Throttle:
		typ, msg = "com.amazon.coral.availability#ThrottlingException", "Rate of requests exceeds the allowed throughput."
	default:
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
	}
}

func drain(req *http.Request) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
}

// resetErr is what a read on a connection the peer reset returns.
func resetErr() error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
}

// Count is how many times kind was injected.
func (f *Transport) Count(k Kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[k]
}

// Calls is how many requests of operation op (e.g. "GetRecords") went
// through, faulted or not.
func (f *Transport) Calls(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
}

// CoveredAll reports whether every kind of fault was injected at least once.
func (f *Transport) CoveredAll() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range FaultsFor["GetRecords"] {
		if f.counts[k] == 0 {
			return false
		}
	}
	return true
}

// Summary is the faults injected and the calls seen, for test logs.
func (f *Transport) Summary() string {
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
