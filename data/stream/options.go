package stream

import (
	"time"

	"opsdeck/data"
)

// Options tune a Tailer. The zero value is usable.
type Options struct {
	// PollInterval is the pause between GetRecords calls on a shard that had
	// nothing more to give. Default 250ms. Whatever the value, a shard is
	// never polled more than 4 times a second (DynamoDB Streams' limit).
	PollInterval time.Duration
	// Limit is GetRecords' Limit, 1..1000. Default 1000.
	Limit int32
	// Tables to tail. Default: every known table.
	Tables []data.TableID
	// Clock stamps Health.At. Default time.Now.
	Clock func() time.Time
	// Logf receives one line per notable event (faults, rediscovery). Default:
	// discard. It must never write to the terminal the UI owns.
	Logf func(string, ...any)
	// TableCheckInterval is how often each reader re-reads DescribeTable to
	// notice a deleted table or a replaced stream (DynamoDB Local keeps
	// answering GetRecords for a deleted table's stream). Default 10s.
	TableCheckInterval time.Duration
	// MaxBackoff caps the exponential backoff after failures. Default 5s.
	MaxBackoff time.Duration
	// CallTimeout bounds every single API call, so a server that accepts
	// connections but never answers is noticed. Default 10s.
	CallTimeout time.Duration
	// MaxResponseBytes caps what one GetRecords answer may cost: a longer
	// body is cut off unread and the shard asks for fewer records next
	// time. DynamoDB caps an answer at 1 MB of records, but DynamoDB Local
	// ignores that cap (1,000 records of a 400 KB item are ~737 MB of JSON,
	// decoded by the SDK into several times that). Default 8 MiB. An answer
	// of a single record may always be up to singleRecordCap: one record
	// cannot be refused without losing it.
	MaxResponseBytes int64
	// RecheckMin and RecheckMax bound the backoff with which a table whose
	// stream is off (table deleted, stream disabled) or missing is checked
	// again, so it goes live again when a stream exists. Defaults 1s and
	// 30s: one DescribeTable per table every 30 s at worst.
	RecheckMin, RecheckMax time.Duration
}

// minPollGap is the smallest gap between two GetRecords calls on one shard:
// DynamoDB Streams allows at most 4 calls per second per shard.
const minPollGap = 250 * time.Millisecond

// singleRecordCap is the answer size allowed when only one record is asked
// for. A DynamoDB item is at most 400 KB, so a record with both images is
// under 1 MB of data; JSON escaping (a control character becomes six bytes)
// can make that a few MB on the wire, never this much.
const singleRecordCap = 64 << 20

func (o Options) withDefaults() Options {
	if o.PollInterval <= 0 {
		o.PollInterval = 250 * time.Millisecond
	}
	if o.PollInterval < minPollGap {
		o.PollInterval = minPollGap
	}
	if o.Limit <= 0 || o.Limit > 1000 {
		o.Limit = 1000
	}
	if len(o.Tables) == 0 {
		o.Tables = data.TableIDs()
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.TableCheckInterval <= 0 {
		o.TableCheckInterval = 10 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 5 * time.Second
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = 8 << 20
	}
	if o.RecheckMin <= 0 {
		o.RecheckMin = time.Second
	}
	if o.RecheckMax < o.RecheckMin {
		o.RecheckMax = max(30*time.Second, o.RecheckMin)
	}
	return o
}
