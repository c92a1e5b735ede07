package data

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one DynamoDB item exactly as the SDK returns it.
type Item = map[string]types.AttributeValue

// Problem records one way an item differs from its documented shape. The
// value itself is never altered or dropped: it stays in Meta.Raw, and the
// typed field holds the best reading we could make of it (or its zero value).
type Problem struct {
	Attr string // attribute name, as stored
	Want string // what the schema documents: "S", "N", "ISO8601 or unix seconds", ...
	Got  string // what was found: a DynamoDB type name, or "missing"
	Note string // one human sentence, e.g. "numeric time accepted as unix seconds"
}

// String renders a problem on one line for status bars and logs.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Attr)
	if p.Want != "" || p.Got != "" {
		b.WriteString(": want ")
		b.WriteString(orDash(p.Want))
		b.WriteString(", got ")
		b.WriteString(orDash(p.Got))
	}
	if p.Note != "" {
		if b.Len() > len(p.Attr) {
			b.WriteString(" (")
			b.WriteString(p.Note)
			b.WriteString(")")
		} else {
			b.WriteString(": ")
			b.WriteString(p.Note)
		}
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Meta is embedded in every record. Raw is the item as read (shared, not
// copied: treat it as read-only) so the detail view can show every attribute,
// including ones the typed fields do not know about.
type Meta struct {
	Raw      Item
	Problems []Problem

	unreadable []string // attributes present but without a reading
}

// Unreadable reports whether attr is present in the item but could not be
// read as its documented type (a time that is not a time, a count that is
// not a number): its typed field then holds a zero value that must not be
// shown as meaning something ("never", "0").
func (m Meta) Unreadable(attr string) bool {
	for _, a := range m.unreadable {
		if a == attr {
			return true
		}
	}
	return false
}

// Item returns the raw item the record was decoded from.
func (m Meta) Item() Item { return m.Raw }

// Issues returns what decoding found odd about the item (nil when nothing).
func (m Meta) Issues() []Problem { return m.Problems }

// Record is what every typed record has in common. The UI's generic detail
// view and the action layer work through it.
type Record interface {
	Table() TableID
	// Key is the item's primary key, copied verbatim from Raw, suitable for
	// GetItem, BatchGetItem, UpdateItem and DeleteItem.
	Key() Item
	// ID is a short human identifier (a session id, a sandbox id, ...).
	ID() string
	Item() Item
	Issues() []Problem
}

// Decode decodes item as a record of the given table: its descriptor's
// typed record, or a Generic one for a table without (a declared table
// with no typed record, a described table).
// Unknown table ids give nil. It never panics.
func Decode(id TableID, item Item) Record {
	r := snapshot()
	if i, ok := r.byID[id]; ok {
		if d := r.declared[i]; d.Decode != nil {
			return d.Decode(item)
		}
		return declaredGeneric(id, r.declared[i].Schema, item)
	}
	return decodeDescribed(id, item) // a table read with DescribeTable (described.go)
}

// strAttr is a string attribute's value ("" when absent or of another
// type): what the descriptors' jumps and rules read ids from.
func strAttr(item Item, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// KeyOf extracts the primary key of a table from any item that carries it
// (a base item, an index item, a stream image). Attributes are copied as
// stored, whatever their type, so even a malformed row can be addressed.
// Missing key attributes are simply absent from the result.
func KeyOf(id TableID, item Item) Item {
	s, ok := Schema(id)
	if !ok {
		return nil
	}
	key := make(Item, 2)
	for _, name := range s.KeyNames() {
		if v, ok := item[name]; ok && v != nil {
			key[name] = v
		}
	}
	return key
}
