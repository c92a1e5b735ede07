package data

// Counting the overview's numbers: every Metric a Select=COUNT Query (a
// few at a time, each paginated up to a cap), never a Scan.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// CountOverview counts every metric of plan at now. Counts run a few at a
// time; one failing count sets its tally's Err and the rest go on.
func (s *Store) CountOverview(ctx context.Context, plan OverviewPlan, now time.Time) Overview {
	start := time.Now()
	ms := plan.Metrics(now)
	o := Overview{Plan: plan, At: now, Tallies: make([]Tally, len(ms))}
	sem := make(chan struct{}, countConcurrency)
	var wg sync.WaitGroup
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o.Tallies[i] = s.tally(ctx, m, plan.MaxPages, now)
		}()
	}
	wg.Wait()
	for _, t := range o.Tallies {
		o.Consumed += t.Consumed
	}
	o.Elapsed = time.Since(start)
	return o
}

// tally counts one metric (and, for a project's RUNNING count, reads its
// quota).
func (s *Store) tally(ctx context.Context, m Metric, maxPages int, now time.Time) Tally {
	t := Tally{Metric: m, CountedAt: now}
	c, err := s.CountMetric(ctx, m, maxPages)
	t.N, t.Consumed, t.Partial, t.Span, t.Err = c.N, c.Consumed, c.Partial, c.Span, err
	if err == nil && m.Key == MetricProjectRunning {
		sc := ProjectByID(m.Subject)
		it, found, used, err := s.getItem(ctx, sc.Table, sc.getKey())
		t.Consumed += used
		if err != nil {
			t.Err = err
		} else if found {
			if lim, ok := DecodeProject(it).Concurrency.Int64(); ok && lim > 0 {
				t.Limit, t.HasLimit = lim, true
			}
		}
	}
	return t
}

// CountMetric counts one metric: Select=COUNT of its scope, or, with a
// Test, a Query projecting the metric's Reads and the test applied to each
// item. maxPages caps the pages as Count does.
func (s *Store) CountMetric(ctx context.Context, m Metric, maxPages int) (c Count, err error) {
	if m.Test == nil {
		return s.Count(ctx, m.Scope, maxPages)
	}
	if m.Scope.Projection().Type != ProjectAll {
		return Count{}, fmt.Errorf("data: a tested count needs an index projecting ALL, not %s", m.Scope.Index)
	}
	c.Span = s.startSpan()
	defer func() { c.Span.To = time.Now() }()
	reads := append(MustSchema(m.Scope.Table).KeyNames(), m.Reads...)
	if ix, ok := m.Scope.index(); ok {
		reads = append(reads, ix.PK.Name)
		if ix.SK != nil {
			reads = append(reads, ix.SK.Name)
		}
	}
	slices.Sort(reads)
	reads = slices.Compact(reads)
	var cursor Cursor
	for pages := 1; ; pages++ {
		items, next, used, err := s.query(ctx, m.Scope, PageRequest{Limit: BulkPageItems, Cursor: cursor}, reads)
		c.Consumed += used
		if err != nil {
			return c, err
		}
		for _, it := range items {
			if m.In(it) {
				c.N++
			}
		}
		if cursor = next; cursor == nil {
			return c, nil
		}
		if maxPages > 0 && pages >= maxPages {
			c.Partial = true
			return c, nil
		}
	}
}
