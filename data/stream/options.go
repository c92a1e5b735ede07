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
}

// minPollGap is the smallest gap between two GetRecords calls on one shard:
// DynamoDB Streams allows at most 4 calls per second per shard.
const minPollGap = 250 * time.Millisecond

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
	return o
}
