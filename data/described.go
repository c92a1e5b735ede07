package data

import (
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Described tables: a table no descriptor declares is known by the schema
// DescribeTable gives. Once registered here, Lookup finds it (after the
// declared descriptors), and everything that reads a schema by id —
// Schema, the Scope methods, Store.Page and Get, Decode, the live tail —
// works for it as for a declared table; its records are Generic (no typed
// fields, no problems).

var described struct {
	sync.RWMutex
	byID map[TableID]TableSchema
}

// RegisterDescribed makes a described table's schema known under its ID,
// replacing what an earlier description said. It is safe for concurrent
// use. A schema whose ID a descriptor declares is ignored (the declaration
// wins), so is one without an ID or key.
func RegisterDescribed(s TableSchema) {
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

// describedSchema is Lookup's answer for an id no declaration holds.
func describedSchema(id TableID) (TableSchema, bool) {
	described.RLock()
	s, ok := described.byID[id]
	described.RUnlock()
	if ok {
		s.Indexes = append([]Index(nil), s.Indexes...)
	}
	return s, ok
}

// Generic is the record of a table without a typed record (a declared
// table whose descriptor has no Decode, a described table): its keys and
// the raw item.
type Generic struct {
	Meta
	table TableID
	key   Item
	id    string
}

// Table is the record's table id.
func (g *Generic) Table() TableID { return g.table }

// Key is the item's primary key as stored.
func (g *Generic) Key() Item { return g.key }

// ID is the key's values, partition key first, joined by " / ". Raw
// tenant data: sanitise before it reaches the screen.
func (g *Generic) ID() string { return g.id }

// decodeDescribed decodes an item of a registered described table; nil
// for an id nothing describes.
func decodeDescribed(id TableID, item Item) Record {
	s, ok := describedSchema(id)
	if !ok {
		return nil
	}
	return newGeneric(id, s, item)
}

// newGeneric is item as a Generic record of table id, whose schema is s.
func newGeneric(id TableID, s TableSchema, item Item) *Generic {
	key := make(Item, 2)
	parts := make([]string, 0, 2)
	for _, name := range s.KeyNames() {
		if v, ok := item[name]; ok && v != nil {
			key[name] = v
		}
		parts = append(parts, keyText(key[name]))
	}
	return &Generic{Meta: Meta{Raw: item}, table: id, key: key, id: strings.Join(parts, " / ")}
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
