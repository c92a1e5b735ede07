// Over 400 lines on purpose: test support — one fake Streams front (synthetic
// shards that roll over and split) over DynamoDB Local's real records.

package streamtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
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

// stream returns the lineage of the stream arn, creating it from the real
// server's description the first time. Called with f.mu held; it releases
// it around the real call.
func (f *Front) stream(ctx context.Context, arn string) (*fstream, *http.Response, error) {
	if s := f.streams[arn]; s != nil {
		return s, nil, nil
	}
	f.mu.Unlock()
	desc, shards, resp, err := f.realDescribe(ctx, arn)
	f.mu.Lock()
	if err != nil || resp != nil {
		return nil, resp, err
	}
	if s := f.streams[arn]; s != nil {
		return s, nil, nil
	}
	s := &fstream{arn: arn, desc: desc, byID: map[string]*fshard{}, genStart: time.Now()}
	_ = json.Unmarshal(desc["StreamStatus"], &s.status)
	for _, id := range shards {
		s.real = append(s.real, &realShard{id: id})
	}
	n := f.opts.InitialShards
	for i := 0; i < n; i++ {
		lo, hi := splitRange(0, math.MaxUint64, n, i)
		f.newShard(s, "", lo, hi, "1")
	}
	f.streams[arn] = s
	return s, nil, nil
}

// splitRange is part i of n of [lo, hi].
func splitRange(lo, hi uint64, n, i int) (uint64, uint64) {
	width := (hi - lo) / uint64(n)
	a := lo + uint64(i)*width
	b := a + width - 1
	if i == n-1 {
		b = hi
	}
	return a, b
}

func (f *Front) newShard(s *fstream, parent string, lo, hi uint64, startSeq string) *fshard {
	f.idSeq++
	sh := &fshard{id: fmt.Sprintf("shardId-%020d-%08x", 1763726400000+int64(f.idSeq), fnv32(s.arn)), parent: parent, lo: lo, hi: hi, startSeq: startSeq}
	s.shards = append(s.shards, sh)
	s.byID[sh.id] = sh
	s.open = append(s.open, sh)
	sort.Slice(s.open, func(i, j int) bool { return s.open[i].lo < s.open[j].lo })
	f.stats.Shards++
	return sh
}

func fnv32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// roll closes every open shard of s and opens its successors: one child
// with the same keys, or Split children sharing them. Called with f.mu held.
func (f *Front) roll(s *fstream) {
	if s.status == "DISABLED" || s.status == "DISABLING" {
		return
	}
	s.gen++
	split := f.opts.Split >= 2 && f.opts.SplitEvery > 0 && s.gen%f.opts.SplitEvery == 0 &&
		len(s.open)*f.opts.Split <= f.opts.MaxOpenShards
	old := s.open
	s.open = nil
	next := nextSeq(s)
	for _, p := range old {
		f.close(s, p)
		if split {
			for i := 0; i < f.opts.Split; i++ {
				lo, hi := splitRange(p.lo, p.hi, f.opts.Split, i)
				f.newShard(s, p.id, lo, hi, next)
			}
		} else {
			f.newShard(s, p.id, p.lo, p.hi, next)
		}
	}
	if split {
		f.stats.Splits++
	} else {
		f.stats.Rollovers++
	}
	s.genStart, s.genCount = time.Now(), 0
}

func (f *Front) close(s *fstream, sh *fshard) {
	sh.closed = true
	sh.endSeq = sh.startSeq
	if n := len(sh.recs); n > 0 {
		sh.endSeq = s.log[sh.recs[n-1]].seq
	}
}

// nextSeq is a sequence number above every record so far.
func nextSeq(s *fstream) string {
	if len(s.log) == 0 {
		return "1"
	}
	return addOne(s.log[len(s.log)-1].seq)
}

// addOne adds 1 to a decimal string.
func addOne(d string) string {
	b := []byte(strings.TrimLeft(d, "0"))
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// seqLess compares decimal sequence numbers.
func seqLess(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// append adds real records to the log, assigning each to the open shard of
// its key and rolling generations as their record count is reached. Called
// with f.mu held.
func (f *Front) append(s *fstream, recs []frec) {
	for _, r := range recs {
		if f.opts.RecordsPerGen > 0 && s.genCount >= f.opts.RecordsPerGen {
			f.roll(s)
		}
		s.log = append(s.log, r)
		i := sort.Search(len(s.open), func(i int) bool { return s.open[i].hi >= r.hash })
		if i == len(s.open) { // cannot happen: the open shards cover every hash
			i = len(s.open) - 1
		}
		s.open[i].recs = append(s.open[i].recs, len(s.log)-1)
		s.genCount++
		f.stats.Records++
	}
}

// pull reads what is new on the real server into s (at most every 20 ms)
// and applies the time-based generation. Called with f.mu held; it releases
// it around the real calls.
func (f *Front) pull(ctx context.Context, s *fstream) error {
	if f.opts.GenEvery > 0 && time.Since(s.genStart) >= f.opts.GenEvery {
		f.roll(s)
	}
	if time.Since(s.lastPull) < 20*time.Millisecond {
		return nil
	}
	s.lastPull = time.Now()
	for _, rs := range s.real {
		if rs.closed {
			continue
		}
		for round := 0; round < 100; round++ {
			f.stats.RealPulls++
			rsCopy := *rs
			f.mu.Unlock()
			recs, next, closed, err := f.realRead(ctx, s.arn, &rsCopy)
			f.mu.Lock()
			if err != nil {
				return err
			}
			// Another pull may have moved on meanwhile: keep only what is new.
			fresh := recs[:0]
			for _, r := range recs {
				if rs.after == "" || seqLess(rs.after, r.seq) {
					fresh = append(fresh, r)
				}
			}
			if len(fresh) > 0 {
				rs.after = fresh[len(fresh)-1].seq
				f.append(s, fresh)
			}
			rs.iter = next
			if closed {
				rs.closed = true
				if !s.hasOpenReal() {
					// The real stream ended (disabled): so does the lineage.
					for _, sh := range s.open {
						f.close(s, sh)
					}
					s.open = nil
				}
				break
			}
			if len(recs) == 0 {
				break
			}
		}
	}
	return nil
}

func (s *fstream) hasOpenReal() bool {
	for _, rs := range s.real {
		if !rs.closed {
			return true
		}
	}
	return false
}

// realRead reads one batch of a real shard after rs.after (from its start
// when empty).
func (f *Front) realRead(ctx context.Context, arn string, rs *realShard) (recs []frec, next string, closed bool, err error) {
	if rs.iter == "" {
		in := map[string]any{"StreamArn": arn, "ShardId": rs.id, "ShardIteratorType": "TRIM_HORIZON"}
		if rs.after != "" {
			in["ShardIteratorType"], in["SequenceNumber"] = "AFTER_SEQUENCE_NUMBER", rs.after
		}
		var out struct{ ShardIterator string }
		if err := f.realCall(ctx, "GetShardIterator", in, &out); err != nil {
			return nil, "", false, err
		}
		if out.ShardIterator == "" {
			return nil, "", true, nil
		}
		rs.iter = out.ShardIterator
	}
	var out struct {
		Records           []json.RawMessage
		NextShardIterator *string
	}
	if err := f.realCall(ctx, "GetRecords", map[string]any{"ShardIterator": rs.iter, "Limit": 1000}, &out); err != nil {
		// A stale or odd iterator (DynamoDB Local's empty-shard quirk says
		// "trimmed"): read again after the last record next time.
		rs.iter = ""
		if _, ok := err.(*realError); ok {
			return nil, "", false, nil
		}
		return nil, "", false, err
	}
	for _, raw := range out.Records {
		var r struct {
			Dynamodb struct {
				SequenceNumber string
				Keys           map[string]json.RawMessage
			}
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, "", false, err
		}
		recs = append(recs, frec{raw: raw, seq: r.Dynamodb.SequenceNumber, hash: keyHash(r.Dynamodb.Keys)})
	}
	if out.NextShardIterator == nil || *out.NextShardIterator == "" {
		return recs, "", true, nil
	}
	return recs, *out.NextShardIterator, false, nil
}

// keyHash spreads keys over the hash space, as DynamoDB's partitioning does.
func keyHash(keys map[string]json.RawMessage) uint64 {
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	h := fnv.New64a()
	for _, k := range names {
		h.Write([]byte(k))
		h.Write(keys[k])
	}
	// fnv's high bits vary little for similar keys: mix them.
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// realError is an error answer of the real server.
type realError struct {
	status int
	body   []byte
}

func (e *realError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.body) }

// realCall makes one DynamoDB Streams call on the real server.
func (f *Front) realCall(ctx context.Context, op string, in any, out any) error {
	body, _ := json.Marshal(in)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.endpoint+"/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDBStreams_20120810."+op)
	sum := sha256.Sum256(body)
	creds := aws.Credentials{AccessKeyID: "front", SecretAccessKey: "front"}
	if err := f.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now()); err != nil {
		return err
	}
	resp, err := f.base.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return &realError{status: resp.StatusCode, body: data}
	}
	return json.Unmarshal(data, out)
}

// realDescribe reads the real stream's description (every page). A real
// error answer is returned as resp, to be passed on as it is.
func (f *Front) realDescribe(ctx context.Context, arn string) (desc map[string]json.RawMessage, shards []string, resp *http.Response, err error) {
	var start string
	for page := 0; page < 1000; page++ {
		in := map[string]any{"StreamArn": arn}
		if start != "" {
			in["ExclusiveStartShardId"] = start
		}
		var out struct {
			StreamDescription map[string]json.RawMessage
		}
		if err := f.realCall(ctx, "DescribeStream", in, &out); err != nil {
			if re, ok := err.(*realError); ok {
				return nil, nil, rawResponse(re.status, re.body), nil
			}
			return nil, nil, nil, err
		}
		d := out.StreamDescription
		var ss []struct{ ShardId string }
		_ = json.Unmarshal(d["Shards"], &ss)
		for _, s := range ss {
			shards = append(shards, s.ShardId)
		}
		var last string
		_ = json.Unmarshal(d["LastEvaluatedShardId"], &last)
		delete(d, "Shards")
		delete(d, "LastEvaluatedShardId")
		desc = d
		if last == "" || last == start {
			break
		}
		start = last
	}
	return desc, shards, nil, nil
}

// refreshStatus re-reads the real stream's status (a disabled stream closes
// the lineage). Called with f.mu held; it releases it around the call.
func (f *Front) refreshStatus(ctx context.Context, s *fstream) (*http.Response, error) {
	f.mu.Unlock()
	desc, _, resp, err := f.realDescribe(ctx, s.arn)
	f.mu.Lock()
	if err != nil || resp != nil {
		return resp, err
	}
	s.desc = desc
	_ = json.Unmarshal(desc["StreamStatus"], &s.status)
	return nil, nil
}

func (f *Front) describeStream(req *http.Request, in map[string]json.RawMessage) (*http.Response, error) {
	arn := str(in, "StreamArn")
	f.mu.Lock()
	defer f.mu.Unlock()
	s, resp, err := f.stream(req.Context(), arn)
	if err != nil || resp != nil {
		return resp, err
	}
	if resp, err := f.refreshStatus(req.Context(), s); err != nil || resp != nil {
		return resp, err
	}
	if err := f.pull(req.Context(), s); err != nil {
		return nil, err
	}
	list := s.shards
	var filter struct{ Type, ShardId string }
	if raw, ok := in["ShardFilter"]; ok {
		_ = json.Unmarshal(raw, &filter)
	}
	if filter.Type == "CHILD_SHARDS" {
		list = nil
		for _, sh := range s.shards {
			if sh.parent == filter.ShardId {
				list = append(list, sh)
			}
		}
	}
	if start := str(in, "ExclusiveStartShardId"); start != "" {
		for i, sh := range list {
			if sh.id == start {
				list = list[i+1:]
				break
			}
		}
	}
	limit := f.opts.PageSize
	var n int
	if err := json.Unmarshal(in["Limit"], &n); err == nil && n > 0 && n < limit {
		limit = n
	}
	more := len(list) > limit
	if more {
		list = list[:limit]
	}
	type seqRange struct {
		StartingSequenceNumber string
		EndingSequenceNumber   string `json:",omitempty"`
	}
	type shardJSON struct {
		ShardId             string
		ParentShardId       string `json:",omitempty"`
		SequenceNumberRange seqRange
	}
	shards := make([]shardJSON, len(list))
	for i, sh := range list {
		shards[i] = shardJSON{ShardId: sh.id, ParentShardId: sh.parent, SequenceNumberRange: seqRange{sh.startSeq, sh.endSeq}}
	}
	d := make(map[string]any, len(s.desc)+2)
	for k, v := range s.desc {
		d[k] = v
	}
	d["Shards"] = shards
	if more {
		d["LastEvaluatedShardId"] = list[len(list)-1].id
	}
	return jsonResponse(req, map[string]any{"StreamDescription": d}), nil
}

func (f *Front) getShardIterator(req *http.Request, reader string, in map[string]json.RawMessage) (*http.Response, error) {
	arn, id := str(in, "StreamArn"), str(in, "ShardId")
	f.mu.Lock()
	defer f.mu.Unlock()
	s, resp, err := f.stream(req.Context(), arn)
	if err != nil || resp != nil {
		return resp, err
	}
	sh := s.byID[id]
	if sh == nil {
		return jsonError(req, 400, "ResourceNotFoundException", "Requested resource not found: Shard does not exist"), nil
	}
	if f.faults.throttle > 0 && f.rng.Float64() < f.faults.throttle {
		f.stats.Throttled[reader]++
		return ErrorResponse(req, Limit), nil
	}
	it := iterator{Arn: arn, Shard: id, Created: time.Now().UnixNano()}
	seq := str(in, "SequenceNumber")
	switch typ := str(in, "ShardIteratorType"); typ {
	case "TRIM_HORIZON":
	case "LATEST":
		if !sh.closed {
			if err := f.pull(req.Context(), s); err != nil {
				return nil, err
			}
		}
		it.Pos = len(sh.recs)
	case "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER":
		if seq == "" {
			return jsonError(req, 400, "ValidationException", "SequenceNumber is required for "+typ), nil
		}
		if !sh.closed {
			if err := f.pull(req.Context(), s); err != nil {
				return nil, err
			}
		}
		it.Pos = sort.Search(len(sh.recs), func(i int) bool {
			rs := s.log[sh.recs[i]].seq
			if typ == "AT_SEQUENCE_NUMBER" {
				return !seqLess(rs, seq)
			}
			return seqLess(seq, rs)
		})
	default:
		return jsonError(req, 400, "ValidationException", "invalid ShardIteratorType "+typ), nil
	}
	return jsonResponse(req, map[string]any{"ShardIterator": encodeIter(it)}), nil
}

func encodeIter(it iterator) string {
	b, _ := json.Marshal(it)
	return "front|" + base64.RawURLEncoding.EncodeToString(b)
}

func decodeIter(s string) (iterator, bool) {
	var it iterator
	rest, ok := strings.CutPrefix(s, "front|")
	if !ok {
		return it, false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || json.Unmarshal(b, &it) != nil {
		return it, false
	}
	return it, true
}

// awsAnswerCap is AWS's cap on one GetRecords answer.
const awsAnswerCap = 1 << 20

func (f *Front) getRecords(req *http.Request, reader string, in map[string]json.RawMessage) (*http.Response, error) {
	it, ok := decodeIter(str(in, "ShardIterator"))
	if !ok {
		return jsonError(req, 400, "ValidationException", "Invalid ShardIterator"), nil
	}
	limit := 1000
	var n int
	if err := json.Unmarshal(in["Limit"], &n); err == nil && n > 0 && n < limit {
		limit = n
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, resp, err := f.stream(req.Context(), it.Arn)
	if err != nil || resp != nil {
		return resp, err
	}
	sh := s.byID[it.Shard]
	if sh == nil {
		return jsonError(req, 400, "ResourceNotFoundException", "Requested resource not found: Shard does not exist"), nil
	}
	if f.stats.ShardCalls[reader] == nil {
		f.stats.ShardCalls[reader] = map[string]int{}
	}
	f.stats.ShardCalls[reader][sh.id]++
	now := time.Now()
	if ttl := f.faults.iteratorTTL; ttl > 0 && now.Sub(time.Unix(0, it.Created)) > ttl {
		f.stats.Expired[reader]++
		return ErrorResponse(req, Expired), nil
	}
	if lim := f.opts.ShardReadsPerSecond; lim > 0 {
		if sh.refilled.IsZero() {
			sh.tokens = lim
		} else {
			sh.tokens = min(lim, sh.tokens+now.Sub(sh.refilled).Seconds()*lim)
		}
		sh.refilled = now
		if sh.tokens < 1 {
			f.stats.RateLimited[reader]++
			return ErrorResponse(req, Limit), nil
		}
		sh.tokens--
	}
	if f.faults.throttle > 0 && f.rng.Float64() < f.faults.throttle {
		f.stats.Throttled[reader]++
		return ErrorResponse(req, Limit), nil
	}
	if !sh.closed && it.Pos >= len(sh.recs) {
		if err := f.pull(req.Context(), s); err != nil {
			return nil, err
		}
	}
	var recs []json.RawMessage
	size := 0
	pos := it.Pos
	for pos < len(sh.recs) && len(recs) < limit {
		raw := s.log[sh.recs[pos]].raw
		if len(recs) > 0 && size+len(raw) > awsAnswerCap {
			break
		}
		recs = append(recs, raw)
		size += len(raw)
		pos++
	}
	out := map[string]any{"Records": recs}
	if recs == nil {
		out["Records"] = []json.RawMessage{}
	}
	if !sh.closed || pos < len(sh.recs) {
		out["NextShardIterator"] = encodeIter(iterator{Arn: it.Arn, Shard: it.Shard, Pos: pos, Created: now.UnixNano()})
	}
	return jsonResponse(req, out), nil
}

func jsonResponse(req *http.Request, v any) *http.Response {
	body, _ := json.Marshal(v)
	resp := rawResponse(200, body)
	resp.Request = req
	return resp
}

func rawResponse(status int, body []byte) *http.Response {
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-RequestId", "FRONT00000000000000000000000000000000000000000000000000")
	return &http.Response{
		Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
	}
}

func jsonError(req *http.Request, status int, code, msg string) *http.Response {
	typ := "com.amazonaws.dynamodb.v20120810#" + code
	body, _ := json.Marshal(map[string]string{"__type": typ, "message": msg})
	resp := rawResponse(status, body)
	resp.Header.Set("X-Amzn-ErrorType", code)
	resp.Request = req
	return resp
}
