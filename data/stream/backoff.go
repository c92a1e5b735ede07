package stream

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff is exponential backoff with full jitter: after n consecutive
// failures the wait is uniform in [base·2^(n-1)/2, base·2^(n-1)], capped.
// Jitter keeps many shard readers from hammering a recovering server in
// lock-step.
type backoff struct {
	base, max time.Duration
	n         int
}

func (b *backoff) next() time.Duration {
	b.n++
	d := b.base
	for i := 1; i < b.n && d < b.max; i++ {
		d *= 2
	}
	if d > b.max {
		d = b.max
	}
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

func (b *backoff) reset()        { b.n = 0 }
func (b *backoff) failures() int { return b.n }

// sleepCtx waits d, or until ctx ends (false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
