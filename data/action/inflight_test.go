package action

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// holding passes every request to the server but holds each UpdateItem
// until release is closed, saying on arrived when one is held.
type holding struct {
	base    http.RoundTripper
	arrived chan struct{}
	release chan struct{}
	updates chan struct{} // one value per UpdateItem seen
}

func (h *holding) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".UpdateItem") {
		h.updates <- struct{}{}
		h.arrived <- struct{}{}
		<-h.release
	}
	return h.base.RoundTrip(req)
}

// A write given up at quit is on record as such, with its attempt token;
// nothing is sent after; the write, if it comes back before the process
// ends, still writes its own line.
func TestAbandonedWriteIsOnRecordWithItsAttempt(t *testing.T) {
	w := newWorld(t, data.TableEvents)
	h := &holding{base: http.DefaultTransport, arrived: make(chan struct{}, 1), release: make(chan struct{}), updates: make(chan struct{}, 10)}
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: h}})
	if err != nil {
		t.Fatal(err)
	}
	audit := openTestAudit(t)
	flights := &Flights{}
	exec := &Executor{Conn: conn, Tables: w.tables, Audit: audit, Env: "dev", Now: func() time.Time { return w.now }, Flights: flights}
	w.put(data.TableEvents, failedEvent("ev-quit", 1))
	w.put(data.TableEvents, failedEvent("ev-after", 1))
	p := w.plan(MarkEventDelivered, eventKey("ev-quit"), Options{})
	results := make(chan Result, 1)
	go func() { results <- exec.Execute(w.ctx, p) }()
	<-h.arrived
	if n := flights.Len(); n != 1 {
		t.Fatalf("%d writes in flight, want 1", n)
	}
	msgs, err := flights.Abandon()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("Abandon: %q %v", msgs, err)
	}
	entries, _ := ReadAudit(audit.Path(), 0)
	if len(entries) != 1 {
		t.Fatalf("%d audit lines after Abandon, want 1", len(entries))
	}
	attempt, _ := entries[0].Values[":attempt"].(string)
	want := "Mark event delivered ev-quit: outcome unknown, abandoned at quit (attempt " + attempt + "); check the row"
	if len(attempt) != 32 || entries[0].Result != "unknown: "+want || entries[0].Message != want || msgs[0] != want {
		t.Errorf("the abandoned write's line: %q %q (messages %q)", entries[0].Result, entries[0].Message, msgs)
	}

	// Nothing more is sent.
	r := exec.Execute(w.ctx, w.plan(MarkEventDelivered, eventKey("ev-after"), Options{}))
	if r.OK || r.Unknown || !strings.HasSuffix(r.Message, "the console is quitting: not sent") || len(h.updates) != 1 {
		t.Errorf("after Abandon: %q, %d UpdateItem sent", r.Message, len(h.updates))
	}

	// The held write lands after all: its own line follows, same token.
	close(h.release)
	got := <-results
	if !got.OK || got.Attempt != attempt {
		t.Fatalf("the held write: %q (attempt %s, abandoned %s)", got.Message, got.Attempt, attempt)
	}
	entries, _ = ReadAudit(audit.Path(), 0)
	if len(entries) != 3 || entries[2].Result != "ok" || entries[2].Values[":attempt"] != attempt {
		t.Errorf("audit after the write came back: %+v", entries)
	}
	if flights.Len() != 0 {
		t.Errorf("%d writes still in flight", flights.Len())
	}
}
