package data

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Descriptor is everything the console knows about one table, declared in
// one place: the service's file (svc_*.go) registers one per table in
// init. The central readers — Schemas, Decode, EpochAttrs, Trouble, and in
// views the id index, the jumps and the panes — all read these, so a table
// added here needs no edit anywhere else in the package. A table no
// descriptor declares gets the generic one its DescribeTable answer builds
// (RegisterSchema, described.go): keys and indexes, a generic record, nothing else.
type Descriptor struct {
	Schema TableSchema
	// Noun is one item in words ("sandbox"), where the table id less its
	// final "s" is not ("sandboxe"): a confirmation counts "5 sandboxes".
	Noun string
	// Order places the table among the others (Schemas, tab order of
	// declared panes): the services' files number theirs by tens.
	Order int
	// Decode reads an item as the table's typed record; nil reads it as a
	// Generic record (keys, id and the raw item).
	Decode func(Item) Record
	// Epoch are the number attributes the table's document gives as unix
	// times, with their unit; the TTL attribute (seconds) is added from
	// the schema. An attribute not listed is never read as a time.
	Epoch map[string]EpochUnit
	// Trouble builds the table's trouble check (the lists' "!") for one
	// moment under rules: what depends only on the moment is worked out
	// once, the returned func is called per row. Nil: no trouble rule.
	Trouble func(rules Trouble, now time.Time) func(Item) (why string, ok bool)
	// IDs are the attributes whose string values are ids a command takes
	// (completion offers the values seen).
	IDs []IDAttr
	// Jumps are where a row leads (o: JumpRelated, the session's context:
	// JumpContext), each a scope of some table and a few words.
	Jumps map[Jump]func(Item) (s Scope, what string, ok bool)
	// Pane, when set, is a list pane the console builds for the table
	// from this declaration alone (views' declared pane).
	Pane *PaneDecl

	// described: built from DescribeTable, not declared.
	described bool
}

// Described reports whether d was built from DescribeTable rather than
// declared by a service file.
func (d Descriptor) Described() bool { return d.described }

// IDKind is what an id is, as the commands take it ("session", "track");
// completion offers the values of a kind seen so far. "" is none.
type IDKind string

// IDAttr is one attribute whose string value is an id of Kind. Trim turns
// the stored value into the id as commands take it (nil: as stored).
type IDAttr struct {
	Kind IDKind
	Attr string
	Trim func(string) string
}

// Jump names a jump from a row.
type Jump uint8

const (
	// JumpRelated: the row's project, track, user, type...
	JumpRelated Jump = iota + 1
	// JumpContext: a session's browser context.
	JumpContext
)

// PaneDecl is a list pane declared as data: a tab (Name, Short, Key) and
// a command (`:Command <arg>`) listing the table by the scope By builds
// from the argument; Lookup, when set, is `:LookupCommand <id>` showing
// one item. views serves it with its generic list pane and the table's
// presenter (or the generic one).
type PaneDecl struct {
	Name, Short, Key string
	Command          string
	// ArgName names the argument in the usage line ("account").
	ArgName string
	By      func(arg string) Scope
	// Seen is the kind of id the argument is (completion).
	Seen IDKind

	LookupCommand string
	LookupArg     string
	Lookup        func(id string) Scope
}

// registry is a snapshot replaced whole on every registration: readers
// (decoders on the goroutines that read pages) load it with one atomic
// read, never a lock.
type registry struct {
	declared []Descriptor // by Order
	byID     map[TableID]int
	gen      uint64
}

var (
	reg   atomic.Pointer[registry]
	regMu sync.Mutex // serialises writers
)

func snapshot() *registry {
	if r := reg.Load(); r != nil {
		return r
	}
	return &registry{}
}

// update replaces the registry with fn's edit of a copy.
func update(fn func(r *registry)) {
	regMu.Lock()
	defer regMu.Unlock()
	old := snapshot()
	r := &registry{declared: slices.Clone(old.declared), gen: old.gen + 1}
	fn(r)
	slices.SortStableFunc(r.declared, func(a, b Descriptor) int { return a.Order - b.Order })
	r.byID = make(map[TableID]int, len(r.declared))
	for i, d := range r.declared {
		r.byID[d.Schema.ID] = i
	}
	reg.Store(r)
}

// Register declares a table (the services' files call it in init). It
// returns the way to take the declaration back, for a test that declares a
// table of its own. A second declaration of an id replaces the first.
func Register(d Descriptor) (unregister func()) {
	if d.Schema.ID == "" {
		panic("data: a descriptor without a table id")
	}
	id := d.Schema.ID
	d.described = false
	update(func(r *registry) {
		r.declared = slices.DeleteFunc(r.declared, func(x Descriptor) bool { return x.Schema.ID == id })
		r.declared = append(r.declared, d)
	})
	return func() {
		update(func(r *registry) {
			r.declared = slices.DeleteFunc(r.declared, func(x Descriptor) bool { return x.Schema.ID == id })
		})
	}
}

// Lookup is the descriptor of table id: the declared one first, then one
// built from DescribeTable.
func Lookup(id TableID) (Descriptor, bool) {
	r := snapshot()
	if i, ok := r.byID[id]; ok {
		return r.declared[i], true
	}
	if s, ok := describedSchema(id); ok {
		return Descriptor{Schema: s, described: true}, true
	}
	return Descriptor{}, false
}

// Descriptors are the declared tables, in order.
func Descriptors() []Descriptor { return slices.Clone(snapshot().declared) }

// RegistryGeneration changes whenever a descriptor is registered or taken
// back: what a reader builds from the declared descriptors (views' panes)
// may be kept until then.
func RegistryGeneration() uint64 { return snapshot().gen }

// declaredGeneric is item as a Generic record of a declared table whose
// descriptor has no typed record.
func declaredGeneric(id TableID, s TableSchema, item Item) Record {
	key := KeyOf(id, item)
	parts := make([]string, 0, 2)
	for _, name := range s.KeyNames() {
		parts = append(parts, keyText(key[name]))
	}
	return Generic{Meta: Meta{Raw: item}, table: id, key: key, id: strings.Join(parts, " · ")}
}
