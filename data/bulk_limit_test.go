package data

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// Counts and the explicit scan read many items the console does not keep.
// Every one of their pages must carry a Limit: without one, DynamoDB Local
// reads the whole partition or table for each page, and a count of a big
// project held its storage thread for seconds a page.
func TestCountAndScanPagesCarryALimit(t *testing.T) {
	var (
		mu     sync.Mutex
		limits = map[string][]int{} // operation → Limit of each request (0: none)
	)
	f := &faultTransport{record: func(op string, body []byte) {
		if op != "Query" && op != "Scan" {
			return
		}
		var in struct{ Limit int }
		if err := json.Unmarshal(body, &in); err != nil {
			t.Errorf("%s body: %v", op, err)
		}
		mu.Lock()
		limits[op] = append(limits[op], in.Limit)
		mu.Unlock()
	}}
	db := faultyDB(t, f)
	const n = BulkPageItems + BulkPageItems/5
	items := make([]Item, n)
	for i := range items {
		items[i] = sessionItem(fmt.Sprintf("sess_%05d", i), "p", "RUNNING", baseTime, 1_800_000_000)
	}
	db.put(TableSessions, items...)

	c, err := db.store.Count(context.Background(), SessionsRunningInProject("p"), 0)
	if err != nil {
		t.Fatal(Describe(err))
	}
	if c.N != n || c.Partial {
		t.Errorf("count = %d (partial %v), want %d", c.N, c.Partial, n)
	}
	got, err := db.store.ScanTable(context.Background(), TableSessions, ScanOptions{Segments: 1}, func(ScanProgress) {})
	if err != nil {
		t.Fatal(Describe(err))
	}
	if len(got) != n {
		t.Errorf("scan read %d items, want %d", len(got), n)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, op := range []string{"Query", "Scan"} {
		if len(limits[op]) < 2 {
			t.Errorf("%s: %d pages, want the %d items over at least 2", op, len(limits[op]), n)
		}
		for i, l := range limits[op] {
			if l <= 0 || l > BulkPageItems {
				t.Errorf("%s page %d: Limit %d, want 1..%d", op, i+1, l, BulkPageItems)
			}
		}
	}
}
