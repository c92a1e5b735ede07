package demo

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// unprocessedInjector sits in front of the real server and makes
// BatchWriteItem behave as under throttling: of each request it forwards
// only the first half of the items and reports the rest as UnprocessedItems
// (or, with swallowAll, forwards nothing and reports everything).
type unprocessedInjector struct {
	mu         sync.Mutex
	next       http.RoundTripper
	swallowAll bool
	calls      int // BatchWriteItem calls seen
	withheld   int // items reported back as unprocessed
}

func (u *unprocessedInjector) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".BatchWriteItem") {
		return u.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	var in struct {
		RequestItems map[string][]json.RawMessage
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, err
	}
	forward := map[string][]json.RawMessage{}
	withheld := map[string][]json.RawMessage{}
	n := 0
	for table, reqs := range in.RequestItems {
		keep := (len(reqs) + 1) / 2
		if u.swallowAll {
			keep = 0
		}
		if keep > 0 {
			forward[table] = reqs[:keep]
		}
		if rest := reqs[keep:]; len(rest) > 0 {
			withheld[table] = rest
			n += len(rest)
		}
	}
	u.mu.Lock()
	u.calls++
	u.withheld += n
	u.mu.Unlock()

	out := map[string]any{}
	if len(forward) > 0 {
		fwd, _ := json.Marshal(map[string]any{"RequestItems": forward})
		r2 := req.Clone(req.Context())
		r2.Body = io.NopCloser(bytes.NewReader(fwd))
		r2.ContentLength = int64(len(fwd))
		resp, err := u.next.RoundTrip(r2)
		if err != nil {
			return nil, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			resp.Body = io.NopCloser(bytes.NewReader(b))
			return resp, nil
		}
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, err
		}
	}
	unprocessed, _ := out["UnprocessedItems"].(map[string]any)
	if unprocessed == nil {
		unprocessed = map[string]any{}
	}
	for table, reqs := range withheld {
		unprocessed[table] = reqs
	}
	out["UnprocessedItems"] = unprocessed
	b, _ := json.Marshal(out)
	return &http.Response{
		StatusCode:    http.StatusOK,
		Status:        "200 OK",
		Header:        http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:          io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)),
		Request:       req,
	}, nil
}

func fastBatchRetry(t *testing.T, attempts int) {
	// The SDK refuses a plain *http.Client when AWS_CA_BUNDLE is set (it
	// cannot add the bundle to it); the test talks to loopback only.
	t.Setenv("AWS_CA_BUNDLE", "")
	old := batchRetry
	batchRetry = retryPolicy{base: time.Millisecond, max: 4 * time.Millisecond, attempts: attempts}
	t.Cleanup(func() { batchRetry = old })
}

func TestSeedResendsUnprocessedItemsUntilAllAreWritten(t *testing.T) {
	fastBatchRetry(t, 12)
	ctx, plain, tables := testEnv(t)
	if err := CreateTables(ctx, plain, tables, CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	inj := &unprocessedInjector{next: http.DefaultTransport}
	conn, err := data.Connect(ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: inj}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Seed(ctx, conn, tables, SeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if inj.withheld == 0 {
		t.Fatal("the injector withheld nothing; the test proves nothing")
	}
	for _, s := range data.Schemas() {
		if got, want := len(scanAll(t, ctx, plain, tables.Name(s.ID))), rep.Counts[s.ID]; got != want {
			t.Errorf("%s: %d rows written, want %d (%d items were reported unprocessed along the way)", s.ID, got, want, inj.withheld)
		}
	}
}

func TestSeedReportsItemsThatStayUnprocessed(t *testing.T) {
	fastBatchRetry(t, 3)
	ctx, plain, tables := testEnv(t)
	if err := CreateTables(ctx, plain, tables, CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	inj := &unprocessedInjector{next: http.DefaultTransport, swallowAll: true}
	conn, err := data.Connect(ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: inj}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Seed(ctx, conn, tables, SeedOptions{})
	if err == nil || !strings.Contains(err.Error(), "unprocessed") {
		t.Fatalf("err %v, want one saying items stayed unprocessed", err)
	}
	if inj.calls != 3 {
		t.Errorf("%d BatchWriteItem calls, want 3 attempts", inj.calls)
	}
}
