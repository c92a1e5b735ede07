// What the Front reads from the real DynamoDB Local: pulling new records
// into the log, the real shards' iterators, and DescribeStream. Split from
// front.go at the boundary between the real server and the synthetic shards
// (front_lineage.go) and the answers to the client (front_serve.go).

package streamtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

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
