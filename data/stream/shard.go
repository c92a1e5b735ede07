package stream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
)

// shardReader polls one shard until it closes, vanishes, or ctx ends. It is
// the only place records are delivered, so it is where "exactly once" is
// kept: lastSeq is the last sequence number handed to the sink, every
// restart resumes AFTER it, and anything at or below it is dropped.
type shardReader struct {
	t     *Tailer
	tr    *tableReader
	id    string
	arn   string
	start position // where to begin when nothing was delivered yet
	delay time.Duration

	lastSeq   string
	floor     string
	trimmed   bool // next iterator from TRIM_HORIZON
	iter      *string
	delivered int
	lastOK    time.Time // last successful GetRecords
	size      sizer     // GetRecords' Limit, sized to what can arrive
}

func (s *shardReader) position() position {
	switch {
	case s.trimmed:
		return position{typ: st.ShardIteratorTypeTrimHorizon}
	case s.lastSeq != "":
		return position{typ: st.ShardIteratorTypeAfterSequenceNumber, seq: s.lastSeq}
	default:
		return s.start
	}
}

func (s *shardReader) end(why endReason, err error) shardEnd {
	return shardEnd{id: s.id, why: why, lastSeq: s.lastSeq, err: err, polled: !s.lastOK.IsZero()}
}

func (s *shardReader) run(ctx context.Context) (ev shardEnd) {
	defer func() {
		if p := recover(); p != nil {
			s.tr.logf("shard %s: internal error: %v", s.id, p)
			ev = s.end(endPanic, fmt.Errorf("internal error: %v", p))
		}
	}()
	if !sleepCtx(ctx, s.delay) {
		return s.end(endCanceled, nil)
	}
	bo := s.tr.newBackoff()
	s.size = newSizer(s.t.opts.Limit, s.t.opts.MaxResponseBytes)
	var next time.Time // earliest start of the next GetRecords
	retryNow := 0      // consecutive iterator faults handled without waiting
	for {
		if !sleepCtx(ctx, time.Until(next)) {
			return s.end(endCanceled, nil)
		}
		if s.iter == nil {
			pos := s.position()
			it, err := s.t.shardIterator(ctx, s.arn, s.id, pos)
			if err != nil {
				switch classify(ctx, err) {
				case faultCanceled:
					return s.end(endCanceled, nil)
				case faultNotFound:
					return s.end(endNotFound, err)
				case faultTrimmed:
					s.onTrimmed(pos)
					next = s.pause(&bo, &retryNow)
				default:
					s.onTransient("GetShardIterator", err)
					next = time.Now().Add(bo.next())
				}
				continue
			}
			if it == nil {
				// No iterator and no error: nothing left to read here.
				return s.end(endClosed, nil)
			}
			s.iter = it
			s.trimmed = false
		}

		callStart := time.Now()
		limit := s.size.limit
		out, nbytes, err := s.t.getRecords(ctx, s.iter, limit, s.size.cap())
		if err != nil {
			var tl *errTooLarge
			if errors.As(err, &tl) && s.size.shrink() {
				// Nothing was lost: the same iterator asks for fewer.
				s.tr.logf("shard %s: answer over %d bytes cut off; asking for %d records at a time", s.id, tl.limit, s.size.limit)
				next = callStart.Add(minPollGap)
				continue
			}
			switch classify(ctx, err) {
			case faultCanceled:
				return s.end(endCanceled, nil)
			case faultNotFound:
				return s.end(endNotFound, err)
			case faultExpired:
				s.tr.logf("shard %s: %s; new iterator %s", s.id, describeErr(err), s.position())
				s.iter = nil
				next = s.pause(&bo, &retryNow)
			case faultTrimmed:
				s.onTrimmed(s.position())
				s.iter = nil
				next = s.pause(&bo, &retryNow)
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
		retryNow = 0
		s.lastOK = time.Now()
		s.tr.health.ok(s.id)
		s.deliver(out.Records)
		s.iter = out.NextShardIterator
		if s.iter == nil || *s.iter == "" {
			return s.end(endClosed, nil)
		}
		gap := s.t.opts.PollInterval
		if len(out.Records) >= int(limit) {
			// A full batch: more is waiting, poll again as soon as allowed.
			gap = minPollGap
		}
		next = callStart.Add(gap)
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
	d := op + ": " + describeErr(err)
	s.tr.logf("shard %s: %s", s.id, d)
	s.tr.health.failed(s.id, d)
}

func (s *shardReader) onTrimmed(pos position) {
	s.trimmed = true
	if s.lastSeq == "" && s.start.typ == st.ShardIteratorTypeLatest && !s.lastOK.IsZero() && time.Since(s.lastOK) < time.Minute {
		// Nothing delivered yet, and the shard answered moments ago. AWS
		// only trims records after 24 hours, so this is DynamoDB Local's
		// quirk: a LATEST iterator on an empty shard sits at the shard's
		// starting number, and when the first record arrives with a higher
		// number (the counter is shared by every stream of the server) the
		// old iterator counts as "before the oldest record". Nothing was
		// missed: reading from TRIM_HORIZON returns exactly the new records.
		s.tr.logf("shard %s: trimmed at %s before any record; reading from TRIM_HORIZON (DynamoDB Local's empty-shard iterator)", s.id, pos)
		return
	}
	msg := fmt.Sprintf("records of shard %s were trimmed before they were read (position %s): some changes may be missing", s.id, pos)
	s.tr.logf("%s", msg)
	s.tr.health.gap(msg)
}

// deliver converts and hands over the records not delivered before.
// GetRecords returns a shard's records in sequence order, so lastSeq only
// moves forward.
func (s *shardReader) deliver(in []st.Record) {
	if len(in) == 0 {
		return
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
		out = append(out, Record{
			Table:      s.tr.id,
			TableName:  s.tr.name,
			EventName:  string(rec.EventName),
			Keys:       convertItem(sr.Keys),
			Old:        convertItem(sr.OldImage),
			New:        convertItem(sr.NewImage),
			ApproxTime: aws.ToTime(sr.ApproximateCreationDateTime),
			TTL:        isTTL(rec.UserIdentity),
			Seq:        seq,
			Shard:      s.id,
		})
		out[len(out)-1].Bytes = out[len(out)-1].Size()
		s.lastSeq = seq
	}
	if len(out) == 0 {
		return
	}
	s.delivered += len(out)
	s.tr.sink.Records(out)
}

func isTTL(id *st.Identity) bool {
	return id != nil && aws.ToString(id.Type) == "Service" && aws.ToString(id.PrincipalId) == "dynamodb.amazonaws.com"
}
