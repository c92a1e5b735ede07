package stream

// sizer picks GetRecords' Limit for one shard so that an answer fits what
// the reader allows (Options.MaxResponseBytes). DynamoDB caps an answer at
// 1 MB, but DynamoDB Local does not, and a shard of big items asked for
// 1,000 records can answer with hundreds of MB that never arrive within
// the call timeout. So the limit shrinks after an answer that was too
// large or too slow, follows the size of the records seen, and grows back
// while answers are small.
type sizer struct {
	max   int32 // the configured Limit: never asked for more
	limit int32 // what the next call asks for
	bytes int64 // the answer size allowed
	// hold is how many answers must come back before the limit may grow
	// again after a shrink, so a size that just failed is not retried at
	// once (each failure costs a call timeout or a cut-off answer).
	hold int
}

// holdAfterShrink is that number of answers.
const holdAfterShrink = 16

func newSizer(limit int32, bytes int64) sizer {
	return sizer{max: limit, limit: limit, bytes: bytes}
}

// cap is the answer size the next call may read. Asking for one record,
// that record must be read whatever its size, or it is lost.
func (z *sizer) cap() int64 {
	if z.limit <= 1 {
		return max(z.bytes, singleRecordCap)
	}
	return z.bytes
}

// shrink follows an answer that was cut off for its size or did not arrive
// in time. It reports false when the limit was already 1 (nothing smaller
// can be asked for).
func (z *sizer) shrink() bool {
	if z.limit <= 1 {
		return false
	}
	z.limit = max(z.limit/4, 1)
	z.hold = holdAfterShrink
	return true
}

// answered follows a successful answer of n records in b bytes: the limit
// is kept where an answer of records this size fills at most half the
// allowance, and doubles (up to the configured Limit) while answers are
// under a quarter of it.
func (z *sizer) answered(n int, b int64) {
	next := z.limit
	if z.hold > 0 {
		z.hold--
	} else if b*4 < z.bytes {
		next = min(z.max, next*2)
	}
	if n > 0 {
		per := max(b/int64(n), 1)
		fit := z.bytes / 2 / per
		if fit < int64(next) {
			next = int32(max(fit, 1))
		}
	}
	z.limit = max(next, 1)
}
