package stream

import (
	"time"

	"opsdeck/data"
)

// Record is one change read from a table's stream, converted to the plain
// dynamodb attribute types the rest of opsdeck uses.
type Record struct {
	Table     data.TableID // logical id
	TableName string       // physical name
	EventName string       // INSERT | MODIFY | REMOVE
	// Keys is always present. Old and New are present as far as the stream's
	// view type allows (KEYS_ONLY: neither; NEW_IMAGE: New only; OLD_IMAGE:
	// Old only; NEW_AND_OLD_IMAGES: both, except Old on INSERT and New on
	// REMOVE).
	Keys, Old, New data.Item
	ApproxTime     time.Time
	// TTL is true when DynamoDB itself deleted the item because its TTL
	// attribute expired (userIdentity Service / dynamodb.amazonaws.com).
	TTL   bool
	Seq   string // sequence number within the shard
	Shard string // shard id
	// NotBy and ReadBy bound when the change was made, by this machine's
	// clock: after NotBy (an earlier call that read the shard to its end,
	// sent then, did not return it; zero when unknown) and before ReadBy
	// (the call that returned it had answered). ApproxTime, rounded down
	// and by the server's clock, is often coarser (a minute on DynamoDB
	// Local). Counts use both to tell a change they saw from one they did
	// not (data.ReadSpan).
	NotBy, ReadBy time.Time
	// Bytes is the record's approximate size in memory (keys and images),
	// set by the reader; Size computes it when it is not set. Whatever
	// holds records bounds itself by bytes as well as by count with it:
	// one record can weigh 800 KB.
	Bytes int
}

// Size is the record's approximate size in bytes: Bytes when the reader set
// it, else the size of its keys and images computed now.
func (r Record) Size() int {
	if r.Bytes > 0 {
		return r.Bytes
	}
	return recordOverhead + itemBytes(r.Keys) + itemBytes(r.Old) + itemBytes(r.New)
}

// State is a table's stream health as the status bar shows it.
type State string

const (
	// StateLive: every open shard of the table's stream answered its last poll.
	StateLive State = "live"
	// StatePolling: the table has no stream; callers re-query instead.
	StatePolling State = "polling"
	// StateReconnecting: a call failed (throttling, 5xx, connection); the
	// reader is backing off and will retry.
	StateReconnecting State = "reconnecting"
	// StateGap: records were trimmed from the stream before they were read,
	// so some changes may be missing (Health.GapFrom to GapTo). Reading
	// continues.
	StateGap State = "gap"
	// StateThrottled: DynamoDB Streams refused reads (LimitExceeded,
	// throttling): too many readers on a shard. The shard backs off hard and
	// its records arrive late, none is lost.
	StateThrottled State = "throttled"
	// StatePaused: the table is not read while nothing on screen needs it
	// (Options.Background RateOff); it resumes where it stopped.
	StatePaused State = "paused"
	// StateOff: the table cannot be read now (stream disabled, table
	// deleted); Detail says why. It is checked again with backoff and goes
	// live again when it has a stream.
	StateOff State = "off"
)

// Health reports a change of one table's stream state.
type Health struct {
	Table  data.TableID
	State  State
	Detail string
	At     time.Time
	// GapFrom and GapTo bound the changes that may be missing, with
	// StateGap.
	GapFrom, GapTo time.Time
	// Replaced (with StateGap): the table's stream was replaced by a new
	// one (the table re-created, or its stream disabled and enabled
	// again). Rows read before are not corrected by any record of the new
	// stream: whoever shows the table reads it again.
	Replaced bool
	// NotAllowed (with StatePolling): the stream reads were refused for
	// want of a permission (AccessDeniedException); Detail names the IAM
	// action and resource. The table is re-queried instead, and the reads
	// are tried again now and then (the policy may be fixed).
	NotAllowed bool
}

// Sink receives records and health changes. Both methods are called from the
// reader's goroutines (possibly several at once, one per shard) and must not
// block for long: a slow sink delays polling of that shard.
type Sink interface {
	Records([]Record)
	Health(Health)
}

// Lineage is one table's shard turnover since the reader started, reported
// each time a closed shard's children are found. A production stream
// replaces every shard about every four hours (a rollover: one child) and
// splits busy ones (several children); the health line shows both so an
// operator can see the reader followed them.
type Lineage struct {
	Table     data.TableID
	Rollovers int       // closed shards followed into one child
	Splits    int       // closed shards followed into several children
	Last      time.Time // when the latest one was followed
	Open      int       // shards read now
}

// LineageSink is implemented by a Sink that wants Lineage reports. They
// come from the table's reader goroutine, like Health, and must not block.
type LineageSink interface {
	Lineage(Lineage)
}
