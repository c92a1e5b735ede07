package streamtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// Deny sits in front of the real server and answers AccessDeniedException,
// shaped as AWS sends it to a role without the permission, to chosen
// stream reads of one table, and forwards everything else: the other
// tables' streams and every table read. Which table a request is about:
// DescribeStream and GetShardIterator by the StreamArn they carry,
// DescribeTable and ListStreams by TableName, GetRecords by its iterator —
// one the server handed out (GetShardIterator, or GetRecords' next) for
// that table's stream.
type Deny struct {
	base  http.RoundTripper
	table string
	ops   map[string]bool
	armed atomic.Bool

	mu     sync.Mutex
	iters  map[string]bool // iterators of the table's stream
	denied map[string]int
}

// NewDeny denies ops ("GetRecords", "GetShardIterator", "DescribeStream",
// "DescribeTable", "ListStreams") on the physical table table; armed.
func NewDeny(table string, ops ...string) *Deny {
	d := &Deny{base: http.DefaultTransport.(*http.Transport).Clone(), table: table,
		ops: map[string]bool{}, iters: map[string]bool{}, denied: map[string]int{}}
	for _, op := range ops {
		d.ops[op] = true
	}
	d.armed.Store(true)
	return d
}

// Client is an *http.Client over d, for data.ConnOptions.HTTPClient.
func (d *Deny) Client() *http.Client { return &http.Client{Transport: d} }

// Arm starts (true) or stops (false) denying: the policy fixed.
func (d *Deny) Arm(on bool) { d.armed.Store(on) }

// Denied is how many requests of op were answered AccessDeniedException.
func (d *Deny) Denied(op string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.denied[op]
}

type streamRequest struct {
	StreamArn, ShardIterator, TableName string
}

func (d *Deny) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	var in streamRequest
	_ = json.Unmarshal(body, &in)
	stream := "table/" + d.table + "/stream/"
	d.mu.Lock()
	mine := false
	switch op {
	case "DescribeStream", "GetShardIterator":
		mine = strings.Contains(in.StreamArn, stream)
	case "GetRecords":
		mine = d.iters[in.ShardIterator]
	case "DescribeTable", "ListStreams":
		mine = in.TableName == d.table
	}
	deny := mine && d.ops[op] && d.armed.Load()
	if deny {
		d.denied[op]++
	}
	d.mu.Unlock()
	if deny {
		resource := in.StreamArn
		if resource == "" {
			resource = "arn:aws:dynamodb:us-east-1:123456789012:table/" + d.table
		}
		service := "dynamodbstreams"
		if op == "DescribeTable" {
			service = "dynamodb"
		}
		msg := fmt.Sprintf("User: arn:aws:sts::123456789012:assumed-role/oncall/alice is not authorized to perform: %s:%s on resource: %s because no identity-based policy allows the %s:%s action",
			service, op, resource, service, op)
		return denyResponse(req, msg), nil
	}
	resp, err := d.base.RoundTrip(req)
	if err != nil || !mine || (op != "GetShardIterator" && op != "GetRecords") {
		return resp, err
	}
	// Keep the iterators the server hands out for the table's stream.
	out, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	var it struct{ ShardIterator, NextShardIterator string }
	if json.Unmarshal(out, &it) == nil {
		d.mu.Lock()
		for _, s := range []string{it.ShardIterator, it.NextShardIterator} {
			if s != "" {
				d.iters[s] = true
			}
		}
		d.mu.Unlock()
	}
	return resp, nil
}

func denyResponse(req *http.Request, msg string) *http.Response {
	typ := "com.amazonaws.dynamodb.v20120810#AccessDeniedException"
	body := fmt.Sprintf(`{"__type":%q,"message":%q}`, typ, msg)
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-ErrorType", "AccessDeniedException")
	h.Set("X-Amzn-RequestId", "INJECTED0000000000000000000000000000000000000000000000")
	return &http.Response{
		Status: "400 Bad Request", StatusCode: 400, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewBufferString(body)), ContentLength: int64(len(body)),
		Request: req,
	}
}
