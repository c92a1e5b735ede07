// Over 400 lines on purpose: one table's reader — stream discovery, shard
// lineage (parents before children), rollover and re-discovery — read as one piece.

package stream

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
)

// tableReader manages one table's stream: it discovers shards, keeps the
// lineage, starts one shardReader per shard (parents before children) and
// decides what to do when a shard closes or disappears. Only its own
// goroutine touches its maps; shard readers talk to it through events.
type tableReader struct {
	t      *Tailer
	id     data.TableID
	name   string
	sink   Sink
	health *healthTracker

	arn string
	// arnSeen is when arn was last known to be the table's stream: a
	// replacement found later may have lost the changes made since.
	arnSeen time.Time
	shards  map[string]*shardInfo
	// waiting holds closed shards whose children have not appeared yet.
	waiting map[string]*childWait
	events  chan shardEnd
	wg      sync.WaitGroup
	// filterUnsupported: the server rejected DescribeStream's ShardFilter,
	// so child discovery uses a full describe.
	filterUnsupported bool

	mu sync.Mutex
	// cancelled holds the end of shard readers stopped with their session
	// (they cannot send on events then: nobody may be reading it).
	cancelled []shardEnd
	// active is every shard reader running, so a demand change can wake
	// them and an idle one can size its share of the table's budget.
	active map[*shardReader]struct{}

	rate atomic.Int32 // Rate the table is read at

	// lineage counts the closed shards followed into their children.
	lineage Lineage
}

// setRate changes how fast the table is read and wakes its shard readers
// so the new pace applies at once.
func (r *tableReader) setRate(rate Rate) {
	if Rate(r.rate.Swap(int32(rate))) == rate {
		return
	}
	if rate == RateOff {
		r.health.pause("not read while no pane shows " + string(r.id))
	} else {
		r.health.unpause()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for sr := range r.active {
		select {
		case sr.wake <- struct{}{}:
		default:
		}
	}
}

func (r *tableReader) currentRate() Rate { return Rate(r.rate.Load()) }

// openShards is how many shard readers run now.
func (r *tableReader) openShards() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.active)
}

type shardStatus int

const (
	shardIdle    shardStatus = iota // known, not read yet (waits for its parent)
	shardReading                    // a shardReader runs
	shardDone                       // read to its end, or history from before we started
)

type shardInfo struct {
	id, parent string
	status     shardStatus
	start      position
	lastSeq    string    // last sequence number delivered from this shard
	floor      string    // never deliver at or below this (see adopt)
	since      time.Time // when its LATEST position was taken (see shardReader.since)
	lastApprox time.Time // creation time of the last record delivered
	restarts   backoff
}

type childWait struct {
	due time.Time
	bo  backoff
}

type endReason int

const (
	endClosed   endReason = iota // NextShardIterator absent: read to the end
	endNotFound                  // the shard (or stream) is unknown to the server
	endCanceled
	endPanic
	endDenied // the policy refuses the reads (denied.go)
)

type shardEnd struct {
	id         string
	why        endReason
	lastSeq    string
	since      time.Time
	lastApprox time.Time
	err        error
	polled     bool // at least one GetRecords succeeded: restart backoff resets
}

func newTableReader(t *Tailer, id data.TableID, name string, sink Sink, h *healthTracker) *tableReader {
	return &tableReader{
		t: t, id: id, name: name, sink: sink, health: h,
		shards:  map[string]*shardInfo{},
		waiting: map[string]*childWait{},
		events:  make(chan shardEnd, 64),
		active:  map[*shardReader]struct{}{},
	}
}

func (r *tableReader) logf(format string, args ...any) {
	r.t.opts.Logf("stream %s: "+format, append([]any{r.name}, args...)...)
}

func (r *tableReader) newBackoff() backoff {
	return backoff{base: 100 * time.Millisecond, max: r.t.opts.MaxBackoff}
}

// run reads the table's stream until ctx ends. "off" is never the end:
// when the table or its stream goes away (deleted, disabled, a server
// restarted without its data), the table is checked again with backoff, and
// read again as soon as it has a stream.
func (r *tableReader) run(ctx context.Context) {
	recheck := backoff{base: r.t.opts.RecheckMin, max: r.t.opts.RecheckMax}
	for {
		if r.session(ctx) {
			recheck.reset()
		}
		if !sleepCtx(ctx, recheck.next()) {
			return
		}
	}
}

// session is one attempt to read the stream: it opens it and reads it
// until it ends or ctx does, then cancels and waits for its shard readers.
// It reports whether the stream was opened.
func (r *tableReader) session(parent context.Context) (opened bool) {
	ctx, cancel := context.WithCancel(parent)
	defer func() {
		if p := recover(); p != nil {
			r.logf("internal error: %v", p)
			r.health.stopped(StateOff, fmt.Sprintf("internal error in the stream reader: %v", p))
		}
		cancel()
		r.wg.Wait()
		r.settleCancelled()
	}()
	r.health.resume()
	if !r.open(ctx) {
		return false
	}
	check := time.NewTicker(r.t.opts.TableCheckInterval)
	defer check.Stop()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	for {
		wake.Reset(r.nextDue())
		select {
		case <-ctx.Done():
			return true
		case ev := <-r.events:
			if !r.onEnd(ctx, ev) {
				return true
			}
		case <-check.C:
			if !r.checkTable(ctx) {
				return true
			}
		case <-wake.C:
			if !r.findChildren(ctx) {
				return true
			}
		}
	}
}

// settleCancelled runs once every shard reader of a session has stopped:
// it keeps where each one got to, so a stream that comes back (the same
// stream, after a server restart) resumes after the last record delivered.
func (r *tableReader) settleCancelled() {
	for {
		select {
		case ev := <-r.events:
			r.noteEnd(ev)
		default:
			r.mu.Lock()
			ends := r.cancelled
			r.cancelled = nil
			r.mu.Unlock()
			for _, ev := range ends {
				r.noteEnd(ev)
			}
			for _, info := range r.shards {
				if info.status == shardReading {
					info.status = shardIdle
				}
			}
			return
		}
	}
}

// noteEnd keeps what a stopped shard reader knew.
func (r *tableReader) noteEnd(ev shardEnd) {
	r.health.forget(ev.id)
	info := r.shards[ev.id]
	if info == nil {
		return
	}
	if ev.lastSeq != "" {
		info.lastSeq = ev.lastSeq
	}
	if !ev.since.IsZero() {
		info.since = ev.since
	}
	if !ev.lastApprox.IsZero() {
		info.lastApprox = ev.lastApprox
	}
}

// nextDue is how long until the earliest child discovery is due.
func (r *tableReader) nextDue() time.Duration {
	d := time.Hour
	now := time.Now()
	for _, w := range r.waiting {
		if dd := w.due.Sub(now); dd < d {
			d = dd
		}
	}
	if d < 0 {
		d = 0
	}
	return d
}

// open finds the stream and starts reading it. The first stream seen is
// read from LATEST (its leaf shards); the same stream seen again resumes
// where each shard got to; a stream that appeared while the console ran
// (table re-created, stream enabled) is read from its start, since
// everything in it is news. It returns false when the table cannot be
// tailed now (no stream: "polling"; table or stream gone: "off") or ctx
// ended.
func (r *tableReader) open(ctx context.Context) bool {
	bo := r.newBackoff()
	for {
		arn, ok, retry := r.currentStream(ctx)
		if !ok {
			return false
		}
		if !retry {
			shards, status, err := r.t.streamShards(ctx, arn, nil)
			switch {
			case err == nil && streamEnded(status):
				r.health.stopped(StateOff, fmt.Sprintf("the stream of %s is %s", r.name, status))
				return false
			case err == nil:
				// Shards register as pending before the manager reports
				// itself ready, so "live" waits for their first poll.
				switch {
				case r.arn == "":
					r.arn = arn
					r.startAtLatest(ctx, shards)
				case r.arn == arn:
					r.logf("stream back; resuming %d known shard(s)", len(r.shards))
					r.merge(ctx, shards, "")
				default:
					r.logf("a new stream %s; reading it from TRIM_HORIZON", arn)
					r.shards = map[string]*shardInfo{}
					r.waiting = map[string]*childWait{}
					r.replacedBy(arn)
					r.merge(ctx, shards, "")
				}
				r.arnSeen = time.Now()
				r.health.ok("")
				if r.currentRate() == RateOff {
					r.health.pause("not read while no pane shows " + string(r.id))
				}
				return true
			case classify(ctx, err) == faultCanceled:
				return false
			case isDenied(ctx, err):
				r.deniedOn("DescribeStream", arn, err)
				return false
			default:
				r.health.failed("", opDetail("DescribeStream", err))
				r.logf("describe stream: %v", err)
			}
		}
		if !sleepCtx(ctx, bo.next()) {
			return false
		}
	}
}

// startAtLatest is the first look at a stream: the shards that exist are
// history, except the leaves, which are read from LATEST.
func (r *tableReader) startAtLatest(ctx context.Context, shards []st.Shard) {
	hasChild := map[string]bool{}
	for _, s := range shards {
		if p := aws.ToString(s.ParentShardId); p != "" {
			hasChild[p] = true
		}
	}
	for _, s := range shards {
		id := aws.ToString(s.ShardId)
		info := &shardInfo{id: id, parent: aws.ToString(s.ParentShardId), status: shardDone, restarts: r.newBackoff()}
		r.shards[id] = info
		if !hasChild[id] {
			info.start = position{typ: st.ShardIteratorTypeLatest}
			r.startShard(ctx, info, 0)
		}
	}
	r.logf("reading %d leaf shard(s) of %d from LATEST", len(shards)-len(hasChild), len(shards))
}

// merge adds shards not seen before; they are read from TRIM_HORIZON (a
// child of a shard we were reading must not lose what was written between
// the two) once their parent is done. It reports whether any shard in
// shards is a child of parent.
func (r *tableReader) merge(ctx context.Context, shards []st.Shard, parent string) (found bool) {
	for _, s := range shards {
		id := aws.ToString(s.ShardId)
		p := aws.ToString(s.ParentShardId)
		if parent != "" && p == parent {
			found = true
		}
		if _, known := r.shards[id]; known || id == "" {
			continue
		}
		r.shards[id] = &shardInfo{id: id, parent: p, status: shardIdle,
			start: position{typ: st.ShardIteratorTypeTrimHorizon}, restarts: r.newBackoff()}
	}
	r.schedule(ctx)
	return found
}

// schedule starts every idle shard whose parent is done (or unknown to us:
// trimmed away, or from before we started).
func (r *tableReader) schedule(ctx context.Context) {
	for _, info := range r.shards {
		if info.status != shardIdle {
			continue
		}
		if p, ok := r.shards[info.parent]; ok && p.status != shardDone {
			continue
		}
		r.startShard(ctx, info, 0)
	}
}

func (r *tableReader) startShard(ctx context.Context, info *shardInfo, delay time.Duration) {
	info.status = shardReading
	sr := &shardReader{
		t: r.t, tr: r, id: info.id, arn: r.arn,
		start: info.start, lastSeq: info.lastSeq, floor: info.floor, delay: delay,
		since: info.since, lastApprox: info.lastApprox, wake: make(chan struct{}, 1),
	}
	r.health.starting(info.id)
	r.mu.Lock()
	r.active[sr] = struct{}{}
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		ev := sr.run(ctx)
		r.mu.Lock()
		delete(r.active, sr)
		r.mu.Unlock()
		if ev.why == endCanceled {
			r.mu.Lock()
			r.cancelled = append(r.cancelled, ev)
			r.mu.Unlock()
			return
		}
		select {
		case r.events <- ev:
		case <-ctx.Done():
		}
	}()
}

// onEnd handles a shard reader that stopped. false: stop the table reader.
func (r *tableReader) onEnd(ctx context.Context, ev shardEnd) bool {
	r.noteEnd(ev)
	info := r.shards[ev.id]
	if info == nil {
		return true
	}
	if ev.polled {
		info.restarts.reset()
	}
	switch ev.why {
	case endClosed:
		info.status = shardDone
		r.logf("shard %s closed after %q; looking for its children", ev.id, info.lastSeq)
		r.waiting[ev.id] = &childWait{due: time.Now(), bo: r.newBackoff()}
		return r.findChildren(ctx)
	case endPanic:
		info.status = shardIdle
		r.startShard(ctx, info, info.restarts.next())
		return true
	case endDenied:
		r.denied(ev.err.(*deniedError).op, ev.err)
		return false
	default: // endNotFound
		return r.rediscover(ctx, info, ev.err)
	}
}

// rediscover follows a ResourceNotFound on a shard: a full describe says
// whether the shard is still there (restart it after a pause), gone (read
// what replaced it), or the whole stream ended.
func (r *tableReader) rediscover(ctx context.Context, info *shardInfo, cause error) bool {
	r.logf("shard %s not found (%s); rediscovering", info.id, describeErr(cause))
	shards, status, err := r.t.streamShards(ctx, r.arn, nil)
	if err != nil {
		switch classify(ctx, err) {
		case faultCanceled:
			return false
		case faultNotFound:
			return r.streamGone(ctx)
		case faultDenied:
			r.denied("DescribeStream", err)
			return false
		}
		// Server trouble: try the same shard again later; its reader will
		// report what it finds.
		r.health.failed("", opDetail("DescribeStream", err))
		info.status = shardIdle
		r.startShard(ctx, info, info.restarts.next())
		return true
	}
	r.health.ok("")
	still := false
	for _, s := range shards {
		if aws.ToString(s.ShardId) == info.id {
			still = true
		}
	}
	if still {
		info.status = shardIdle
		r.startShard(ctx, info, info.restarts.next())
		r.merge(ctx, shards, "")
		return true
	}
	if streamEnded(status) {
		return r.streamGone(ctx)
	}
	info.status = shardDone
	r.adopt(info, shards)
	r.merge(ctx, shards, "")
	return true
}

// findChildren looks for the children of closed shards whose turn is due.
func (r *tableReader) findChildren(ctx context.Context) bool {
	now := time.Now()
	for id, w := range r.waiting {
		if w.due.After(now) {
			continue
		}
		found, ended, err := r.children(ctx, id)
		if err != nil {
			switch classify(ctx, err) {
			case faultCanceled:
				return false
			case faultNotFound:
				return r.streamGone(ctx)
			case faultDenied:
				r.denied("DescribeStream", err)
				return false
			}
			r.health.failed("", opDetail("DescribeStream", err))
			w.due = time.Now().Add(w.bo.next())
			continue
		}
		r.health.ok("")
		if found {
			delete(r.waiting, id)
			r.followed(id)
			continue
		}
		if ended {
			delete(r.waiting, id)
			if !r.streamGone(ctx) {
				return false
			}
			continue
		}
		// Children appear a moment after a parent closes: back off.
		w.due = time.Now().Add(w.bo.next())
	}
	return true
}

// followed counts a closed shard whose children are now read (or queued
// behind it) and tells a sink that wants to know.
func (r *tableReader) followed(parent string) {
	n := 0
	for _, info := range r.shards {
		if info.parent == parent {
			n++
		}
	}
	if n > 1 {
		r.lineage.Splits++
	} else {
		r.lineage.Rollovers++
	}
	r.lineage.Table, r.lineage.Last, r.lineage.Open = r.id, r.t.opts.Clock(), r.openShards()
	r.logf("shard %s followed into %d child(ren); %d rollover(s), %d split(s) so far",
		parent, n, r.lineage.Rollovers, r.lineage.Splits)
	if ls, ok := r.sink.(LineageSink); ok {
		ls.Lineage(r.lineage)
	}
}

// children asks for a closed shard's children: with ShardFilter
// CHILD_SHARDS when the server takes it, else (or when it returns none, in
// case the server ignored the filter) with a full describe.
func (r *tableReader) children(ctx context.Context, parent string) (found, ended bool, err error) {
	if !r.filterUnsupported {
		shards, status, ferr := r.t.streamShards(ctx, r.arn, &st.ShardFilter{Type: st.ShardFilterTypeChildShards, ShardId: aws.String(parent)})
		switch {
		case ferr == nil:
			if r.merge(ctx, shards, parent) {
				return true, false, nil
			}
			if streamEnded(status) {
				return false, true, nil
			}
		case isUnsupported(ferr):
			r.filterUnsupported = true
			r.logf("server does not support ShardFilter (%s); using full describes", describeErr(ferr))
		default:
			return false, false, ferr
		}
	}
	shards, status, err := r.t.streamShards(ctx, r.arn, nil)
	if err != nil {
		return false, false, err
	}
	if r.merge(ctx, shards, parent) {
		return true, false, nil
	}
	return false, streamEnded(status), nil
}
