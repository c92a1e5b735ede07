package ui

import (
	"fmt"
	"maps"
	"strconv"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// BenchmarkRootApply measures records applied per second with the whole UI
// attached: each iteration is one feed batch through the ROOT model's
// Update — the Stream pane appends every record, the Sessions pane (10k
// rows) changes rows in place, the other panes look and pass — followed by
// one frame, as the program draws once per batch. The feed sends at most 30
// batches a second, so the batch size is the burst rate / 30. Target:
// ≥ 2,000 records/s.
func BenchmarkRootApply(b *testing.B) {
	const rows = 10_000
	for _, size := range []int{10, 100, 1000} {
		b.Run("batch="+strconv.Itoa(size), func(b *testing.B) {
			m := benchModel(b, rows)
			m.setActive(views.PaneSessions)
			// A pool of MODIFY records over the loaded sessions, cycling
			// internal status so every record really changes a cell.
			states := []string{"READY", "ACTIVE", "TERMINATING"}
			pool := make([]stream.Record, 3000)
			for i := range pool {
				id := fmt.Sprintf("sess_%08d", (i*7919)%rows)
				it := data.Item{
					"sessionId": s(id), "status": s("RUNNING"), "internalStatus": s(states[i%3]),
					"projectId": s("proj_" + strconv.Itoa(i%50)),
					"createdAt": s(fixedNow.Add(-time.Duration(i) * time.Second).Format(time.RFC3339)),
					"expiresAt": n(strconv.FormatInt(fixedNow.Add(time.Hour).Unix(), 10)),
					"region":    s("us-east-1"),
				}
				old := maps.Clone(it)
				old["internalStatus"] = s(states[(i+2)%3])
				pool[i] = stream.Record{Table: data.TableSessions, EventName: "MODIFY",
					Keys: data.Item{"sessionId": s(id)}, Old: old, New: it, ApproxTime: fixedNow}
			}
			next := 0
			batchOf := func() []stream.Record {
				out := make([]stream.Record, size)
				for i := range out {
					out[i] = pool[next%len(pool)]
					next++
				}
				return out
			}
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				recs := batchOf()
				b.StartTimer()
				nm, _ := m.Update(livefeed.BatchMsg{Records: recs})
				m = nm.(Model)
				_ = m.Render()
			}
			b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "records/s")
			if got := m.slotOf(views.PaneSessions).Status().Rows; got != rows {
				b.Fatalf("rows = %d after the updates, want %d (updates must be in place)", got, rows)
			}
		})
	}
}
