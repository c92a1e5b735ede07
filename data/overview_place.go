package data

import (
	"strings"
	"time"
)

// Placing a stream record against a count. A count (Select=COUNT) sees the
// table as it was while its queries ran; a record of a change reaches the
// console later — a second later, or, for a table read slowly or a shard
// backing off, many seconds later. Applied on top of a count that already
// saw its change, a record counts that change twice. So every record is
// placed against the span of the count it would move: written before the
// count read (the count has it: the record must not move the number),
// after (the count cannot have it: the record moves the number), or — when
// its time cannot tell — during, and then the number is an estimate.
//
// Three things bound when a change was made. Its record's
// ApproximateCreationDateTime, which DynamoDB rounds down (to the second on
// AWS, to the minute on DynamoDB Local): within [At, At+grain), by the
// server's clock. The call that delivered it: before ReadBy. The last call
// before it that read the shard to its end without it: after NotBy (both
// by this machine's clock, the one the count's span is taken with). And per
// shard, sequence numbers order the changes: once a record of a shard is
// known to be after a count, so is every later record of that shard.

// ChangeAt is one item change from the live tail with where it sits in the
// stream: its approximate creation time (zero: unknown, as for the
// console's own writes) and its shard and sequence number.
type ChangeAt struct {
	Table          TableID
	Event          string // INSERT | MODIFY | REMOVE
	Keys, Old, New Item
	At             time.Time // ApproximateCreationDateTime (rounded down)
	Shard, Seq     string
	// NotBy and ReadBy: made after NotBy and before ReadBy, by this
	// machine's clock (zero: unknown).
	NotBy, ReadBy time.Time
}

// ReadSpan is when a count's queries ran, by this machine's clock: From
// before the first was sent, To after the last answer. Slack widens it on
// both sides (zero: CountSlack).
type ReadSpan struct {
	From, To time.Time
	Slack    time.Duration
}

func (s ReadSpan) slack() time.Duration {
	if s.Slack > 0 {
		return s.Slack
	}
	return CountSlack
}

// Placement is where a change falls against a count.
type Placement int

const (
	// PlacedAfter: the count cannot have seen the change.
	PlacedAfter Placement = iota
	// PlacedBefore: the count saw the change.
	PlacedBefore
	// PlacedUnknown: the change may or may not be in the count.
	PlacedUnknown
)

// CountSlack widens a count's span on both sides: the clocks of this
// machine and of DynamoDB may differ by a little, a global secondary index
// (what most counts read) is updated a moment after the table, and a
// stream record is readable a moment after its change. A change within
// this much of a count is not placed by its time.
const CountSlack = 2 * time.Second

// LocalCountSlack is the slack against DynamoDB Local (an endpoint on this
// machine): one clock, and its index and stream are written with the
// table, so only the calls' own timing is left to cover.
const LocalCountSlack = 100 * time.Millisecond

// Grain is how far a stream record's rounded-down time may be below the
// change's real time: a second when the record's time has seconds (AWS),
// else a minute (DynamoDB Local rounds to the minute; on AWS the record of
// a whole-minute second is taken as conservatively).
func Grain(at time.Time) time.Duration {
	if at.Second() != 0 || at.Nanosecond() != 0 {
		return time.Second
	}
	return time.Minute
}

// Place says where change c falls against the span. A span never set (a
// tally not made by a count) takes every change as after it.
func (s ReadSpan) Place(c ChangeAt) Placement {
	if s.From.IsZero() {
		return PlacedAfter
	}
	slack := s.slack()
	before := (!c.At.IsZero() && !c.At.Add(Grain(c.At)).Add(slack).After(s.From)) ||
		(!c.ReadBy.IsZero() && !c.ReadBy.Add(slack).After(s.From))
	if before {
		return PlacedBefore
	}
	if s.To.IsZero() {
		return PlacedUnknown // still counting
	}
	after := (!c.At.IsZero() && !c.At.Add(-slack).Before(s.To)) ||
		(!c.NotBy.IsZero() && !c.NotBy.Add(-slack).Before(s.To))
	if after {
		return PlacedAfter
	}
	return PlacedUnknown
}

// shardFence remembers, per table and shard, the first sequence number
// known to come after every count of an overview: any record of that shard
// at or above it is after them too.
type shardFence map[string]string

func fenceKey(c ChangeAt) string { return string(c.Table) + "\x00" + c.Shard }

// after reports whether c's shard has a record known to be after, at or
// below c's sequence number.
func (f shardFence) after(c ChangeAt) bool {
	if c.Shard == "" || c.Seq == "" {
		return false
	}
	q, ok := f[fenceKey(c)]
	return ok && !SeqLess(c.Seq, q)
}

// note records that c is after every count.
func (f shardFence) note(c ChangeAt) {
	if c.Shard == "" || c.Seq == "" {
		return
	}
	k := fenceKey(c)
	if q, ok := f[k]; !ok || SeqLess(c.Seq, q) {
		f[k] = c.Seq
	}
}

// SeqLess reports whether stream sequence number a comes before b. They are
// decimal strings of up to 40 digits (DynamoDB Local pads them to 21, AWS
// does not): compared by value.
func SeqLess(a, b string) bool {
	a, b = strings.TrimLeft(strings.TrimSpace(a), "0"), strings.TrimLeft(strings.TrimSpace(b), "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}
