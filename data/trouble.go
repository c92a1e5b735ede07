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
	o = o.withDefaults()
	switch table {
	case TableSessions:
		if SessionsExpiring(now, o.ExpiringWithin).Matches(item) {
			return "expires within " + shortDuration(o.ExpiringWithin), true
		}
	case TableGraphRuns:
		pk, _ := item["PK"].(*types.AttributeValueMemberS)
		if pk == nil {
			return "", false
		}
		user, isUser := strings.CutPrefix(pk.Value, graphUserPrefix)
		if !isUser {
			return "", false
		}
		for _, st := range []string{RunProcessing, RunUploaded} {
			if RunsStale(user, st, now, o.StaleRun).Matches(item) {
				return st + ", not updated for " + shortDuration(o.StaleRun), true
			}
		}
	case TableEvents:
		u, _ := item["user_id"].(*types.AttributeValueMemberS)
		if u != nil && EventsExhausted(u.Value, o.RetryMax).Matches(item) {
			return "retries exhausted (≥ " + itoaInt(o.RetryMax) + ")", true
		}
	case TableSandboxes:
		if SandboxesPastWindow(now).In(item) {
			return "past its allocation window", true
		}
	}
	return "", false
}

func itoaInt(n int) string { return strconv.Itoa(n) }
