package data

import (
	"strconv"
	"time"
)

// Trouble is what the lists mark in a row: the same conditions the
// overview counts (the same scopes decide), so a marked row is one the
// overview's number includes.
type Trouble struct {
	ExpiringWithin time.Duration // sessions: RUNNING with TTL this close
	StaleRun       time.Duration // runs: PROCESSING/UPLOADED not updated for this long
	RetryMax       int           // events: failed with retry_count at or above it
}

// withDefaults fills zero fields as OverviewPlan does.
func (o Trouble) withDefaults() Trouble {
	p := OverviewPlan{ExpiringWithin: o.ExpiringWithin, StaleRun: o.StaleRun, RetryMax: o.RetryMax}.withDefaults()
	return Trouble{ExpiringWithin: p.ExpiringWithin, StaleRun: p.StaleRun, RetryMax: p.RetryMax}
}

// Of says whether an item of table is in trouble at now, and why in a few
// words ("expires within 15m", "PROCESSING, not updated for 30m",
// "retries exhausted (≥ 3)", "past its allocation window"). ok is false for
// a healthy item and for tables with no such condition.
func (o Trouble) Of(table TableID, item Item, now time.Time) (why string, ok bool) {
	return o.At(table, now).Of(item)
}

// TroubleCheck is Trouble.Of for one table at one moment, with what depends
// on nothing else worked out once: a list marks a page of a thousand rows
// with one check, not a thousand scopes built.
type TroubleCheck struct {
	o     Trouble
	table TableID
	now   time.Time
	// of is the table's rule (its descriptor's Trouble) at now; nil for a
	// table without one.
	of func(Item) (string, bool)
}

// At is the check of table's items at now.
func (o Trouble) At(table TableID, now time.Time) TroubleCheck {
	c := TroubleCheck{o: o.withDefaults(), table: table, now: now}
	if d, ok := Lookup(table); ok && d.Trouble != nil {
		c.of = d.Trouble(c.o, now)
	}
	return c
}

// Of says whether item is in trouble, and why (see Trouble.Of).
func (c TroubleCheck) Of(item Item) (why string, ok bool) {
	if c.of == nil {
		return "", false
	}
	return c.of(item)
}

// Same reports whether c is the check of table at now under rules o.
func (c TroubleCheck) Same(o Trouble, table TableID, now time.Time) bool {
	return c.table == table && c.now.Equal(now) && c.o == o.withDefaults()
}

func itoaInt(n int) string { return strconv.Itoa(n) }
