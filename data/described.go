package data

import (
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Unmodeled tables: a table no pane models is browsed through the schema
// DescribeTable gives (catalog.go). Once registered here, everything that
// reads a schema by id — Schema, the Scope methods, Store.Page and Get,
// Tables.Name, Decode, the live tail — works for it as for a modeled
// table; its records are Generic (no typed fields, no problems).

// unmodeledPrefix starts every unmodeled table's id; no modeled id has a
// ':' so the two never collide.
const unmodeledPrefix = "table:"

// UnmodeledID is the id under which a table no pane models is known: its
// physical name behind "table:". Use Tables.IDFor to map a physical name
// to the modeled id where a pane models it.
func UnmodeledID(physical string) TableID { return TableID(unmodeledPrefix + physical) }

// IsUnmodeled reports whether id names a table through its physical name
// (UnmodeledID) rather than a modeled one.
func IsUnmodeled(id TableID) bool { return strings.HasPrefix(string(id), unmodeledPrefix) }

var described struct {
	sync.RWMutex
	byID map[TableID]TableSchema
}

// RegisterSchema makes a described table's schema (TableInfo.Schema)
// known under its ID, replacing what an earlier description said. It is
// safe for concurrent use. A schema whose ID is a modeled table's is
// ignored (the declaration wins), so is one without an ID or key.
func RegisterSchema(s TableSchema) {
	if s.ID == "" || s.PK.Name == "" || isModeled(s.ID) {
		return
	}
	s.Indexes = append([]Index(nil), s.Indexes...)
	described.Lock()
	if described.byID == nil {
		described.byID = map[TableID]TableSchema{}
	}
	described.byID[s.ID] = s
	described.Unlock()
}

// Described lists the registered unmodeled tables' ids (any order).
func Described() []TableID {
	described.RLock()
	defer described.RUnlock()
	out := make([]TableID, 0, len(described.byID))
	for id := range described.byID {
		out = append(out, id)
	}
	return out
}

func isModeled(id TableID) bool {
	_, ok := snapshot().byID[id]
	return ok
}

// describedSchema is Schema's answer for an id no declaration holds.
func describedSchema(id TableID) (TableSchema, bool) {
	described.RLock()
	s, ok := described.byID[id]
	described.RUnlock()
	if ok {
		s.Indexes = append([]Index(nil), s.Indexes...)
	}
	return s, ok
}

// unmodeledName is the physical name behind an unmodeled id, registered
// or not ("table:orders" is "orders").
func unmodeledName(id TableID) (string, bool) {
	if s, ok := describedSchema(id); ok && s.NameTemplate != "" {
		return s.NameTemplate, true
	}
	if IsUnmodeled(id) {
		return strings.TrimPrefix(string(id), unmodeledPrefix), true
	}
	return "", false
}

// IDFor is the id of a physical table name: the modeled table's where a
// pane models it in this env, else UnmodeledID(physical).
func (t Tables) IDFor(physical string) TableID {
	if id, ok := t.ByName(physical); ok {
		return id
	}
	return UnmodeledID(physical)
}

// Generic is the record of an unmodeled table: its keys and the raw item.
type Generic struct {
	Meta
	table TableID
	key   Item
	id    string
}

// Table is the record's table id.
func (g Generic) Table() TableID { return g.table }

// Key is the item's primary key as stored.
func (g Generic) Key() Item { return g.key }

// ID is the key's values, partition key first, joined by " · ". Raw
// tenant data: sanitise before it reaches the screen.
func (g Generic) ID() string { return g.id }

// decodeDescribed decodes an item of a registered unmodeled table; nil
// for an id nothing describes.
func decodeDescribed(id TableID, item Item) Record {
	s, ok := describedSchema(id)
	if !ok {
		return nil
	}
	key := KeyOf(id, item)
	parts := make([]string, 0, 2)
	for _, name := range s.KeyNames() {
		parts = append(parts, keyText(key[name]))
	}
	return Generic{Meta: Meta{Raw: item}, table: id, key: key, id: strings.Join(parts, " · ")}
}

// keyText is a key value as text: a string or number as stored, a binary
// in hex, anything else (a malformed item) by its type name.
func keyText(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value
	case *types.AttributeValueMemberN:
		return x.Value
	case *types.AttributeValueMemberB:
		const hex = "0123456789abcdef"
		b := make([]byte, 0, 2*len(x.Value))
		for _, c := range x.Value {
			b = append(b, hex[c>>4], hex[c&15])
		}
		return string(b)
	}
	return "(" + TypeName(v) + ")"
}
