package views

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// procStatusMB reads a "VmRSS:  123456 kB" style line of /proc/self/status
// in MB; 0 where /proc is missing (not Linux).
func procStatusMB(field string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// resetPeakRSS starts VmHWM over from the current RSS (Linux: writing 5 to
// clear_refs), so the peak measured is the load's, not the generator's.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// BenchmarkRows100kMemory loads 100k sessions built as the demo seeds them
// (about 25 attributes each, event histories and secrets included) into
// the Sessions pane the way Query answers arrive — pages of decoded
// records through Update, first fresh then appended — renders a frame, and
// reports the heap in use, the process RSS and its peak during the load.
// The budget is a peak RSS of 150 MB with 100k rows.
//
//	go test ./views/ -run '^$' -bench Rows100kMemory -benchtime 1x
//
// It runs under the same soft memory limit as the console (SoftMemoryLimit,
// which main sets) unless GOMEMLIMIT is given; GOMEMLIMIT=off shows the
// default GC pacing.
//
// Measured (2 cores): raw items as SDK values, 1098 MB heap and 1441 MB
// peak RSS; kept compressed a page per block (itemstore.go), 108 MB heap,
// 227 MB peak RSS with the default GC pacing (the heap may grow to twice
// the live set between collections) and 137 MB peak RSS under a 120 MiB
// soft memory limit, which is how the program should run.
func BenchmarkRows100kMemory(b *testing.B) {
	const rows, page = 100_000, 100
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(SoftMemoryLimit))
	}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		debug.FreeOSMemory()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		resetPeakRSS()
		b.StartTimer()

		c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
		p := NewSessions(c, "", data.SessionRunning)
		p.SetSize(120, 38)
		p.Init()
		l := p.active()
		// Items are generated as pages arrive, so what stays in memory is
		// what the pane keeps, as in the console.
		recs := make([]data.Record, 0, page)
		sent := 0
		flush := func() {
			var next data.Cursor
			if sent+len(recs) < rows {
				next = data.Cursor{"sessionId": &types.AttributeValueMemberS{Value: "x"}}
			}
			p.Update(pageMsg{pane: PaneSessions, req: l.ld.req, fresh: sent == 0, res: fetched{recs: recs, next: next}})
			sent += len(recs)
			recs = make([]data.Record, 0, page) // the pane may hold the old slice
		}
		for it := range demo.SampleSessions(rows, now) {
			// What the page's Cmd does: decode the Query's items.
			recs = append(recs, data.DecodeSession(it))
			if len(recs) == page {
				flush()
			}
		}
		if len(recs) > 0 {
			flush()
		}
		_ = p.View()

		b.StopTimer()
		if got := l.table.Len(); got != rows {
			b.Fatalf("loaded %d rows", got)
		}
		runtime.GC()
		debug.FreeOSMemory()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		// heapMB counts everything the pane keeps (rows and the raw items
		// the detail view shows); paneMB is the growth over the empty start.
		b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heapMB")
		b.ReportMetric((float64(after.HeapInuse)-float64(before.HeapInuse))/(1<<20), "paneMB")
		b.ReportMetric(procStatusMB("VmRSS"), "rssMB")
		b.ReportMetric(procStatusMB("VmHWM"), "peakRssMB")
		runtime.KeepAlive(p)
		b.StartTimer()
	}
}
