// The Front's synthetic lineage: creating a stream's shard map, rolling it
// into a new generation (a rollover or a split), sequence numbers, and
// placing each real record in the open shard of its key. Split from front.go
// (the RoundTripper and its options) because this is the one part that
// invents shards; nothing here talks to the real server.

package streamtest

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"
)

// stream returns the lineage of the stream arn, creating it from the real
// server's description the first time. Called with f.mu held; it releases
// it around the real call.
func (f *Front) stream(ctx context.Context, arn string) (*fstream, *http.Response, error) {
	if s := f.streams[arn]; s != nil {
		return s, nil, nil
	}
	f.mu.Unlock()
	desc, shards, resp, err := f.realDescribe(ctx, arn)
	f.mu.Lock()
	if err != nil || resp != nil {
		return nil, resp, err
	}
	if s := f.streams[arn]; s != nil {
		return s, nil, nil
	}
	s := &fstream{arn: arn, desc: desc, byID: map[string]*fshard{}, genStart: time.Now()}
	_ = json.Unmarshal(desc["StreamStatus"], &s.status)
	for _, id := range shards {
		s.real = append(s.real, &realShard{id: id})
	}
	n := f.opts.InitialShards
	for i := 0; i < n; i++ {
		lo, hi := splitRange(0, math.MaxUint64, n, i)
		f.newShard(s, "", lo, hi, "1")
	}
	f.streams[arn] = s
	return s, nil, nil
}

// splitRange is part i of n of [lo, hi].
func splitRange(lo, hi uint64, n, i int) (uint64, uint64) {
	width := (hi - lo) / uint64(n)
	a := lo + uint64(i)*width
	b := a + width - 1
	if i == n-1 {
		b = hi
	}
	return a, b
}

func (f *Front) newShard(s *fstream, parent string, lo, hi uint64, startSeq string) *fshard {
	f.idSeq++
	sh := &fshard{id: fmt.Sprintf("shardId-%020d-%08x", 1763726400000+int64(f.idSeq), fnv32(s.arn)), parent: parent, lo: lo, hi: hi, startSeq: startSeq}
	s.shards = append(s.shards, sh)
	s.byID[sh.id] = sh
	s.open = append(s.open, sh)
	sort.Slice(s.open, func(i, j int) bool { return s.open[i].lo < s.open[j].lo })
	f.stats.Shards++
	return sh
}

func fnv32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// roll closes every open shard of s and opens its successors: one child
// with the same keys, or Split children sharing them. Called with f.mu held.
func (f *Front) roll(s *fstream) {
	if s.status == "DISABLED" || s.status == "DISABLING" {
		return
	}
	s.gen++
	split := f.opts.Split >= 2 && f.opts.SplitEvery > 0 && s.gen%f.opts.SplitEvery == 0 &&
		len(s.open)*f.opts.Split <= f.opts.MaxOpenShards
	old := s.open
	s.open = nil
	next := nextSeq(s)
	for _, p := range old {
		f.close(s, p)
		if split {
			for i := 0; i < f.opts.Split; i++ {
				lo, hi := splitRange(p.lo, p.hi, f.opts.Split, i)
				f.newShard(s, p.id, lo, hi, next)
			}
		} else {
			f.newShard(s, p.id, p.lo, p.hi, next)
		}
	}
	if split {
		f.stats.Splits++
	} else {
		f.stats.Rollovers++
	}
	s.genStart, s.genCount = time.Now(), 0
}

func (f *Front) close(s *fstream, sh *fshard) {
	sh.closed = true
	sh.endSeq = sh.startSeq
	if n := len(sh.recs); n > 0 {
		sh.endSeq = s.log[sh.recs[n-1]].seq
	}
}

// nextSeq is a sequence number above every record so far.
func nextSeq(s *fstream) string {
	if len(s.log) == 0 {
		return "1"
	}
	return addOne(s.log[len(s.log)-1].seq)
}

// addOne adds 1 to a decimal string.
func addOne(d string) string {
	b := []byte(strings.TrimLeft(d, "0"))
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// seqLess compares decimal sequence numbers.
func seqLess(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// append adds real records to the log, assigning each to the open shard of
// its key and rolling generations as their record count is reached. Called
// with f.mu held.
func (f *Front) append(s *fstream, recs []frec) {
	for _, r := range recs {
		if f.opts.RecordsPerGen > 0 && s.genCount >= f.opts.RecordsPerGen {
			f.roll(s)
		}
		s.log = append(s.log, r)
		i := sort.Search(len(s.open), func(i int) bool { return s.open[i].hi >= r.hash })
		if i == len(s.open) { // cannot happen: the open shards cover every hash
			i = len(s.open) - 1
		}
		s.open[i].recs = append(s.open[i].recs, len(s.log)-1)
		s.genCount++
		f.stats.Records++
	}
}

// pull reads what is new on the real server into s (at most every 20 ms)
// and applies the time-based generation. Called with f.mu held; it releases
