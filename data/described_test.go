package data

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestUnmodeledIDsAndNames(t *testing.T) {
	tables, err := ResolveTables("dev", map[string]string{"sessions": "wc-sessions-blue"})
	if err != nil {
		t.Fatal(err)
	}
	if id := tables.IDFor("wc-sessions-blue"); id != TableSessions {
		t.Errorf("a modeled table's name maps to %q", id)
	}
	if id := tables.IDFor("orders"); id != UnmodeledID("orders") || !IsUnmodeled(id) || IsUnmodeled(TableSessions) {
		t.Errorf("an unmodeled name maps to %q", id)
	}
	if n := tables.Name(UnmodeledID("never-described")); n != "never-described" {
		t.Errorf("Name of an unregistered unmodeled id: %q", n)
	}
	if TableLabel(UnmodeledID("orders")) != "orders" || TableLabel(TableSessions) != "sessions" {
		t.Error("TableLabel")
	}
	// A description never overrides a declaration.
	RegisterSchema(TableSchema{ID: TableSessions, PK: KeyAttr{"other", TypeS}})
	if s, _ := Schema(TableSessions); s.PK.Name != "sessionId" {
		t.Errorf("a description replaced the sessions declaration: %+v", s.PK)
	}
}

func TestDescribedTableDecodesGenerically(t *testing.T) {
	// A name of its own per run: the registry is the process's, and a
	// second run (-count=2) must start from an undescribed table.
	name := fmt.Sprintf("described-decode-%d", describeRuns.Add(1))
	id := UnmodeledID(name)
	if Decode(id, Item{"k": S("a")}) != nil {
		t.Fatal("an undescribed table decoded")
	}
	RegisterSchema(TableSchema{ID: id, NameTemplate: name, PK: KeyAttr{"k", TypeS}, SK: &KeyAttr{"n", TypeN}})
	item := Item{"k": S("a\x1b[31m"), "n": N(7), "extra": S("x")}
	r := Decode(id, item)
	if r == nil || r.ID() != "a\x1b[31m · 7" || r.Table() != id || len(r.Issues()) != 0 || len(r.Key()) != 2 || len(r.Item()) != 3 {
		t.Fatalf("record %#v", r)
	}
	// Hostile and malformed keys decode without panic.
	for _, it := range []Item{nil, {}, {"k": N(1)}, {"k": &types.AttributeValueMemberNULL{Value: true}, "n": S("x")}, {"k": &types.AttributeValueMemberB{Value: []byte{0xff, 0}}}} {
		if r := Decode(id, it); r == nil {
			t.Errorf("%v: nil record", it)
		}
	}
	// Re-describing replaces.
	RegisterSchema(TableSchema{ID: id, NameTemplate: name, PK: KeyAttr{"k", TypeS}})
	if r := Decode(id, item); r.ID() != "a\x1b[31m" {
		t.Errorf("after re-describing: %q", r.ID())
	}
}

var describeRuns atomic.Int64

// TestRegisterSchemaConcurrently: registering while reading (go test
// -race finds what a lock missed).
func TestRegisterSchemaConcurrently(t *testing.T) {
	id := UnmodeledID("described-race")
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				RegisterSchema(TableSchema{ID: id, NameTemplate: "described-race", PK: KeyAttr{"k", TypeS},
					Indexes: []Index{{Name: "g", PK: KeyAttr{"g", TypeS}}}})
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if s, ok := Schema(id); ok {
					s.Indexes[0].Name = "mutated" // a copy: must not reach the registry
				}
				_ = Decode(id, Item{"k": S("x")})
			}
		}()
	}
	wg.Wait()
	if s, _ := Schema(id); s.Indexes[0].Name != "g" {
		t.Errorf("a reader's copy changed the registry: %+v", s.Indexes)
	}
}
