package views

import (
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
)

// IDKind is what a seen value is, as the commands take it. A command's
// argument or option declares its kind (CommandSpec.Seen, OptSpec.Seen)
// and completion offers the values of that kind seen so far. The kinds are
// declared with the tables' descriptors (data.IDAttr: data.KindSession,
// data.KindTrack, …), which say which attributes hold them.
type IDKind = data.IDKind

// SeenNone: an argument not completed from what was seen.
const SeenNone IDKind = ""

// SeenPerKind bounds what is kept of each kind: the most recently seen.
const SeenPerKind = 500

// maxItemsPerCall bounds the items one page or scan adds: a scan of 100k
// items adds its first ones, not a hundred thousand decodes.
const maxItemsPerCall = 2000

// Seen is the ids the console has read (pages, scans, stream records), by
// kind, newest last, for completion. A value that carries a credential (a
// token used as an id) is never kept: completion would show it in clear. Safe for concurrent use: the store reports from
// the goroutines that read.
type Seen struct {
	mu    sync.Mutex
	kinds map[IDKind]*recent
}

// recent is one kind's values, oldest first, without repeats.
type recent struct {
	vals []string
	at   map[string]bool
}

// NewSeen returns an empty index.
func NewSeen() *Seen { return &Seen{} }

// Items notes the ids in items of table t (a data.Store OnItems hook).
func (s *Seen) Items(t data.TableID, items []data.Item) {
	if s == nil {
		return
	}
	if len(items) > maxItemsPerCall {
		items = items[:maxItemsPerCall]
	}
	// Newest first, each value once per kind, at most what a kind keeps:
	// a page of a thousand sessions of one project adds that project
	// once, and the masker looks at each value once.
	type kv struct {
		k IDKind
		v string
	}
	var found []kv
	d, _ := data.Lookup(t)
	attrs := d.IDs
	if len(attrs) == 0 {
		return
	}
	// taken is by slot, not by kind: a slice index per attribute and item
	// where a map of kinds would hash the kind's name each time. Two
	// attributes of one kind share a slot.
	slot := make([]int, len(attrs))
	for i, a := range attrs {
		slot[i] = slices.IndexFunc(attrs[:i+1], func(b data.IDAttr) bool { return b.Kind == a.Kind })
	}
	taken := make([]map[string]bool, len(attrs))
	for i := len(items) - 1; i >= 0; i-- {
		for j, a := range attrs {
			seen := taken[slot[j]]
			if len(seen) >= SeenPerKind {
				continue // this kind is full for this call: no lookup
			}
			v, ok := items[i][a.Attr].(*types.AttributeValueMemberS)
			if !ok {
				continue // absent or of the wrong type: not an id to offer
			}
			val := v.Value
			if a.Trim != nil {
				val = a.Trim(val)
			}
			if seen == nil {
				seen = map[string]bool{}
				taken[slot[j]] = seen
			}
			if seen[val] {
				continue
			}
			seen[val] = true
			if Completable(val) {
				found = append(found, kv{a.Kind, val})
			}
		}
	}
	if len(found) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(found) - 1; i >= 0; i-- { // oldest first
		s.kind(found[i].k).add(found[i].v)
	}
}

// Add notes one value of kind k (a command's argument the operator typed
// and that found rows, say).
func (s *Seen) Add(k IDKind, v string) {
	if s == nil || k == SeenNone || !Completable(v) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kind(k).add(v)
}

// kind is k's values, made on first use. s.mu is held.
func (s *Seen) kind(k IDKind) *recent {
	r := s.kinds[k]
	if r == nil {
		if s.kinds == nil {
			s.kinds = map[IDKind]*recent{}
		}
		r = &recent{}
		s.kinds[k] = r
	}
	return r
}

// Values are the values of kind k that start with prefix (case ignored),
// newest first, at most limit (0: all).
func (s *Seen) Values(k IDKind, prefix string, limit int) []string {
	if s == nil || k == SeenNone {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rk := s.kinds[k]
	if rk == nil {
		return nil
	}
	r := rk.vals
	r = r[max(len(r)-SeenPerKind, 0):]
	var out []string
	p := strings.ToLower(prefix)
	for i := len(r) - 1; i >= 0; i-- {
		if strings.HasPrefix(strings.ToLower(r[i]), p) {
			out = append(out, r[i])
			if limit > 0 && len(out) == limit {
				break
			}
		}
	}
	return out
}

func (r *recent) add(v string) {
	if r.at == nil {
		r.at = map[string]bool{}
	}
	if r.at[v] {
		// Seen again: it moves to the newest end.
		if i := slices.Index(r.vals, v); i >= 0 {
			r.vals = append(r.vals[:i], r.vals[i+1:]...)
		}
	}
	r.vals = append(r.vals, v)
	r.at[v] = true
	// Up to half as many again are kept before the oldest are dropped,
	// so dropping is paid once per SeenPerKind/2 values, not per value;
	// Values offers the newest SeenPerKind.
	if len(r.vals) > SeenPerKind+SeenPerKind/2 {
		drop := len(r.vals) - SeenPerKind
		for _, old := range r.vals[:drop] {
			delete(r.at, old)
		}
		r.vals = slices.Clone(r.vals[drop:])
	}
}

// Completable: a value completion may offer — not empty, not longer than
// the command line, and nothing the secret masker would hide (completion
// would show a token used as an id in clear). Control and invisible
// characters are fine: the command line draws them inert, and completion
// is the way to reach an id that cannot be typed.
func Completable(v string) bool {
	if v == "" || len(v) > maxCompletable {
		return false
	}
	_, masked := secret.Text(v)
	return !masked
}

// maxCompletable is the command line's limit (ui's lineedit).
const maxCompletable = 512
