package data

import (
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The five services' files declare the ten tables, in the tab order the
// console always had, each with the typed record its Decode reads.
func TestTheServicesDeclareTheTenTablesInOrder(t *testing.T) {
	var got []TableID
	for _, d := range Descriptors() {
		got = append(got, d.Schema.ID)
		if d.Decode == nil {
			t.Errorf("%s has no typed record", d.Schema.ID)
		}
		if d.Described() {
			t.Errorf("%s is declared, yet says it was described", d.Schema.ID)
		}
	}
	want := []TableID{TableSessions, TableProjects, TableAPIKeys, TableContexts, TableGraphRuns,
		TableEvents, TableDelegations, TableSubscriptions, TableConsumers, TableSandboxes}
	if !slices.Equal(got, want) {
		t.Fatalf("declared %v, want %v", got, want)
	}
	for _, d := range Descriptors() {
		if r := Decode(d.Schema.ID, Item{}); r == nil || r.Table() != d.Schema.ID {
			t.Errorf("Decode(%s) = %#v", d.Schema.ID, r)
		}
	}
}

func gadgets() Descriptor {
	return Descriptor{
		Order: 60,
		Schema: TableSchema{ID: "gadgets", NameTemplate: "gadgets-{env}",
			PK: KeyAttr{"shop", TypeS}, SK: sk("n", TypeN),
			Attrs:   map[string]string{"shop": "S", "n": "N", "seen_ms": "N", "expires": "N"},
			TTLAttr: "expires"},
		Epoch: map[string]EpochUnit{"seen_ms": EpochMillis},
		Trouble: func(o Trouble, now time.Time) func(Item) (string, bool) {
			return func(it Item) (string, bool) {
				if strAttr(it, "shop") == "broken" {
					return "broken at " + now.Format("15:04"), true
				}
				return "", false
			}
		},
		Jumps: map[Jump]func(Item) (Scope, string, bool){
			JumpRelated: func(it Item) (Scope, string, bool) {
				return PartitionScope("gadgets", "", strAttr(it, "shop")), "the shop", true
			},
		},
	}
}

// A table declared by a descriptor alone is read by every central reader —
// the schemas (and so the demo and the stream reader), physical names,
// decoding, epoch units with its TTL, the trouble rule — and taking the
// declaration back leaves no trace.
func TestARegisteredDescriptorIsReadEverywhere(t *testing.T) {
	undo := Register(gadgets())
	if _, ok := Lookup("gadgets"); !ok {
		t.Fatal("not found after Register")
	}
	if ids := TableIDs(); !slices.Contains(ids, "gadgets") {
		t.Fatalf("TableIDs %v", ids)
	}
	if s := Schemas(); s[len(s)-1].ID != "gadgets" {
		t.Fatalf("Order 60 is not after the services' tables: %v", s[len(s)-1].ID)
	}
	tables, err := ResolveTables("prod", map[string]string{"gadgets": "shop-gadgets"})
	if err != nil || tables.Name("gadgets") != "shop-gadgets" {
		t.Fatalf("config override: %v %q", err, tables.Name("gadgets"))
	}
	item := Item{"shop": &types.AttributeValueMemberS{Value: "broken"}, "n": &types.AttributeValueMemberN{Value: "7"}}
	r := Decode("gadgets", item)
	if g, ok := r.(Generic); !ok || g.ID() != "broken · 7" || len(g.Key()) != 2 || g.Table() != "gadgets" {
		t.Fatalf("Decode = %#v", r)
	}
	if u := EpochAttrs("gadgets"); u["seen_ms"] != EpochMillis || u["expires"] != EpochSeconds || len(u) != 2 {
		t.Fatalf("EpochAttrs = %v", u)
	}
	now := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	if why, ok := (Trouble{}).Of("gadgets", item, now); !ok || why != "broken at 03:04" {
		t.Fatalf("Trouble = %q %v", why, ok)
	}
	if _, ok := (Trouble{}).Of("gadgets", Item{"shop": &types.AttributeValueMemberS{Value: "fine"}}, now); ok {
		t.Fatal("a fine gadget is in trouble")
	}
	d, _ := Lookup("gadgets")
	if sc, what, ok := d.Jumps[JumpRelated](item); !ok || what != "the shop" || sc.PKValue != "broken" || !sc.Matches(item) {
		t.Fatalf("jump: %+v %q %v", sc, what, ok)
	}
	gen := RegistryGeneration()
	undo()
	if RegistryGeneration() == gen {
		t.Fatal("taking a declaration back kept the generation")
	}
	if _, ok := Lookup("gadgets"); ok || slices.Contains(TableIDs(), "gadgets") || Decode("gadgets", item) != nil {
		t.Fatal("the declaration outlived its undo")
	}
	if len(Descriptors()) != 10 {
		t.Fatalf("%d descriptors after undo", len(Descriptors()))
	}
}

// A table DescribeTable told of is found, as generic, until a declaration
// of the same id wins; it is never one of the declared tables (the demo
// creates and the stream reader follows only those).
func TestDeclaredDescriptorsWinOverDescribedOnes(t *testing.T) {
	RegisterSchema(TableSchema{ID: "gadgets", PK: KeyAttr{"id", TypeS}})
	t.Cleanup(func() {
		described.Lock()
		delete(described.byID, "gadgets")
		described.Unlock()
	})
	d, ok := Lookup("gadgets")
	if !ok || !d.Described() || d.Schema.PK.Name != "id" {
		t.Fatalf("described: %+v %v", d, ok)
	}
	if slices.Contains(TableIDs(), "gadgets") {
		t.Fatal("a described table is listed among the declared ones")
	}
	undo := Register(gadgets())
	if d, _ := Lookup("gadgets"); d.Described() || d.Schema.PK.Name != "shop" {
		t.Fatalf("the declaration does not win: %+v", d.Schema)
	}
	RegisterSchema(TableSchema{ID: "gadgets", PK: KeyAttr{"other", TypeS}})
	if d, _ := Lookup("gadgets"); d.Schema.PK.Name != "shop" {
		t.Fatal("a description replaced a declaration")
	}
	undo()
	if d, _ := Lookup("gadgets"); !d.Described() {
		t.Fatal("the described table went with the declaration")
	}
}
