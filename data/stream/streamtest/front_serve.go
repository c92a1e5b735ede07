// The Front's answers to the three stream reads the client sends
// (DescribeStream, GetShardIterator, GetRecords) from the synthetic lineage,
// and the HTTP responses they are written as. Split from front.go: the
// RoundTripper there only routes; what each operation answers is here.

package streamtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"
)

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
