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
// and completion offers the values of that kind seen so far.
type IDKind uint8

const (
	SeenNone      IDKind = iota // not completed from what was seen
	KindSession                 // :session <sessionId>
	KindProject                 // :sessions <projectId>
	KindRunUser                 // :runs <userId>
	KindRun                     // :run <runId>
	KindInboxUser               // :inbox <userId>
	KindEventType               // :inbox <userId> type=<prefix>
	KindAudience                // :delegations <audience>
	KindCustomer                // :subscriptions <customer>
	KindConsumer                // :consumers <consumer>
	KindSandbox                 // :sandboxes key=<idempotency key>
	KindTrack                   // :sandboxes track=<track>
	numKinds
)

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
	kinds [numKinds]recent
}

// recent is one kind's values, oldest first, without repeats.
type recent struct {
	vals []string
	at   map[string]bool
}

// NewSeen returns an empty index.
func NewSeen() *Seen { return &Seen{} }

// seenAttr is one attribute whose string value is an id of a kind.
type seenAttr struct {
	kind IDKind
	attr string
	// value turns the stored value into the id as commands take it (nil:
	// as stored).
	trim func(string) string
}

func (a seenAttr) value(v string) string {
	if a.trim == nil {
		return v
	}
	return a.trim(v)
}

// seenAttrs are the attributes of each table that hold ids a command
// takes. They are read straight from the items (a map lookup, no decode):
// every page of a load-all passes here, on the reading goroutine.
var seenAttrs = map[data.TableID][]seenAttr{
	data.TableSessions:      {{kind: KindSession, attr: "sessionId"}, {kind: KindProject, attr: "projectId"}},
	data.TableProjects:      {{kind: KindProject, attr: "projectId"}},
	data.TableAPIKeys:       {{kind: KindProject, attr: "projectId"}},
	data.TableContexts:      {{kind: KindProject, attr: "projectId"}},
	data.TableGraphRuns:     {{kind: KindRunUser, attr: "PK", trim: data.GraphRunUser}, {kind: KindRun, attr: "runId"}},
	data.TableEvents:        {{kind: KindInboxUser, attr: "user_id"}, {kind: KindEventType, attr: "event_type"}},
	data.TableDelegations:   {{kind: KindAudience, attr: "audience"}},
	data.TableSubscriptions: {{kind: KindCustomer, attr: "customer"}},
	data.TableConsumers:     {{kind: KindConsumer, attr: "consumer"}},
	data.TableSandboxes:     {{kind: KindSandbox, attr: "idempotency_key"}, {kind: KindTrack, attr: "allocated_to_track"}},
}

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
	var taken [numKinds]map[string]bool
	attrs := seenAttrs[t]
	for i := len(items) - 1; i >= 0; i-- {
		for _, a := range attrs {
			if len(taken[a.kind]) >= SeenPerKind {
				continue // this kind is full for this call: no lookup
			}
			v, ok := items[i][a.attr].(*types.AttributeValueMemberS)
			if !ok {
				continue // absent or of the wrong type: not an id to offer
			}
			val := a.value(v.Value)
			if taken[a.kind] == nil {
				taken[a.kind] = map[string]bool{}
			}
			if taken[a.kind][val] {
				continue
			}
			taken[a.kind][val] = true
			if Completable(val) {
				found = append(found, kv{a.kind, val})
			}
		}
	}
	if len(found) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(found) - 1; i >= 0; i-- { // oldest first
		s.kinds[found[i].k].add(found[i].v)
	}
}

// Add notes one value of kind k (a command's argument the operator typed
// and that found rows, say).
func (s *Seen) Add(k IDKind, v string) {
	if s == nil || k == SeenNone || k >= numKinds || !Completable(v) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kinds[k].add(v)
}

// Values are the values of kind k that start with prefix (case ignored),
// newest first, at most limit (0: all).
func (s *Seen) Values(k IDKind, prefix string, limit int) []string {
	if s == nil || k == SeenNone || k >= numKinds {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.kinds[k].vals
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
