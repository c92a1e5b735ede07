// Over 400 lines on purpose: one shard reader — its read loop, pacing, and
// the mapping of every fault to a recovery — read as one piece.

package stream

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// reopenSlack is how far before a shard's LATEST position a re-read from
// TRIM_HORIZON starts delivering. ApproximateCreationDateTime is rounded
// down (to the second on AWS, to the minute by DynamoDB Local), so a record
// written just after the position may carry a time up to that much before
// it. A few records from just before the position may then be shown: real
// changes the operator had not seen, never duplicates.
const reopenSlack = time.Minute

// streamRetention is how long DynamoDB Streams keeps a record.
const streamRetention = 24 * time.Hour

// shardReader polls one shard until it closes, vanishes, or ctx ends. It is
// the only place records are delivered, so it is where "exactly once" is
// kept: lastSeq is the last sequence number handed to the sink, every
// restart resumes AFTER it, and anything at or below it is dropped.
//
// It is also where the read budget is spent: each call waits for its turn
// (its own pace: fast while the shard delivers, slower while idle, the
// table's share when many shards are idle) and then for a token of the
// console's budget.
type shardReader struct {
	t     *Tailer
	tr    *tableReader
	id    string
	arn   string
	start position // where to begin when nothing was delivered yet
	delay time.Duration
	wake  chan struct{} // the table's rate changed

	lastSeq string
	floor   string
	// since is when the shard's LATEST position was taken, while nothing
	// has been delivered from it: the only record of where reading began,
	// since iterators are opaque. If that iterator is lost before the first
	// record, the shard is read again from TRIM_HORIZON, skipping records
	// older than since (reopenSlack before it).
	since      time.Time
	floorTime  time.Time // while re-reading from TRIM_HORIZON: skip records older than this
	reopen     bool      // next iterator from TRIM_HORIZON
	lastApprox time.Time // creation time of the last record delivered
	iter       *string
	delivered  int
	lastOK     time.Time // last successful GetRecords
	size       sizer     // GetRecords' Limit, sized to what can arrive
	idle       int       // consecutive polls that found nothing
	busy       bool      // the last poll delivered
	lastBusy   time.Time // when a poll last found records
	// caughtUp is when the last call that read the shard to its end (an
	// answer short of its Limit, or the LATEST position taken) was sent:
	// a record a later call delivers was written after it (Record.NotBy).
	// Zero when unknown (nothing read to the end yet, an iterator lost).
	caughtUp time.Time
}

// warmFor is how long after its last record a shard keeps its own idle
// backoff (up to IdlePollMax) before it takes only its share of the
// table's idle budget: a busy shard that finds nothing once must not
// wait N/TableIdleRate seconds for the next write.
const warmFor = 15 * time.Second

// holdFast is how long after its last record a shard of a table on screen
// keeps the busy pace (PollInterval) before it backs off. Writes come in
// bursts a second or so apart (a session's lifecycle, a batch of events):
// backing off at the first empty poll made the next write wait up to
// a second (issue 23: 0.2–1.2 s apart at random, 383 ms median and
// 1,047 ms at worst on screen). It costs each shard that delivered at
// most holdFast/PollInterval (12) reads after its last record, and nothing
// once the table is idle: the idle budget still starts after warmFor.
const holdFast = 3 * time.Second

// shortAnswerBytes: an answer under this size was not cut by DynamoDB's
// 1 MB cap on GetRecords.
const shortAnswerBytes = 512 << 10

func (s *shardReader) position() position {
	switch {
	case s.reopen:
		return position{typ: st.ShardIteratorTypeTrimHorizon}
	case s.lastSeq != "":
		return position{typ: st.ShardIteratorTypeAfterSequenceNumber, seq: s.lastSeq}
	default:
		return s.start
	}
}

func (s *shardReader) end(why endReason, err error) shardEnd {
	return shardEnd{id: s.id, why: why, lastSeq: s.lastSeq, since: s.since, lastApprox: s.lastApprox,
		err: err, polled: !s.lastOK.IsZero()}
}

func (s *shardReader) run(ctx context.Context) (ev shardEnd) {
	defer func() {
		if p := recover(); p != nil {
			s.tr.logf("shard %s: internal error: %v", s.id, p)
			ev = s.end(endPanic, fmt.Errorf("internal error: %v", p))
		}
	}()
	o := s.t.opts
	if s.lastSeq == "" && s.start.typ == st.ShardIteratorTypeLatest && !s.since.IsZero() {
		// Read before from LATEST without a record since (a stream that came
		// back, a restarted reader): the position is lost with the old
		// iterator, so re-read from TRIM_HORIZON, from since on.
		s.lostIterator(s.start, false)
	}
	bo := s.tr.newBackoff()
	throttle := backoff{base: o.ThrottleBackoff, max: o.ThrottleBackoffMax}
	s.size = newSizer(o.Limit, o.MaxResponseBytes)
	next := time.Now().Add(s.delay) // earliest start of the next call
	last := time.Time{}             // start of the last call
	retryNow := 0                   // consecutive iterator faults handled without waiting
	for {
		if !s.waitTurn(ctx, &next, last) {
			return s.end(endCanceled, nil)
		}
		if s.t.budget.acquire(ctx, s.class()) != nil {
			return s.end(endCanceled, nil)
		}
		callStart := time.Now()
		last = callStart
		if s.iter == nil {
			pos := s.position()
			it, err := s.t.shardIterator(ctx, s.arn, s.id, pos)
			if err != nil {
				switch classify(ctx, err) {
				case faultCanceled:
					return s.end(endCanceled, nil)
				case faultNotFound:
					return s.end(endNotFound, err)
				case faultDenied:
					return s.end(endDenied, &deniedError{op: "GetShardIterator", err: err})
				case faultTrimmed:
					s.lostIterator(pos, true)
					next = s.pause(&bo, &retryNow)
				case faultThrottled:
					s.onThrottled("GetShardIterator", err)
					next = time.Now().Add(throttle.next())
				default:
					s.onTransient("GetShardIterator", err)
					next = time.Now().Add(bo.next())
				}
				continue
			}
			throttle.reset()
			if it == nil {
				// No iterator and no error: nothing left to read here.
				return s.end(endClosed, nil)
			}
			s.iter = it
			s.reopen = false
			first := s.since.IsZero() && s.lastSeq == "" && pos.typ == st.ShardIteratorTypeLatest
			if first {
				// The position is taken: a write from now on is read.
				s.since = callStart
				s.caughtUp = callStart
				s.tr.health.ok(s.id)
				// Spread the first polls of many shards over their idle
				// pace instead of polling them all at once.
				next = callStart.Add(time.Duration(rand.Int64N(int64(s.idleGap(callStart)) + 1)))
				continue
			}
		}

		limit := s.size.limit
		out, nbytes, err := s.t.getRecords(ctx, s.iter, limit, s.size.cap())
		if err != nil {
			var tl *errTooLarge
			if errors.As(err, &tl) && s.size.shrink() {
				// Nothing was lost: the same iterator asks for fewer.
				s.tr.logf("shard %s: answer over %d bytes cut off; asking for %d records at a time", s.id, tl.limit, s.size.limit)
				next = callStart.Add(o.shardGap())
				continue
			}
			switch classify(ctx, err) {
			case faultCanceled:
				return s.end(endCanceled, nil)
			case faultNotFound:
				return s.end(endNotFound, err)
			case faultDenied:
				return s.end(endDenied, &deniedError{op: "GetRecords", err: err})
			case faultExpired:
				s.tr.logf("shard %s: %s", s.id, describeErr(err))
				s.lostIterator(s.position(), false)
				next = s.pause(&bo, &retryNow)
			case faultTrimmed:
				s.lostIterator(s.position(), true)
				next = s.pause(&bo, &retryNow)
			case faultThrottled:
				// Keep the iterator; give way to the shard's other readers.
				s.onThrottled("GetRecords", err)
				next = time.Now().Add(throttle.next())
			default:
				// Keep the iterator: it is still good once the server is back.
				// An answer that did not arrive in time may be one too big
				// to send in time: ask for fewer records next time.
				if errors.Is(err, context.DeadlineExceeded) && s.size.shrink() {
					s.tr.logf("shard %s: GetRecords timed out; asking for %d records at a time", s.id, s.size.limit)
				}
				s.onTransient("GetRecords", err)
				next = time.Now().Add(bo.next())
			}
			continue
		}
		s.size.answered(len(out.Records), nbytes)
		bo.reset()
		throttle.reset()
		retryNow = 0
		s.lastOK = time.Now()
		s.tr.health.ok(s.id)
		s.deliver(out.Records)
		if len(out.Records) < int(limit) && nbytes < shortAnswerBytes {
			// Short of both caps (records and DynamoDB's 1 MB): the
			// answer reached the end of what the shard held.
			s.caughtUp = callStart
		}
		s.iter = out.NextShardIterator
		if s.iter == nil || *s.iter == "" {
			return s.end(endClosed, nil)
		}
		next = s.polled(callStart, len(out.Records), int(limit))
	}
}

// polled records what a GetRecords started at at found (got records, of
// limit asked for) and says when the shard is read next.
func (s *shardReader) polled(at time.Time, got, limit int) time.Time {
	if got == 0 {
		s.busy = false
		if !s.holding(at) {
			// Backing off starts when the hold ends: doubling from
			// PollInterval, not from where the empty polls of the hold
			// would have taken it.
			s.idle++
		}
		return at.Add(s.gap(at))
	}
	s.busy, s.idle, s.lastBusy = true, 0, at
	if got >= limit {
		// A full batch: more is waiting, read on as soon as allowed.
		return at.Add(s.t.opts.shardGap())
	}
	return at.Add(s.gap(at))
}

// class is the reader's place in the console budget's queue.
func (s *shardReader) class() class {
	switch {
	case s.tr.currentRate() != RateFull:
		return classSlow
	case s.busy:
		return classBusy
	}
	return classIdle
}

// gap is the pause after a poll at now, from the shard's activity and the
// table's rate: PollInterval while it delivers and for holdFast after its
// last record (on a table read at full rate), then its idle pace.
func (s *shardReader) gap(now time.Time) time.Duration {
	o := s.t.opts
	if s.tr.currentRate() != RateFull {
		if s.busy {
			return o.SlowPollInterval
		}
		return s.idleGap(now)
	}
	if s.busy || s.holding(now) {
		return o.PollInterval
	}
	return s.idleGap(now)
}

// holding reports whether at now the shard is within holdFast of the last
// poll that found records.
func (s *shardReader) holding(now time.Time) bool {
	return !s.lastBusy.IsZero() && now.Sub(s.lastBusy) < holdFast
}

// idleGap is the pause of an idle shard: doubling from PollInterval to
// IdlePollMax, and — once the shard has been idle for warmFor — never so
// short that the table's idle shards together pass TableIdleRate (a tenth
// of it for a table read slowly), with a little jitter (only ever longer)
// so many shards do not poll in step.
func (s *shardReader) idleGap(now time.Time) time.Duration {
	o := s.t.opts
	g := o.PollInterval << min(max(s.idle, 1), 8)
	g = min(g, o.IdlePollMax)
	rate := o.TableIdleRate
	if s.tr.currentRate() != RateFull {
		g = max(g, o.SlowPollInterval)
		rate /= 10
	}
	if s.lastBusy.IsZero() || now.Sub(s.lastBusy) >= warmFor {
		share := time.Duration(float64(s.tr.openShards()) / rate * float64(time.Second))
		g = max(g, share)
	}
	return g + time.Duration(rand.Int64N(int64(g)/5+1))
}

// waitTurn sleeps until next, or ctx ends (false). A change of the table's
// rate wakes it: the pause is recomputed for the new rate from the last
// call, so a table that becomes wanted is read within its full-rate pace,
// and a table switched off is not read until it is wanted again.
func (s *shardReader) waitTurn(ctx context.Context, next *time.Time, last time.Time) bool {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		if s.tr.currentRate() == RateOff {
			select {
			case <-ctx.Done():
				return false
			case <-s.wake:
				if !last.IsZero() && s.tr.currentRate() != RateOff {
					*next = last.Add(s.gap(time.Now()))
				}
				continue
			}
		}
		d := time.Until(*next)
		if d <= 0 {
			return ctx.Err() == nil
		}
		t.Reset(d)
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		case <-s.wake:
			if !last.IsZero() {
				if n := last.Add(s.gap(time.Now())); n.Before(*next) {
					*next = n
				}
			}
		}
	}
}

// pause: the first iterator fault in a row is retried at once (the fix is a
// new iterator, not waiting); repeated ones back off so a server that keeps
// failing is not hammered.
func (s *shardReader) pause(bo *backoff, retryNow *int) time.Time {
	*retryNow++
	if *retryNow == 1 {
		return time.Now()
	}
	return time.Now().Add(bo.next())
}

func (s *shardReader) onTransient(op string, err error) {
	d := opDetail(op, err)
	s.tr.logf("shard %s: %s", s.id, d)
	s.tr.health.failed(s.id, d)
}

func (s *shardReader) onThrottled(op string, err error) {
	d := opDetail(op, err)
	s.tr.logf("shard %s: throttled: %s", s.id, d)
	s.tr.health.throttledBy(s.id, d)
}

// lostIterator follows an iterator that can no longer be used (expired,
// invalid, or pointing at trimmed records) and decides where to read next,
// so that nothing is skipped silently:
//
//   - nothing delivered yet from a LATEST start: the only position known
//     was "latest at since". Read from TRIM_HORIZON and skip what is older
//     than since; only if since is older than the stream keeps records can
//     something be missing, and then a gap says what span.
//   - trimmed after a known record: records after it are gone. Read from
//     TRIM_HORIZON and say "gap" from that record's time to now.
//   - expired after a known record: a new iterator AFTER it loses nothing.
func (s *shardReader) lostIterator(pos position, trimmed bool) {
	s.iter = nil
	s.caughtUp = time.Time{} // what the next iterator reads is not placed
	now := time.Now()
	if s.lastSeq == "" && s.start.typ == st.ShardIteratorTypeLatest && !s.since.IsZero() {
		s.reopen = true
		s.floorTime = s.since.Add(-reopenSlack)
		s.tr.logf("shard %s: iterator lost before its first record (%s); re-reading from TRIM_HORIZON, skipping records before %s",
			s.id, pos, s.floorTime.Format(time.TimeOnly))
		if oldest := now.Add(-streamRetention); s.since.Before(oldest) {
			s.gapNotice(s.since, oldest, "records of shard %s older than 24 h were trimmed before they were read")
		}
		return
	}
	if !trimmed {
		return
	}
	s.reopen = true
	if s.lastSeq == "" && pos.typ == st.ShardIteratorTypeTrimHorizon {
		// Nothing is older than TRIM_HORIZON: nothing was skipped. (DynamoDB
		// Local says "trimmed" for a TRIM_HORIZON iterator taken on an empty
		// shard once the first record arrives.)
		s.tr.logf("shard %s: TRIM_HORIZON iterator trimmed before any record; reading from TRIM_HORIZON again", s.id)
		return
	}
	from := s.lastApprox
	if from.IsZero() {
		from = s.since
	}
	s.gapNotice(from, now, "records of shard %s were trimmed before they were read (position "+pos.String()+")")
}

func (s *shardReader) gapNotice(from, to time.Time, format string) {
	msg := fmt.Sprintf(format, s.id)
	if !from.IsZero() {
		msg += fmt.Sprintf(": changes from %s to %s may be missing", from.Format(time.TimeOnly), to.Format(time.TimeOnly))
	} else {
		msg += fmt.Sprintf(": changes before %s may be missing", to.Format(time.TimeOnly))
	}
	s.tr.logf("%s", msg)
	s.tr.health.gap(msg, from, to)
}

// deliver converts and hands over the records not delivered before, and
// reports how many. GetRecords returns a shard's records in sequence order,
// so lastSeq only moves forward. While re-reading from TRIM_HORIZON after
// losing a LATEST position, records older than floorTime were written
// before the reader started: they are passed over (and lastSeq moves past
// them, so they are never delivered later either).
func (s *shardReader) deliver(in []st.Record) int {
	if len(in) == 0 {
		return 0
	}
	out := make([]Record, 0, len(in))
	for i := range in {
		rec := &in[i]
		sr := rec.Dynamodb
		if sr == nil {
			continue
		}
		seq := aws.ToString(sr.SequenceNumber)
		if !seqAfter(seq, s.lastSeq) || !seqAfter(seq, s.floor) {
			continue // already delivered (a retried or replayed read)
		}
		approx := aws.ToTime(sr.ApproximateCreationDateTime)
		if !s.floorTime.IsZero() {
			if !approx.IsZero() && approx.Before(s.floorTime) {
				s.lastSeq = seq
				continue // from before the reader began
			}
			s.floorTime = time.Time{} // records only get newer from here
		}
		out = append(out, Record{
			Table:      s.tr.id,
			TableName:  s.tr.name,
			EventName:  string(rec.EventName),
			Keys:       convertItem(sr.Keys),
			Old:        convertItem(sr.OldImage),
			New:        convertItem(sr.NewImage),
			ApproxTime: approx,
			TTL:        isTTL(rec.UserIdentity),
			Seq:        seq,
			Shard:      s.id,
			NotBy:      s.caughtUp,
			ReadBy:     s.lastOK,
		})
		out[len(out)-1].Bytes = out[len(out)-1].Size()
		s.lastSeq = seq
		s.lastApprox = approx
	}
	if len(out) == 0 {
		return 0
	}
	s.delivered += len(out)
	s.tr.sink.Records(out)
	return len(out)
}

func isTTL(id *st.Identity) bool {
	return id != nil && aws.ToString(id.Type) == "Service" && aws.ToString(id.PrincipalId) == "dynamodb.amazonaws.com"
}
