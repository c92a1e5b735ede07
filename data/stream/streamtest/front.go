// Test support: one fake Streams front (synthetic shards that roll over and
// split) over DynamoDB Local's real records. Split in four by job: this file
// is the Front, its options, counts and routing; front_lineage.go the
// synthetic shard map; front_real.go the reads from the real server;
// front_serve.go the answers to the client.

package streamtest

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Front is an http.RoundTripper in front of the real DynamoDB Local that
// makes its streams look like production's. DynamoDB Local presents every
// stream as one shard that never closes; the Front serves the same records,
// read from the real server, through a lineage of synthetic shards:
//
//   - a new generation every RecordsPerGen records or GenEvery (whichever
//     comes first): every open shard closes and is replaced by a child
//     covering the same keys, or, every SplitEvery-th generation, split
//     into Split children each covering part of its keys;
//   - InitialShards open shards from the start (to measure what idle shards
//     cost), each holding the records whose key hashes into its range;
//   - DescribeStream pages of PageSize shards with LastEvaluatedShardId,
//     and ShardFilter CHILD_SHARDS;
//   - GetShardIterator with every iterator type; GetRecords with Limit and
//     AWS's 1 MB cap; a closed shard answers without NextShardIterator once
//     read to its end;
//   - optionally (SetFaults) iterators that expire after a time, and
//     LimitExceededException at random and when a shard is read more often
//     than ShardReadsPerSecond by all readers together (AWS: 5).
//
// Only the shard map is synthetic: every record is the real server's, in
// its order. Requests other than GetShardIterator, GetRecords and
// DescribeStream (every table operation, ListStreams) are forwarded.
//
// Requests are counted per reader: a client from ClientAs(name) sends a
// header naming it; other requests count as "opsdeck".
type Front struct {
	opts     FrontOptions
	endpoint string
	base     http.RoundTripper
	signer   *v4.Signer

	mu      sync.Mutex
	rng     *rand.Rand
	streams map[string]*fstream
	idSeq   int
	faults  frontFaults
	stats   FrontStats
}

// FrontOptions shape the synthetic lineage.
type FrontOptions struct {
	RecordsPerGen int           // a new generation after this many records of a stream (0: never)
	GenEvery      time.Duration // and at the latest after this long (0: never)
	Split         int           // children of a splitting shard (≥ 2 to split)
	SplitEvery    int           // every SplitEvery-th generation splits (0: never)
	MaxOpenShards int           // splits stop once a stream has this many open shards (default 64)
	InitialShards int           // open shards at the start (default 1)
	PageSize      int           // shards per DescribeStream page (default 100, AWS's maximum)
	// ShardReadsPerSecond is AWS's per-shard read limit (5), shared by every
	// reader of the shard and metered as a token bucket (that many a
	// second, as many in a burst): GetRecords beyond it fail with
	// LimitExceededException. 0: no limit.
	ShardReadsPerSecond float64
	Seed                uint64
}

type frontFaults struct {
	throttle    float64       // share of GetRecords/GetShardIterator failing with LimitExceeded
	iteratorTTL time.Duration // iterators older than this are expired (0: never)
}

// FrontStats counts what the Front saw and did.
type FrontStats struct {
	// Calls counts requests by reader and operation.
	Calls map[string]map[string]int
	// ShardCalls counts GetRecords by reader and shard.
	ShardCalls map[string]map[string]int
	// Throttled and Expired count injected faults by reader (LimitExceeded
	// at random or over ShardReadsPerSecond; iterators past their TTL).
	Throttled, RateLimited, Expired map[string]int
	Rollovers, Splits               int // generations that replaced / split shards
	Shards                          int // shards created, every stream
	OpenShards                      int // open shards now, every stream
	Records                         int // records read from the real server
	RealPulls                       int // GetRecords the Front made on the real server
}

// readerHeader names the reader of a request, for the counts.
const readerHeader = "X-Front-Reader"

// DefaultReader is the name requests without a reader header count under.
const DefaultReader = "opsdeck"

// NewFront returns a Front that reads the real records from endpoint.
func NewFront(endpoint string, o FrontOptions) *Front {
	if o.MaxOpenShards <= 0 {
		o.MaxOpenShards = 64
	}
	if o.InitialShards <= 0 {
		o.InitialShards = 1
	}
	if o.PageSize <= 0 || o.PageSize > 100 {
		o.PageSize = 100
	}
	return &Front{
		opts: o, endpoint: strings.TrimRight(endpoint, "/"),
		base:    http.DefaultTransport.(*http.Transport).Clone(),
		signer:  v4.NewSigner(),
		rng:     rand.New(rand.NewPCG(o.Seed, 77)),
		streams: map[string]*fstream{},
		stats:   newFrontStats(),
	}
}

func newFrontStats() FrontStats {
	return FrontStats{
		Calls: map[string]map[string]int{}, ShardCalls: map[string]map[string]int{},
		Throttled: map[string]int{}, RateLimited: map[string]int{}, Expired: map[string]int{},
	}
}

// Client is an *http.Client over f; its requests count as DefaultReader.
func (f *Front) Client() *http.Client { return &http.Client{Transport: f} }

// ClientAs is an *http.Client over f whose requests count as reader name
// (a second consumer of the same shards, say).
func (f *Front) ClientAs(name string) *http.Client {
	return &http.Client{Transport: namedReader{name: name, f: f}}
}

type namedReader struct {
	name string
	f    *Front
}

func (n namedReader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(readerHeader, n.name)
	return n.f.RoundTrip(r)
}

// SetFaults sets the share of GetRecords and GetShardIterator calls that
// fail with LimitExceededException, and the age after which an iterator is
// expired (0: never). Both apply from the next request.
func (f *Front) SetFaults(throttle float64, iteratorTTL time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = frontFaults{throttle: throttle, iteratorTTL: iteratorTTL}
}

// Stats returns a copy of the counts so far.
func (f *Front) Stats() FrontStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := newFrontStats()
	for r, m := range f.stats.Calls {
		out.Calls[r] = cloneCounts(m)
	}
	for r, m := range f.stats.ShardCalls {
		out.ShardCalls[r] = cloneCounts(m)
	}
	out.Throttled = cloneCounts(f.stats.Throttled)
	out.RateLimited = cloneCounts(f.stats.RateLimited)
	out.Expired = cloneCounts(f.stats.Expired)
	out.Rollovers, out.Splits, out.Shards = f.stats.Rollovers, f.stats.Splits, f.stats.Shards
	out.Records, out.RealPulls = f.stats.Records, f.stats.RealPulls
	for _, s := range f.streams {
		out.OpenShards += len(s.open)
	}
	return out
}

func cloneCounts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Roll starts a new generation on every stream now (a rollover, or a split
// when the generation is a splitting one), as if its time had come.
func (f *Front) Roll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.streams {
		f.roll(s)
	}
}

// fstream is one real stream and its synthetic lineage.
type fstream struct {
	arn      string
	desc     map[string]json.RawMessage // the real StreamDescription, less its shards
	status   string
	real     []*realShard
	log      []frec
	shards   []*fshard // in creation order
	byID     map[string]*fshard
	open     []*fshard // the current generation, by hash range
	gen      int
	genStart time.Time
	genCount int // records in the current generation
	lastPull time.Time
}

type realShard struct {
	id, after string // last real sequence number read
	iter      string
	closed    bool
}

type frec struct {
	raw  json.RawMessage
	seq  string
	hash uint64
}

type fshard struct {
	id, parent string
	lo, hi     uint64 // the key hashes it holds, inclusive
	recs       []int  // indexes into the stream's log
	startSeq   string
	endSeq     string // set once closed
	closed     bool
	// tokens and refilled are the shard's read allowance (a token bucket
	// of ShardReadsPerSecond, as AWS meters reads), shared by every reader.
	tokens   float64
	refilled time.Time
}

func (s *fshard) contains(h uint64) bool { return h >= s.lo && h <= s.hi }

// iterator is what a synthetic shard iterator encodes.
type iterator struct {
	Arn     string `json:"a"`
	Shard   string `json:"s"`
	Pos     int    `json:"p"` // records of the shard already passed
	Created int64  `json:"t"`
}

// RoundTrip answers the three stream reads from the synthetic lineage and
// forwards everything else.
func (f *Front) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	reader := req.Header.Get(readerHeader)
	if reader == "" {
		reader = DefaultReader
	}
	f.count(reader, op)
	switch op {
	case "DescribeStream", "GetShardIterator", "GetRecords":
	default:
		req.Header.Del(readerHeader)
		return f.base.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(body, &in); err != nil {
		return jsonError(req, 400, "SerializationException", err.Error()), nil
	}
	switch op {
	case "DescribeStream":
		return f.describeStream(req, in)
	case "GetShardIterator":
		return f.getShardIterator(req, reader, in)
	default:
		return f.getRecords(req, reader, in)
	}
}

func (f *Front) count(reader, op string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stats.Calls[reader] == nil {
		f.stats.Calls[reader] = map[string]int{}
	}
	f.stats.Calls[reader][op]++
}

func str(in map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(in[k], &s)
	return s
}
