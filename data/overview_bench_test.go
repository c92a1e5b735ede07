package data_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
)

// BenchmarkOverviewRecount re-counts the overview of the demo world: every
// sandbox status, every session status, the expiring window, the quota of
// four projects, and the inbox and runs counts of six watched users — what
// the pane does on `r` and on its timer. Reports the reads' read capacity.
//
//	go test ./data/ -run '^$' -bench OverviewRecount -benchtime 20x
func BenchmarkOverviewRecount(b *testing.B) {
	ep := ddblocal.TestEndpoint(b)
	ctx := context.Background()
	conn, err := data.ConnectLocal(ctx, ep)
	if err != nil {
		b.Fatal(err)
	}
	base, _ := data.ResolveTables("dev", nil)
	tables := base.WithPrefix(fmt.Sprintf("ovb%d-", time.Now().UnixNano()%1e9))
	if err := demo.CreateTables(ctx, conn, tables, demo.CreateOptions{SkipTTL: true}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = demo.DeleteTables(context.Background(), conn, tables, demo.CreateOptions{}) })
	rep, err := demo.Seed(ctx, conn, tables, demo.SeedOptions{})
	if err != nil {
		b.Fatal(err)
	}
	users := append(append([]string(nil), rep.EventUsers...), rep.GraphUsers...)
	plan := data.OverviewPlan{Users: users[:min(len(users), 6)], Projects: rep.Projects[:min(len(rep.Projects), 4)], MaxPages: data.DefaultCountPages}
	st := data.NewStore(conn, tables)
	var rcu float64
	var tallies int
	b.ResetTimer()
	for b.Loop() {
		o := st.CountOverview(ctx, plan, time.Now())
		for _, t := range o.Tallies {
			if t.Err != nil {
				b.Fatalf("%s %s: %v", t.Key, t.Subject, t.Err)
			}
		}
		rcu, tallies = o.Consumed, len(o.Tallies)
	}
	b.ReportMetric(rcu, "RCU/recount")
	b.ReportMetric(float64(tallies), "counts/recount")
}
