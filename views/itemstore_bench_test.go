package views

import (
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo"
)

// BenchmarkPutPage keeps pages of 100 demo sessions the way a list keeps
// each page that arrives (putPage: encode, compress as one block), which is
// most of what the console does per row while loading all of a project. It
// reports the time and the kept bytes per item.
//
//	go test ./views/ -run '^$' -bench PutPage -benchmem
func BenchmarkPutPage(b *testing.B) {
	const page, pages = 100, 20
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	var ids [][]string
	var items [][]data.Item
	i := 0
	for it := range demo.SampleSessions(page*pages, now) {
		if i%page == 0 {
			ids, items = append(ids, nil), append(items, nil)
		}
		p := len(ids) - 1
		ids[p] = append(ids[p], rowID(data.TableSessions, it, i))
		items[p] = append(items[p], it)
		i++
	}
	var l list
	kept, n := 0, 0
	for b.Loop() {
		l.resetItems(0)
		for p := range ids {
			l.putPage(ids[p], items[p])
		}
		for _, pk := range l.blocks.packs {
			kept += len(pk.z)
		}
		n += page * pages
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/item")
	b.ReportMetric(float64(kept)/float64(n), "keptB/item")
}
