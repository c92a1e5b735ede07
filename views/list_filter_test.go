package views

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// TestAttributeFilterFollowsChanges: a filter on an attribute that is no
// column reads the kept items (cached per row); a live change to a row is
// filtered by its new value, and a reload by the reloaded items.
func TestAttributeFilterFollowsChanges(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	p := NewSessions(c, "", data.SessionRunning)
	p.SetSize(120, 38)
	p.Init()
	l := p.active()
	var recs []data.Record
	var items []data.Item
	for it := range demo.SampleSessions(250, now) {
		it["status"] = &types.AttributeValueMemberS{Value: data.SessionRunning}
		it["note"] = &types.AttributeValueMemberS{Value: "plain"}
		recs, items = append(recs, data.DecodeSession(it)), append(items, it)
	}
	p.Update(pageMsg{pane: PaneSessions, req: l.ld.req, fresh: true, res: fetched{recs: recs}})
	if got := l.table.Len(); got != 250 {
		t.Fatalf("loaded %d", got)
	}
	if err := p.SetFilter("note=special"); err != nil {
		t.Fatal(err)
	}
	if v := p.Status().Visible; v != 0 {
		t.Fatalf("note=special shows %d rows before any change", v)
	}
	changed := items[170]
	changed["note"] = &types.AttributeValueMemberS{Value: "special"}
	p.Apply([]Change{{Table: data.TableSessions, Event: "MODIFY", Keys: data.Item{"sessionId": changed["sessionId"]}, New: changed}})
	if it, ok := l.getItem(rowID(data.TableSessions, changed, -1)); !ok || it["note"].(*types.AttributeValueMemberS).Value != "special" {
		t.Fatalf("the change was not kept: %v %v; scope matches %v", ok, it["note"], l.scope.Matches(changed))
	}
	if v := p.Status().Visible; v != 1 {
		t.Fatalf("after the change note=special shows %d rows, want 1", v)
	}
	if err := p.SetFilter("note!=special"); err != nil {
		t.Fatal(err)
	}
	if v := p.Status().Visible; v != 249 {
		t.Fatalf("note!=special shows %d rows, want 249", v)
	}
	if err := p.SetFilter("nosuchattr=x"); err == nil {
		t.Fatal("a field no row has was accepted")
	}
}
