package livefeed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/views/streamview"
)

// BenchmarkFeedToPane measures records per second from a reader goroutine
// through the Feed into the Stream pane, one frame drawn per batch — the
// path the live tail takes in the program, minus the terminal. The ticker is
// driven as fast as the consumer takes batches, so this is the pipeline's
// capacity; at 30 batches a second the UI needs only ≥ 67 records a batch
// for 2,000 records/s.
func BenchmarkFeedToPane(b *testing.B) {
	const chunk = 100
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	recs := make([]stream.Record, 1000)
	for i := range recs {
		id := fmt.Sprintf("sess-%06d", i)
		recs[i] = stream.Record{
			Table: data.TableSessions, EventName: "MODIFY", ApproxTime: time.Unix(1763726400, 0),
			Keys: data.Item{"sessionId": s(id)},
			Old:  data.Item{"sessionId": s(id), "status": s("RUNNING"), "updatedAt": s("2026-11-21T12:00:00Z"), "projectId": s("p-1")},
			New:  data.Item{"sessionId": s(id), "status": s("COMPLETED"), "updatedAt": s("2026-11-21T12:04:00Z"), "projectId": s("p-1")},
		}
	}
	ticks := make(chan time.Time, 1)
	feed := livefeed.New(context.Background(), livefeed.Options{Ticks: ticks, MaxBacklog: 1 << 30})
	defer feed.Close()
	pane := streamview.New(streamview.Options{Theme: themes.Dark(), Keys: keymap.Default(), Location: time.UTC})
	pane.SetSize(120, 40)

	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		for sent := 0; sent < b.N; sent += chunk {
			n := min(chunk, b.N-sent)
			start := sent % (len(recs) - chunk)
			feed.Records(recs[start : start+n])
		}
	}()
	applied := 0
	for applied < b.N {
		select {
		case ticks <- time.Time{}:
		default:
		}
		m := feed.Next()().(livefeed.BatchMsg)
		pane.Append(m.Records)
		_ = pane.View()
		applied += len(m.Records)
	}
	b.StopTimer()
	b.ReportMetric(float64(applied)/b.Elapsed().Seconds(), "records/s")
}
