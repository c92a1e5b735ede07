package data

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The scope constructors' common parts. Each access pattern the console
// reads (and each count it makes) is a constructor in its service's file
// (svc_*.go), beside the table's descriptor. Index and attribute names
// come from the schemas, so a schema change that renames an index breaks
// there, at the same place for the query, the count and the live tail.

// indexScope is a Query on index: partition key = pk, and when the index
// has a sort key and skPrefix is not empty, begins_with(sort key, skPrefix).
func indexScope(t TableID, index, pk, skPrefix string) Scope {
	ix, ok := MustSchema(t).Index(index)
	if !ok {
		panic("data: table " + string(t) + " has no index " + index)
	}
	s := Scope{Table: t, Index: index, PKAttr: ix.PK.Name, PKValue: pk}
	if ix.SK != nil {
		s.SKAttr = ix.SK.Name
		s.SKOp, s.SKValue = prefix(skPrefix)
	}
	return s
}

// baseScope is a Query on the base table: partition key = pk, and when the
// table has a sort key and skPrefix is not empty, begins_with on it.
func baseScope(t TableID, pk, skPrefix string) Scope {
	schema := MustSchema(t)
	s := Scope{Table: t, PKAttr: schema.PK.Name, PKValue: pk}
	if schema.SK != nil {
		s.SKAttr = schema.SK.Name
		s.SKOp, s.SKValue = prefix(skPrefix)
	}
	return s
}

// getScope is one item by its whole primary key (GetItem).
func getScope(t TableID, pk, sk string) Scope {
	schema := MustSchema(t)
	s := Scope{Table: t, PKAttr: schema.PK.Name, PKValue: pk}
	if schema.SK != nil {
		s.SKAttr, s.SKOp, s.SKValue = schema.SK.Name, SKEqual, sk
	}
	return s
}

// prefix is the sort-key condition of a prefix: none for "" (DynamoDB
// rejects begins_with on an empty string).
func prefix(p string) (SKOp, string) {
	if p == "" {
		return SKAny, ""
	}
	return SKBeginsWith, p
}

func labelled(s Scope, label string) Scope {
	s.Label = label
	return s
}

// PartitionScope is a Query of table t (or its index, when not "") by one
// partition key value, labelled with the key's name: the scope a declared
// pane lists by.
func PartitionScope(t TableID, index, pk string) Scope {
	var s Scope
	if index == "" {
		s = baseScope(t, pk, "")
	} else {
		s = indexScope(t, index, pk, "")
	}
	return labelled(s, s.PKAttr+" "+pk)
}

// KeyScope is one item of table t by its whole primary key (GetItem).
func KeyScope(t TableID, pk, sk string) Scope {
	s := getScope(t, pk, sk)
	label := pk
	if sk != "" {
		label += " · " + sk
	}
	return labelled(s, "item "+label)
}

// --- Jumps ------------------------------------------------------------------------

// ItemScope is the one item whose primary key item holds (GetItem): where a
// stream record's item is shown in its pane. ok is false when the key is
// incomplete or not strings.
func ItemScope(t TableID, item Item) (Scope, bool) {
	schema, ok := Schema(t)
	if !ok {
		return Scope{}, false
	}
	text := func(k *KeyAttr) (string, bool) {
		if k == nil {
			return "", true
		}
		v, ok := item[k.Name].(*types.AttributeValueMemberS)
		if !ok {
			return "", false
		}
		return v.Value, true
	}
	pk, okPK := text(&schema.PK)
	sk, okSK := text(schema.SK)
	if !okPK || !okSK || pk == "" {
		return Scope{}, false
	}
	label := pk
	if sk != "" {
		label += " · " + sk
	}
	return labelled(getScope(t, pk, sk), "item "+label), true
}
