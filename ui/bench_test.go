package ui

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// benchModel is the console at 120×40 with n RUNNING sessions in the
// Sessions pane, fed through the live-tail hook, Apply (no database involved: the
// benchmarks measure the UI, not DynamoDB Local).
func benchModel(b *testing.B, rows int) Model {
	b.Helper()
	m := New(Options{Now: func() time.Time { return fixedNow }})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = nm.(Model)
	changes := make([]views.Change, rows)
	for i := range changes {
		id := fmt.Sprintf("sess_%08d", i)
		it := data.Item{
			"sessionId": s(id), "status": s("RUNNING"), "internalStatus": s("READY"),
			"projectId": s("proj_" + strconv.Itoa(i%50)),
			"createdAt": s(fixedNow.Add(-time.Duration(i) * time.Second).Format(time.RFC3339)),
			"expiresAt": n(strconv.FormatInt(fixedNow.Add(time.Hour).Unix()+int64(i), 10)),
			"region":    s("us-east-1"),
		}
		changes[i] = views.Change{Table: data.TableSessions, Event: "INSERT", New: it}
	}
	// Straight to the list pane: a live-tail batch would also fill the
	// Stream pane's buffer, which is not what these benchmarks measure.
	m.slotOf(views.PaneSessions).apply.Apply(changes)
	if got := m.slotOf(views.PaneSessions).Status().Rows; got != rows {
		b.Fatalf("loaded %d rows, want %d", got, rows)
	}
	return m
}

var benchSizes = []int{1_000, 10_000, 100_000}

// BenchmarkFrame renders a whole frame (tab bar, title, table, status bar,
// footer) with the cursor in the middle of n rows.
func BenchmarkFrame(b *testing.B) {
	for _, size := range benchSizes {
		b.Run("rows="+strconv.Itoa(size), func(b *testing.B) {
			m := benchModel(b, size)
			for range size / 2 {
				m.slotOf(views.PaneSessions).Update(keyMsg("j"))
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			for b.Loop() {
				_ = m.Render()
			}
			// The heap holding the rows, records and raw items (reported
			// after the loop: the timer reset would drop it).
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heapMB")
		})
	}
}

// BenchmarkCursorMove is one j key through the root model and a redraw,
// what the operator feels when holding j.
func BenchmarkCursorMove(b *testing.B) {
	for _, size := range benchSizes {
		b.Run("rows="+strconv.Itoa(size), func(b *testing.B) {
			m := benchModel(b, size)
			down, top := keyMsg("j"), keyMsg("g")
			i := 0
			b.ResetTimer()
			for b.Loop() {
				k := down
				if i++; i%size == 0 {
					k = top
				}
				nm, _ := m.Update(k)
				m = nm.(Model)
				_ = m.Render()
			}
		})
	}
}
