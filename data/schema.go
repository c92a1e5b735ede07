package data

import (
	"fmt"
	"sort"
	"strings"
)

// The schemas are the single description of every table opsdeck knows,
// each declared with the rest of its table's descriptor in its service's
// file (svc_*.go). The demo creates its tables from them and the queries
// read key and index names from them, so the two cannot drift apart. They
// follow ../shared/seeds exactly; where a seed is vague, docs/SCHEMAS.md
// records what we chose.

// TableID is the logical name of a table, stable across environments. It is
// also the key used in the config file's `tables:` map.
type TableID string

// AttrType is a DynamoDB scalar type usable in a key.
type AttrType string

const (
	TypeS AttrType = "S"
	TypeN AttrType = "N"
	TypeB AttrType = "B"
)

// KeyAttr names one key attribute and its type.
type KeyAttr struct {
	Name string
	Type AttrType
}

// ProjectionType mirrors DynamoDB's index projection types.
type ProjectionType string

const (
	ProjectAll      ProjectionType = "ALL"
	ProjectKeysOnly ProjectionType = "KEYS_ONLY"
	ProjectInclude  ProjectionType = "INCLUDE"
)

// Projection is what a GSI copies from the base item.
type Projection struct {
	Type   ProjectionType
	NonKey []string // only for INCLUDE
}

// Index is a global secondary index, or a local one when Local is set
// (its partition key is the table's).
type Index struct {
	Name       string
	PK         KeyAttr
	SK         *KeyAttr // nil when the index has no sort key
	Projection Projection
	Local      bool
}

// StreamView mirrors DynamoDB's StreamViewType; empty means no stream.
type StreamView string

const (
	StreamNone      StreamView = ""
	StreamKeysOnly  StreamView = "KEYS_ONLY"
	StreamNewImage  StreamView = "NEW_IMAGE"
	StreamOldImage  StreamView = "OLD_IMAGE"
	StreamNewAndOld StreamView = "NEW_AND_OLD_IMAGES"
)

// TableSchema is the declarative description of one table.
type TableSchema struct {
	ID           TableID
	Service      string // the service that owns the table, for humans
	NameTemplate string // physical name; "{env}" is replaced by the environment
	PK           KeyAttr
	SK           *KeyAttr
	// Attrs lists the documented attributes and their DynamoDB types
	// (S, N, BOOL, M, L, ...). Used for tolerant decoding and for docs.
	Attrs   map[string]string
	Indexes []Index
	Stream  StreamView
	TTLAttr string // empty when the table has no TTL
}

// Index returns the named GSI.
func (s TableSchema) Index(name string) (Index, bool) {
	for _, ix := range s.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return Index{}, false
}

// KeyNames returns the base table's key attribute names, partition key first.
func (s TableSchema) KeyNames() []string {
	if s.SK == nil {
		return []string{s.PK.Name}
	}
	return []string{s.PK.Name, s.SK.Name}
}

func sk(name string, t AttrType) *KeyAttr { return &KeyAttr{Name: name, Type: t} }

// AttemptAttr is written by every opsdeck transition: a token of the attempt,
// by which a write whose response was lost is recognised (docs/ACTIONS.md).
// It is documented on the four tables opsdeck writes to, so it is not
// flagged as unknown.
const AttemptAttr = "opsdeck_attempt"

// Schemas returns every declared table's description, in the
// descriptors' order.
func Schemas() []TableSchema {
	r := snapshot()
	out := make([]TableSchema, len(r.declared))
	for i, d := range r.declared {
		out[i] = d.Schema
	}
	return out
}

// Schema returns the description of one table: declared, or built from
// DescribeTable.
func Schema(id TableID) (TableSchema, bool) {
	d, ok := Lookup(id)
	return d.Schema, ok
}

// MustSchema is Schema for ids that are compile-time constants of this package.
func MustSchema(id TableID) TableSchema {
	s, ok := Schema(id)
	if !ok {
		panic("data: unknown table id " + string(id))
	}
	return s
}

// TableIDs lists every known logical table id, sorted.
func TableIDs() []TableID {
	ids := make([]TableID, 0, len(snapshot().declared))
	for _, s := range Schemas() {
		ids = append(ids, s.ID)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// Tables maps logical table ids to physical table names for one environment.
type Tables struct {
	Env   string
	names map[TableID]string
}

// ResolveTables fills each template with env and then applies overrides
// (from the config file's `tables:` map). An override for an unknown id is an
// error, so a typo in the config is never silently ignored.
func ResolveTables(env string, overrides map[string]string) (Tables, error) {
	if env == "" {
		env = "dev"
	}
	t := Tables{Env: env, names: map[TableID]string{}}
	for _, s := range Schemas() {
		t.names[s.ID] = strings.ReplaceAll(s.NameTemplate, "{env}", env)
	}
	for k, v := range overrides {
		id := TableID(k)
		if _, ok := t.names[id]; !ok {
			return Tables{}, fmt.Errorf("unknown table %q (known: %s)", k, joinIDs(TableIDs()))
		}
		if len(v) < 3 || len(v) > 255 {
			return Tables{}, fmt.Errorf("table %q: physical name %q must be 3 to 255 characters", k, v)
		}
		t.names[id] = v
	}
	return t, nil
}

// WithPrefix returns a copy whose physical names all start with prefix. Tests
// use it to give each test its own set of tables on one shared server.
func (t Tables) WithPrefix(prefix string) Tables {
	out := Tables{Env: t.Env, names: make(map[TableID]string, len(t.names))}
	for id, n := range t.names {
		out.names[id] = prefix + n
	}
	return out
}

// Name returns the physical table name for id.
func (t Tables) Name(id TableID) string {
	if n, ok := t.names[id]; ok {
		return n
	}
	if n, ok := unmodeledName(id); ok {
		return n
	}
	// A zero Tables still answers with the default template for dev.
	s := MustSchema(id)
	return strings.ReplaceAll(s.NameTemplate, "{env}", "dev")
}

// ByName finds the logical id of a physical table name.
func (t Tables) ByName(physical string) (TableID, bool) {
	for id, n := range t.names {
		if n == physical {
			return id, true
		}
	}
	return "", false
}

func joinIDs(ids []TableID) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = string(id)
	}
	return strings.Join(parts, ", ")
}
