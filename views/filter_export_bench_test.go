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

// loaded100k is a Sessions pane holding 100k demo sessions, loaded page by
// page as the console does.
func loaded100k(b *testing.B) *Sessions {
	b.Helper()
	const rows, page = 100_000, 100
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	p := NewSessions(c, "", data.SessionRunning)
	p.SetSize(120, 38)
	p.Init()
	l := p.active()
	recs := make([]data.Record, 0, page)
	sent := 0
	for it := range demo.SampleSessions(rows, now) {
		recs = append(recs, data.DecodeSession(it))
		if len(recs) == page {
			var next data.Cursor
			if sent+page < rows {
				next = data.Cursor{"sessionId": &types.AttributeValueMemberS{Value: "x"}}
			}
			p.Update(pageMsg{pane: PaneSessions, req: l.ld.req, fresh: sent == 0, res: fetched{recs: recs, next: next}})
			sent += page
			recs = make([]data.Record, 0, page)
		}
	}
	if got := l.table.Len(); got != rows {
		b.Fatalf("loaded %d rows", got)
	}
	return p
}

// BenchmarkFilter100k applies one filter expression to 100k loaded rows
// (what one keystroke in the filter line costs at worst: a rebuild of the
// view). A column field reads the row's cells; an attribute field reads
// the kept item (decompressing its block) and masks it.
//
//	go test ./views/ -run '^$' -bench Filter100k -benchtime 5x
func BenchmarkFilter100k(b *testing.B) {
	p := loaded100k(b)
	for _, expr := range []string{"running", "status=RUNNING", "!RUNNING ~^sess_", "internalStatus=READY"} {
		b.Run(expr, func(b *testing.B) {
			for b.Loop() {
				if err := p.SetFilter(expr); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				_ = p.SetFilter("")
				b.StartTimer()
			}
			_ = p.SetFilter(expr)
			b.ReportMetric(float64(p.Status().Visible), "rowsShown")
			_ = p.SetFilter("")
		})
	}
}

// BenchmarkExportRows100k gathers every row of 100k for :export (in
// Update, before the steps write them): the kept items block by block,
// each row's cells.
func BenchmarkExportRows100k(b *testing.B) {
	p := loaded100k(b)
	for b.Loop() {
		set, err := p.ExportRows()
		if err != nil || set.Len() != 100_000 || len(set.Records(0, 2000)) != 2000 {
			b.Fatalf("%d records, %v", set.Len(), err)
		}
	}
}
