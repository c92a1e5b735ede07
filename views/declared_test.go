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

// gizmos is a table declared by a descriptor alone: no presenter, no pane
// file. Its descriptor's pane is a tab after the modeled panes.
func gizmos() data.Descriptor {
	return data.Descriptor{
		Order: 60,
		Schema: data.TableSchema{ID: "gizmos", NameTemplate: "gizmos",
			PK:    data.KeyAttr{Name: "owner", Type: data.TypeS},
			SK:    &data.KeyAttr{Name: "gizmo", Type: data.TypeS},
			Attrs: map[string]string{"owner": "S", "gizmo": "S", "url": "S", "born": "N", "size": "N", "tags": "M"}},
		Epoch: map[string]data.EpochUnit{"born": data.EpochSeconds},
		Trouble: func(data.Trouble, time.Time) func(data.Item) (string, bool) {
			return func(it data.Item) (string, bool) {
				_, huge := it["size"].(*types.AttributeValueMemberN)
				return "sized", huge
			}
		},
		Pane: &data.PaneDecl{Name: "Gizmos", Short: "Giz", Key: "8", Command: "gizmos", ArgName: "owner",
			By: func(o string) data.Scope { return data.PartitionScope("gizmos", "", o) }},
	}
}

// A table with a declared pane and no presenter: the registry gains its
// tab between Sandboxes and Stream, with its command; the generic
// presenter shows the keys first, a unix time as a time, a number as a
// number, a map as JSON, the trouble rule's "!", and masks a credential
// like every list. Taking the declaration back takes the pane away.
func TestADeclaredTableGetsAPaneAndTheGenericPresenter(t *testing.T) {
	undo := data.Register(gizmos())
	var names []string
	for _, s := range Registry() {
		names = append(names, s.Name)
	}
	if i := slices.Index(names, "Gizmos"); i < 0 || names[i-1] != "Sandboxes" || names[i+1] != "Stream" {
		t.Fatalf("tabs %v", names)
	}
	spec, _ := Spec(declaredPane("gizmos"))
	if len(spec.Commands) != 1 || spec.Commands[0].Name != "gizmos" || spec.Commands[0].Usage != ":gizmos <owner>" {
		t.Fatalf("commands %+v", spec.Commands)
	}
	if id, ok := PaneOf("gizmos"); !ok || id != spec.ID {
		t.Fatalf("PaneOf = %q %v", id, ok)
	}

	pr := mustPresenter("gizmos")
	var titles []string
	for _, c := range pr.columns() {
		titles = append(titles, c.Title)
	}
	if want := []string{"owner", "gizmo", "born", "size", "tags", "url"}; !slices.Equal(titles, want) {
		t.Fatalf("columns %v, want %v", titles, want)
	}
	it := data.Item{
		"owner": &types.AttributeValueMemberS{Value: "o-1"}, "gizmo": &types.AttributeValueMemberS{Value: "g-1"},
		"url":  &types.AttributeValueMemberS{Value: "https://h.example/x?token=tok_Q7xV9kP2mW4rT8bN"},
		"born": &types.AttributeValueMemberN{Value: "1700000000"}, "size": &types.AttributeValueMemberN{Value: "12.5"},
		"tags": &types.AttributeValueMemberM{Value: data.Item{"a": &types.AttributeValueMemberBOOL{Value: true}}},
	}
	rec := data.Decode("gizmos", it)
	now := time.Unix(1700000000, 0).Add(3 * time.Hour)
	l := newList(orderCtx(), pr.pane, pr)
	row := l.render(rec, now, themes.Dark(), rowID("gizmos", it, 0))
	var cells []string
	for _, c := range row.Cells {
		cells = append(cells, c.Text)
	}
	if cells[0] != "o-1" || cells[1] != "g-1" || cells[2] != "3h ago" || cells[3] != "12.5" || cells[4] != `{"a":true}` {
		t.Fatalf("cells %q", cells)
	}
	if strings.Contains(cells[5], "tok_") || !strings.Contains(cells[5], "••••••") {
		t.Fatalf("the url's token is not masked: %q", cells[5])
	}
	if row.Tag != "!" {
		t.Fatalf("tag %q, want the trouble rule's !", row.Tag)
	}
	if rec.ID() != "o-1 · g-1" {
		t.Fatalf("id %q", rec.ID())
	}

	undo()
	if _, ok := Spec(spec.ID); ok {
		t.Fatal("the pane outlived its declaration")
	}
	if _, ok := presenterOf("gizmos"); ok {
		t.Fatal("the presenter outlived its declaration")
	}
}
