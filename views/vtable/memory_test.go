package vtable

import (
	"runtime"
	"testing"

	"opsdeck/themes"
)

// TestMemoryPer100kRows keeps the table's own overhead in check: the budget
// is 150 MB RSS for the whole program with 100k rows loaded.
func TestMemoryPer100kRows(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100k rows")
	}
	th := themes.Dark()
	rows := benchRows(100_000, th)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := New(benchColumns(), th)
	m.SetSize(120, 40)
	m.SetRows(rows)
	m.SetFilter("proj") // builds the filter haystacks too
	m.SortBy(2, false)
	runtime.GC()
	runtime.ReadMemStats(&after)
	overhead := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("table overhead for 100k rows: %.1f MB", float64(overhead)/1e6)
	if overhead > 40e6 {
		t.Fatalf("table overhead %.1f MB for 100k rows", float64(overhead)/1e6)
	}
	runtime.KeepAlive(m)
	runtime.KeepAlive(rows)
}
