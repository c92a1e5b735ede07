package views

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/themes"
)

func genericSchema() data.TableSchema {
	return data.TableSchema{
		ID: data.UnmodeledID("ledger"), NameTemplate: "ledger",
		PK: data.KeyAttr{Name: "acct", Type: data.TypeS}, SK: &data.KeyAttr{Name: "entry", Type: data.TypeS},
		Indexes: []data.Index{{Name: "by-state", PK: data.KeyAttr{Name: "state", Type: data.TypeS}, SK: &data.KeyAttr{Name: "amount", Type: data.TypeN}}},
		TTLAttr: "expires",
	}
}

// The columns start from the keys (table, then index, then TTL) and grow
// by the attributes items bring, never reordering or dropping one.
func TestGenericColumnsKeysFirstThenSeen(t *testing.T) {
	c := newGenericCols(genericSchema())
	if want := []string{"acct", "entry", "state", "amount", "expires"}; !slices.Equal(c.attrs, want) {
		t.Fatalf("initial columns %v, want %v", c.attrs, want)
	}
	c2, grew := c.grow([]data.Item{{"acct": data.S("a"), "zeta": data.S("z"), "beta": data.S("b")}, {"alpha": data.S("x"), "beta": data.S("y")}})
	if !grew || !slices.Equal(c2.attrs[5:], []string{"beta", "zeta", "alpha"}) {
		t.Fatalf("grown columns %v", c2.attrs)
	}
	if _, again := c2.grow([]data.Item{{"beta": data.S("b")}}); again {
		t.Error("an item with no new attribute grew the columns")
	}
	big := data.Item{}
	for i := range 100 {
		big["a"+strings.Repeat("x", i)] = data.S("v")
	}
	c3, _ := c2.grow([]data.Item{big})
	if len(c3.attrs) != maxGenericColumns || !slices.Equal(c3.attrs[:8], c2.attrs) {
		t.Errorf("%d columns after a wide item (max %d), prefix %v", len(c3.attrs), maxGenericColumns, c3.attrs[:8])
	}
}

// A row's cells: scalars as text, numbers sorted as numbers, containers
// summarised, a secret by name masked whole (and by shape through
// maskedRows), an absent attribute "-".
func TestGenericRowCells(t *testing.T) {
	c, _ := newGenericCols(genericSchema()).grow([]data.Item{{"password": data.S("hunter2"), "tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{data.S("a"), data.S("b")}}, "url": data.S("https://u:p4ssw0rd@example.com/x")}})
	data.RegisterSchema(genericSchema())
	it := data.Item{
		"acct": data.S("a-1"), "entry": data.S("e-1"), "amount": &types.AttributeValueMemberN{Value: "12.5"},
		"password": data.S("hunter2"), "tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{data.S("a"), data.S("b")}},
		"url": data.S("https://u:p4ssw0rd@example.com/x"),
	}
	rec := data.Decode(data.UnmodeledID("ledger"), it)
	if rec == nil {
		t.Fatal("no generic record for a registered table")
	}
	row := maskedRows(c.row)(rec, time.Time{}, themes.Plain())
	cell := map[string]string{}
	for i, a := range c.attrs {
		cell[a] = row.Cells[i].Text
	}
	if cell["acct"] != "a-1" || cell["amount"] != "12.5" || cell["state"] != "-" || cell["tags"] != "[2]" || cell["password"] != secretMask {
		t.Errorf("cells %v", cell)
	}
	if strings.Contains(cell["url"], "p4ssw0rd") {
		t.Errorf("a URL's password shown: %q", cell["url"])
	}
	if n, ok := row.Cells[slices.Index(c.attrs, "amount")].SortKey(); !ok || n != 12.5 {
		t.Errorf("amount sorts by %v %v", n, ok)
	}
}
