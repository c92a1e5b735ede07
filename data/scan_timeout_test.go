package data

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// stallAfter lets the first `pass` requests of op through to the real
// server and holds the later ones until their context ends: a server that
// accepted the request and never answers.
type stallAfter struct {
	op   string
	pass int

	mu   sync.Mutex
	seen int
}

func (s *stallAfter) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), "."+s.op) {
		s.mu.Lock()
		s.seen++
		hold := s.seen > s.pass
		s.mu.Unlock()
		if hold {
			<-req.Context().Done()
			return nil, req.Context().Err()
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

func bigSessions(db *testDB) {
	// ~3 MB of sessions: a Scan page stops at 1 MB, so this takes several.
	var items []Item
	for i := 0; i < 100; i++ {
		it := sessionItem(fmt.Sprintf("sess_%03d", i), "p", "RUNNING", baseTime, 1_800_000_000)
		it["userMetadata"] = mapv(Item{"pad": str(strings.Repeat("x", 30_000))})
		items = append(items, it)
	}
	db.put(TableSessions, items...)
}

// A Scan page that never answers ends the scan at its own deadline, as a
// timeout (not a cancellation), and keeps what the earlier pages read.
func TestScanPageHasADeadline(t *testing.T) {
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: &stallAfter{op: "Scan", pass: 1}}})
	bigSessions(db)
	var last ScanProgress
	// The deadline only has to end the held call; it is generous so that
	// the first, real page (1 MB from DynamoDB Local on a loaded machine)
	// never meets it (3 s was met at a load average of 28).
	got, err := db.store.ScanTable(context.Background(), TableSessions, ScanOptions{Segments: 1, CallTimeout: 10 * time.Second},
		func(p ScanProgress) { last = p })
	if !IsTimeout(err) || IsCancelled(err) {
		t.Fatalf("err = %v (timeout %v, cancelled %v)", err, IsTimeout(err), IsCancelled(err))
	}
	if d := Describe(err); !strings.HasPrefix(d, "Scan timed out: no answer from DynamoDB within 10s on "+db.tables.Name(TableSessions)) {
		t.Errorf("Describe = %q", d)
	}
	if len(got) == 0 || len(got) >= 100 || int64(len(got)) != last.Items {
		t.Fatalf("kept %d items (progress said %d); want the first page's", len(got), last.Items)
	}

	// The operator's cancel is still a cancel, not a timeout.
	ctx, cancel := context.WithCancel(context.Background())
	db2 := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: &stallAfter{op: "Scan", pass: 1}}})
	bigSessions(db2)
	_, err = db2.store.ScanTable(ctx, TableSessions, ScanOptions{CallTimeout: time.Minute}, func(ScanProgress) { cancel() })
	if !IsCancelled(err) || IsTimeout(err) {
		t.Errorf("cancelled scan: %v", err)
	}
}

// The scan's own DescribeTable has the same deadline.
func TestScanDescribeTableHasADeadline(t *testing.T) {
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: &stallAfter{op: "DescribeTable"}}})
	_, err := db.store.ScanTable(context.Background(), TableSessions, ScanOptions{CallTimeout: 200 * time.Millisecond}, nil)
	if !IsTimeout(err) || !strings.HasPrefix(Describe(err), "DescribeTable timed out") {
		t.Fatalf("err = %v / %q", err, Describe(err))
	}
}
