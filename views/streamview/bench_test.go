package streamview

import (
	"fmt"
	"testing"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// benchRecord is a realistic sessions MODIFY: a full item (two dozen
// attributes, a nested map, a list) in both images, a few of them changed.
func benchRecord(i int) stream.Record {
	id := fmt.Sprintf("sess-%08d", i)
	base := func(status, updated string) data.Item {
		return img("sessionId", id, "status", status, "internalStatus", status, "projectId", fmt.Sprintf("proj-%d", i%50),
			"createdAt", "2026-11-21T12:00:00Z", "updatedAt", updated, "startedAt", "2026-11-21T12:00:01Z",
			"expiresAt", avN("1763730000"), "region", "us-east-1", "publicIP", "203.0.113.7",
			"ecsTaskArn", "arn:aws:ecs:us-east-1:123456789012:task/cluster/0123456789abcdef",
			"connectUrl", "wss://connect.example.com/session?token=secret", "signingKey", "k-secret",
			"proxyBytes", avN(fmt.Sprint(i*7)), "avgCpuUsage", avN("12.5"), "memoryUsage", avN("512"),
			"retryCount", avN("0"), "lastEventTimestamp", updated,
			"userMetadata", avM("team", "red", "ticket", "OPS-1234"),
			"eventHistory", avL(avM("type", "created", "at", "2026-11-21T12:00:00Z"), avM("type", "started", "at", "2026-11-21T12:00:01Z")))
	}
	return session("MODIFY", id, base("RUNNING", "2026-11-21T12:00:01Z"), base("COMPLETED", "2026-11-21T12:04:10Z"), i)
}

// BenchmarkAppend measures records applied into the pane with one frame
// rendered per batch. A batch is 67 records — 2,000 records/s at 30 frames/s
// — so this renders far more often than the real program would (one frame per
// 67 records, whatever the speed) and the records/s it reports is a lower
// bound on what the pane sustains at 30 fps. Target: ≥ 2,000 records/s.
func BenchmarkAppend(b *testing.B) {
	const batch = 67
	recs := make([]stream.Record, 4096)
	for i := range recs {
		recs[i] = benchRecord(i)
	}
	m := newModel(0)
	m.SetSize(120, 40)
	b.ReportAllocs()
	b.ResetTimer()
	applied := 0
	for applied < b.N {
		n := min(batch, b.N-applied)
		start := applied % (len(recs) - batch)
		m.Append(recs[start : start+n])
		_ = m.View()
		applied += n
	}
	b.StopTimer()
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(applied)/s, "records/s")
	}
}

// BenchmarkRender measures one frame (and one cursor move plus frame) with
// the buffer holding 1k or 10k records: both must cost the same, because a
// frame draws only the visible window from cached cell text.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		m := newModel(n)
		m.SetSize(120, 40)
		recs := make([]stream.Record, n)
		for i := range recs {
			recs[i] = benchRecord(i)
		}
		m.Append(recs)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = m.View()
			}
		})
		b.Run(fmt.Sprintf("%dk/move", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			up, down := keyMsg("k"), keyMsg("j")
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					m.Update(up)
				} else {
					m.Update(down)
				}
				_ = m.View()
			}
		})
	}
}
