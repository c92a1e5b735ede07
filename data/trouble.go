package data

import (
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
	// expiring: the sessions' scope, built once.
	expiring    Scope
	expiringWhy string
	past        Metric
}

// At is the check of table's items at now.
func (o Trouble) At(table TableID, now time.Time) TroubleCheck {
	c := TroubleCheck{o: o.withDefaults(), table: table, now: now}
	switch table {
	case TableSessions:
		c.expiring = SessionsExpiring(now, c.o.ExpiringWithin)
		c.expiringWhy = "expires within " + shortDuration(c.o.ExpiringWithin)
	case TableSandboxes:
		c.past = SandboxesPastWindow(now)
	}
	return c
}

// Of says whether item is in trouble, and why (see Trouble.Of).
func (c TroubleCheck) Of(item Item) (why string, ok bool) {
	switch c.table {
	case TableSessions:
		if c.expiring.Matches(item) {
			return c.expiringWhy, true
		}
	case TableGraphRuns:
		// The scopes name the run's user: built per item.
		pk, _ := item["PK"].(*types.AttributeValueMemberS)
		if pk == nil {
			return "", false
		}
		user, isUser := strings.CutPrefix(pk.Value, graphUserPrefix)
		if !isUser {
			return "", false
		}
		for _, st := range []string{RunProcessing, RunUploaded} {
			if RunsStale(user, st, c.now, c.o.StaleRun).Matches(item) {
				return st + ", not updated for " + shortDuration(c.o.StaleRun), true
			}
		}
	case TableEvents:
		u, _ := item["user_id"].(*types.AttributeValueMemberS)
		if u != nil && EventsExhausted(u.Value, c.o.RetryMax).Matches(item) {
			return "retries exhausted (≥ " + itoaInt(c.o.RetryMax) + ")", true
		}
	case TableSandboxes:
		if c.past.In(item) {
			return "past its allocation window", true
		}
	}
	return "", false
}

// Same reports whether c is the check of table at now under rules o.
func (c TroubleCheck) Same(o Trouble, table TableID, now time.Time) bool {
	return c.table == table && c.now.Equal(now) && c.o == o.withDefaults()
}

func itoaInt(n int) string { return strconv.Itoa(n) }
