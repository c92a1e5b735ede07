package stream

import (
	"fmt"
	"time"

	"opsdeck/data"
)

// Options tune a Tailer. The zero value is usable.
//
// The read budget (see README "Live tail: what it costs"): a shard that
// delivers is polled every PollInterval, and for 3 s after its last record
// (holdFast); then it backs off, doubling up to IdlePollMax, and all idle shards of a table together make at most
// TableIdleRate calls a second whatever their number; a table nothing on
// screen needs is read every SlowPollInterval (or not at all, Background);
// and the whole console makes at most MaxCallsPerSecond stream reads,
// served busy shards first.
type Options struct {
	// PollInterval is the pause between GetRecords calls on a shard that
	// is delivering records. Default 250ms. Never below the shard gap:
	// 250ms (4 calls/s, as the services' own Lambda consumers poll), or
	// 1.25s when the shards are shared with production consumers
	// (Etiquette).
	PollInterval time.Duration
	// IdlePollMax caps the pause of a shard that had nothing to give: once
	// 3 s have passed since its last record, it doubles from PollInterval
	// up to this. Default 1.5s, so a write to an
	// idle table is on screen within 2 s.
	IdlePollMax time.Duration
	// TableIdleRate is how many GetRecords a second the idle shards of one
	// table may make together, whatever their number: a table of 1,000
	// idle shards costs what one of 3 does. Default 2.
	TableIdleRate float64
	// SlowPollInterval is the pause of every shard of a table read slowly
	// because nothing on screen needs it (SetDemand). Default 10s.
	SlowPollInterval time.Duration
	// Background is how a table outside the demand is read: RateSlow
	// (default) or RateOff.
	Background Rate
	// MaxCallsPerSecond caps the stream reads (GetRecords and
	// GetShardIterator) of the whole console. Default 50.
	MaxCallsPerSecond float64
	// ThrottleBackoff and ThrottleBackoffMax bound the pause of a shard
	// refused for reading too often (LimitExceededException, throttling):
	// it doubles from the first to the second. Defaults 2s and 30s: hard
	// enough that opsdeck gives way to the service's own consumer.
	ThrottleBackoff, ThrottleBackoffMax time.Duration
	// Etiquette says whether the shards are shared with production
	// consumers. Default EtiquetteAuto: shared unless the endpoint is this
	// machine (DynamoDB Local).
	Etiquette Etiquette
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

// Rate is how fast a table is read.
type Rate int

const (
	// RateFull: as fast as the read budget allows (a pane shows the table).
	RateFull Rate = iota
	// RateSlow: every SlowPollInterval, so nothing is missed and panes
	// are up to date when shown.
	RateSlow
	// RateOff: not read; it resumes where it stopped when wanted again.
	RateOff
)

func (r Rate) String() string {
	switch r {
	case RateFull:
		return "full"
	case RateSlow:
		return "slow"
	case RateOff:
		return "off"
	}
	return "?"
}

// Etiquette says how considerate the reader must be of other readers of
// the same shards.
type Etiquette int

const (
	// EtiquetteAuto: EtiquetteShared unless the endpoint is a loopback one.
	EtiquetteAuto Etiquette = iota
	// EtiquetteLocal: the shards are ours alone (DynamoDB Local).
	EtiquetteLocal
	// EtiquetteShared: the shards have a production consumer. DynamoDB
	// Streams allows about 5 reads a second per shard, and no more than
	// two readers; a Lambda consumer polls 4 times a second, so opsdeck
	// reads a shard at most every 1.25 s (0.8/s) and gives way at once
	// when refused.
	EtiquetteShared
)

func (e Etiquette) String() string {
	switch e {
	case EtiquetteLocal:
		return "local"
	case EtiquetteShared:
		return "shared"
	}
	return "auto"
}

// Budget says in one line what the reader may spend, for the debug log:
// "shards shared with production consumers: busy 1.25s, idle up to 1.5s, …".
func (o Options) Budget() string {
	who := "shards ours alone (local)"
	if o.Etiquette == EtiquetteShared {
		who = "shards shared with production consumers"
	}
	return fmt.Sprintf("%s: a busy shard every %s, an idle one up to every %s, idle shards %g reads/s per table, "+
		"tables off screen %s (every %s), console ceiling %g reads/s, throttled shards back off %s to %s",
		who, o.PollInterval, o.IdlePollMax, o.TableIdleRate, o.Background, o.SlowPollInterval,
		o.MaxCallsPerSecond, o.ThrottleBackoff, o.ThrottleBackoffMax)
}

// minPollGap is the smallest gap between two GetRecords calls on one shard
// that is ours alone: 4 calls per second, as a Lambda consumer polls.
const minPollGap = 250 * time.Millisecond

// sharedPollGap is the smallest gap on a shard shared with a production
// consumer polling 4 times a second: 0.8 calls/s, keeping the two of them
// under the 5 reads/s a shard allows.
const sharedPollGap = 1250 * time.Millisecond

// singleRecordCap is the answer size allowed when only one record is asked
// for. A DynamoDB item is at most 400 KB, so a record with both images is
// under 1 MB of data; JSON escaping (a control character becomes six bytes)
// can make that a few MB on the wire, never this much.
const singleRecordCap = 64 << 20

// shardGap is the smallest gap between two reads of one shard.
func (o Options) shardGap() time.Duration {
	if o.Etiquette == EtiquetteShared {
		return sharedPollGap
	}
	return minPollGap
}

// withEndpoint resolves EtiquetteAuto from the endpoint: AWS (no endpoint,
// or one not on this machine) shares its shards with production consumers.
func (o Options) withEndpoint(endpoint string) Options {
	if o.Etiquette == EtiquetteAuto {
		o.Etiquette = EtiquetteShared
		if data.IsLoopbackEndpoint(endpoint) {
			o.Etiquette = EtiquetteLocal
		}
	}
	return o.withDefaults()
}

func (o Options) withDefaults() Options {
	if o.Etiquette == EtiquetteAuto {
		o.Etiquette = EtiquetteShared
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 250 * time.Millisecond
	}
	o.PollInterval = max(o.PollInterval, o.shardGap())
	if o.IdlePollMax <= 0 {
		o.IdlePollMax = 1500 * time.Millisecond
	}
	o.IdlePollMax = max(o.IdlePollMax, o.PollInterval)
	if o.TableIdleRate <= 0 {
		o.TableIdleRate = 2
	}
	if o.SlowPollInterval <= 0 {
		o.SlowPollInterval = 10 * time.Second
	}
	o.SlowPollInterval = max(o.SlowPollInterval, o.IdlePollMax)
	if o.Background != RateOff {
		o.Background = RateSlow
	}
	if o.MaxCallsPerSecond <= 0 {
		o.MaxCallsPerSecond = 50
	}
	if o.ThrottleBackoff <= 0 {
		o.ThrottleBackoff = 2 * time.Second
	}
	if o.ThrottleBackoffMax < o.ThrottleBackoff {
		o.ThrottleBackoffMax = max(30*time.Second, o.ThrottleBackoff)
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
