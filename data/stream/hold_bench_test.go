package stream

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// BenchmarkHoldThenIdle: what the fast pace held after a record costs. A
// table of N shards gets writes 0.2–1.2 s apart at random (seeded, keys
// spread over its shards) for 20 s, then none. Reported, in GetRecords a
// second for the whole table: during the writes (burst-calls/s), in the
// 3 s hold after the last write (hold-calls/s), from then until 15 s after
// it while backing off (backoff-calls/s), and over the 30 s after that
// (idle-calls/s: the idle budget, ≤ 2 whatever N).
func BenchmarkHoldThenIdle(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("shards=%d", n), func(b *testing.B) { holdThenIdle(b, n) })
	}
}

func holdThenIdle(b *testing.B, n int) {
	r := newFrontRig(b, streamtest.FrontOptions{InitialShards: n, Seed: uint64(n)}, Options{}, data.TableSessions)
	name := aws.String(r.tables.Name(data.TableSessions))
	rng := rand.New(rand.NewPCG(23, uint64(n)))
	ctx := context.Background()
	calls := func() int { return r.getRecords(streamtest.DefaultReader) }
	// Let the table settle idle first, so the burst starts from the idle pace.
	time.Sleep(20 * time.Second)
	b.ResetTimer()
	start, c0 := time.Now(), calls()
	var last time.Time // the last write
	for i := 0; time.Since(start) < 20*time.Second; i++ {
		_, err := r.write.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: data.Item{
			"sessionId": &ddb.AttributeValueMemberS{Value: fmt.Sprintf("hold-%d-%d", n, i)},
		}})
		if err != nil {
			b.Fatal(err)
		}
		last = time.Now()
		time.Sleep(200*time.Millisecond + time.Duration(rng.Int64N(int64(time.Second)+1)))
	}
	c1 := calls()
	burst := time.Since(start)
	phase := func(until time.Duration) (int, time.Duration) {
		from, c := time.Now(), calls()
		time.Sleep(time.Until(last.Add(until)))
		return calls() - c, time.Since(from)
	}
	hold, holdFor := phase(holdFast)
	back, backFor := phase(15 * time.Second)
	idle, idleFor := phase(45 * time.Second)
	b.StopTimer()
	b.ReportMetric(float64(c1-c0)/burst.Seconds(), "burst-calls/s")
	b.ReportMetric(float64(hold)/holdFor.Seconds(), "hold-calls/s")
	b.ReportMetric(float64(back)/backFor.Seconds(), "backoff-calls/s")
	b.ReportMetric(float64(idle)/idleFor.Seconds(), "idle-calls/s")
}
