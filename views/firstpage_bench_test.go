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

// BenchmarkFirstPage is the console's share of the first rows: a page of
// 100 demo sessions (decoded, as the page's command hands them over)
// applied to a fresh Sessions pane, then one frame of it — what stands
// between the first page's answer and the first rows on screen.
//
//	go test ./views/ -run '^$' -bench FirstPage -benchmem
func BenchmarkFirstPage(b *testing.B) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	var recs []data.Record
	for it := range demo.SampleSessions(100, now) {
		recs = append(recs, data.DecodeSession(it))
	}
	next := data.Cursor{"sessionId": &types.AttributeValueMemberS{Value: "x"}}
	for b.Loop() {
		c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
		p := NewSessions(c, "", data.SessionRunning)
		p.SetSize(160, 44)
		p.Init()
		l := p.active()
		p.Update(pageMsg{pane: PaneSessions, req: l.ld.req, fresh: true, res: fetched{recs: recs, next: next}})
		_ = p.View()
		if l.table.Len() != len(recs) {
			b.Fatalf("%d rows", l.table.Len())
		}
	}
}
