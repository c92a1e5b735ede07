package data

import (
	"slices"
	"strconv"
	"time"
)

// The overview counts: how bad is it, service by service. Every number is
// a Query of one Scope (Select=COUNT, paginated; never a Scan) or, for the
// one test DynamoDB cannot evaluate (a sandbox past its own window), a
// Query projecting the two attributes the test reads. The same scope — and
// the same test — decides whether a stream record moves the number, so a
// count and the live tail applied to it agree by construction.

// Metric keys: the names config `alerts:` uses. A per-user or per-project
// number has the key of its kind (events.failed for every watched user).
const (
	MetricSandboxesAvailable  = "sandboxes.available"
	MetricSandboxesAllocated  = "sandboxes.allocated"
	MetricSandboxesPending    = "sandboxes.pending_deletion"
	MetricSandboxesStale      = "sandboxes.stale"
	MetricSandboxesPastWindow = "sandboxes.past_window"
	// MetricSandboxesDeletionFailing: pending deletions whose cleanup has
	// failed deletion_retry_count ≥ OverviewPlan.DeletionFailingAt times.
	MetricSandboxesDeletionFailing = "sandboxes.deletion_failing"
	MetricSessionsRunning          = "sessions.running"
	MetricSessionsStopped          = "sessions.stopped"
	MetricSessionsCompleted        = "sessions.completed"
	MetricSessionsError            = "sessions.error"
	MetricSessionsTimedOut         = "sessions.timed_out"
	MetricSessionsExpiring         = "sessions.expiring"
	MetricProjectRunning           = "sessions.project_running"
	MetricEventsFailed             = "events.failed"
	MetricEventsRetrying           = "events.retrying"
	MetricEventsExhausted          = "events.exhausted"
	MetricRunsStaleProcessing      = "runs.stale_processing"
	MetricRunsStaleUploaded        = "runs.stale_uploaded"
)

// MetricKeys lists every key, in the overview's order, for validating
// config and for help.
func MetricKeys() []string {
	return []string{
		MetricSandboxesAvailable, MetricSandboxesAllocated, MetricSandboxesPending,
		MetricSandboxesStale, MetricSandboxesPastWindow, MetricSandboxesDeletionFailing,
		MetricSessionsRunning, MetricSessionsStopped, MetricSessionsCompleted,
		MetricSessionsError, MetricSessionsTimedOut, MetricSessionsExpiring, MetricProjectRunning,
		MetricEventsFailed, MetricEventsRetrying, MetricEventsExhausted,
		MetricRunsStaleProcessing, MetricRunsStaleUploaded,
	}
}

// Service blocks of the overview, in screen order.
const (
	BlockSandboxes = "Sandbox pool"
	BlockSessions  = "Sessions"
	BlockEvents    = "Inbox"
	BlockRuns      = "Graph runs"
)

// Metric is one number of the overview: what it counts and how.
type Metric struct {
	Key     string // MetricSandboxesAvailable, …
	Block   string // BlockSandboxes, …
	Label   string // "available", "failed"
	Subject string // the watched user or project it is about; "" fleet-wide
	Scope   Scope

	// Test, when set, is a condition DynamoDB cannot evaluate: the count
	// reads the items (projecting Reads) and keeps those passing it, and
	// the live tail applies the same test. nil: Select=COUNT.
	Test  func(Item) bool
	Reads []string
}

// In reports whether item counts towards the metric: the scope matches it
// (and the test passes). A nil item (no image) never counts.
func (m Metric) In(item Item) bool {
	return item != nil && m.Scope.Matches(item) && (m.Test == nil || m.Test(item))
}

// OverviewPlan is what the overview counts.
type OverviewPlan struct {
	// Users are the watched users (config watch.users, then the users the
	// console has seen): the inbox and runs tables partition by user.
	Users []string
	// EventUsers and RunUsers are further users of one service only (the
	// two services' user ids are different namespaces): those the console
	// has seen in that table.
	EventUsers, RunUsers []string
	// Projects are the projects in view, whose RUNNING sessions are shown
	// against their concurrency quota.
	Projects []string
	// ExpiringWithin: sessions whose TTL falls within this window from now.
	ExpiringWithin time.Duration
	// StaleRun: a run in PROCESSING or UPLOADED not updated for this long.
	StaleRun time.Duration
	// RetryMax: a failed event with retry_count at or above it has its
	// retries exhausted (the Inbox · Requeue action is offered from there).
	RetryMax int
	// DeletionFailingAt: a pending deletion whose deletion_retry_count is
	// at or above it is counted as failing (sandboxes.deletion_failing).
	DeletionFailingAt int
	// MaxPages caps each count's pages (0: none); a capped count is a
	// lower bound and says so.
	MaxPages int
}

// Defaults for an OverviewPlan's zero fields.
const (
	DefaultExpiringWithin = 15 * time.Minute
	DefaultStaleRun       = 30 * time.Minute
	DefaultRetryMax       = 3
	// DefaultDeletionFailingAt: three failed attempts of the cleanup job
	// against the ENG CSP is no longer a blip.
	DefaultDeletionFailingAt = 3
	DefaultCountPages        = 50
)

func (p OverviewPlan) withDefaults() OverviewPlan {
	if p.ExpiringWithin <= 0 {
		p.ExpiringWithin = DefaultExpiringWithin
	}
	if p.StaleRun <= 0 {
		p.StaleRun = DefaultStaleRun
	}
	if p.RetryMax <= 0 {
		p.RetryMax = DefaultRetryMax
	}
	if p.DeletionFailingAt <= 0 {
		p.DeletionFailingAt = DefaultDeletionFailingAt
	}
	return p
}

// sessionStatuses are the stored statuses the sessions block counts, each
// a partition of status-expiresAt-index. STOPPED is what the browser
// container writes to status directly; a release (Wallcrawler's, and
// opsdeck's) writes status COMPLETED with internalStatus STOPPED, so released
// sessions count under COMPLETED (docs/SCHEMAS.md). STOPPED is shown beside
// the SDK statuses.
var sessionStatuses = []struct{ key, status string }{
	{MetricSessionsRunning, SessionRunning},
	{MetricSessionsStopped, "STOPPED"},
	{MetricSessionsCompleted, SessionCompleted},
	{MetricSessionsError, SessionError},
	{MetricSessionsTimedOut, SessionTimedOut},
}

// Metrics is the plan's numbers at now (the clock fixes the windows: a
// count of "expiring in 15 minutes" is of the 15 minutes after now).
func (p OverviewPlan) Metrics(now time.Time) []Metric {
	p = p.withDefaults()
	var ms []Metric
	add := func(key, block, label, subject string, sc Scope) {
		ms = append(ms, Metric{Key: key, Block: block, Label: label, Subject: subject, Scope: sc})
	}
	for _, st := range []struct{ key, status string }{
		{MetricSandboxesAvailable, SandboxAvailable},
		{MetricSandboxesAllocated, SandboxAllocated},
		{MetricSandboxesPending, SandboxPendingDeletion},
		{MetricSandboxesStale, SandboxStale},
	} {
		add(st.key, BlockSandboxes, st.status, "", SandboxesByStatus(st.status))
	}
	ms = append(ms, SandboxesPastWindow(now))
	add(MetricSandboxesDeletionFailing, BlockSandboxes, "del. failing ≥"+strconv.Itoa(p.DeletionFailingAt), "",
		SandboxesDeletionFailing(p.DeletionFailingAt))

	for _, st := range sessionStatuses {
		add(st.key, BlockSessions, st.status, "", SessionsByStatus(st.status))
	}
	add(MetricSessionsExpiring, BlockSessions, "expiring ≤"+shortDuration(p.ExpiringWithin), "", SessionsExpiring(now, p.ExpiringWithin))
	for _, pr := range p.Projects {
		add(MetricProjectRunning, BlockSessions, "RUNNING", pr, SessionsRunningInProject(pr))
	}

	for _, u := range union(p.Users, p.EventUsers) {
		add(MetricEventsFailed, BlockEvents, "failed", u, EventsByStatus(u, EventFailed+"#"))
		add(MetricEventsRetrying, BlockEvents, "retrying", u, EventsByStatus(u, EventRetrying+"#"))
		add(MetricEventsExhausted, BlockEvents, "exhausted", u, EventsExhausted(u, p.RetryMax))
	}
	for _, u := range union(p.Users, p.RunUsers) {
		add(MetricRunsStaleProcessing, BlockRuns, "PROCESSING >"+shortDuration(p.StaleRun), u, RunsStale(u, RunProcessing, now, p.StaleRun))
		add(MetricRunsStaleUploaded, BlockRuns, "UPLOADED >"+shortDuration(p.StaleRun), u, RunsStale(u, RunUploaded, now, p.StaleRun))
	}
	return ms
}

// union is a then the members of b not in a.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// InboxUsers and RunUsers are the users each block counts.
func (p OverviewPlan) InboxUsers() []string { return union(p.Users, p.EventUsers) }
func (p OverviewPlan) RunsUsers() []string  { return union(p.Users, p.RunUsers) }

// shortDuration renders 15m0s as "15m", 2h0m0s as "2h".
func shortDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return d.String()
}

// Event and run statuses the overview counts.
const (
	EventFailed   = "failed"
	EventRetrying = "retrying"
	RunProcessing = "PROCESSING"
	RunUploaded   = "UPLOADED"
)

// SandboxesPastWindow is the allocated sandboxes whose window
// (allocated_at + lab_duration_hours, at most the broker's 4 hours:
// Sandbox.AllocationWindow) ended before now. DynamoDB cannot
// add an item's two attributes, so the count reads the allocated partition
// of StatusIndex projecting just those two and tests each item here.
func SandboxesPastWindow(now time.Time) Metric {
	return Metric{
		Key: MetricSandboxesPastWindow, Block: BlockSandboxes, Label: "past window",
		Scope: labelled(SandboxesByStatus(SandboxAllocated), "allocated · past their window"),
		Test:  func(it Item) bool { return SandboxPastWindow(it, now) },
		Reads: []string{"allocated_at", "lab_duration_hours"},
	}
}

// SandboxPastWindow reports whether an allocated sandbox's window ended
// before now. A sandbox whose window is unknown is not past it (the list
// says the window is unknown instead of guessing).
func SandboxPastWindow(it Item, now time.Time) bool {
	end, ok := DecodeSandbox(it).AllocationDeadline()
	return ok && end.Before(now)
}

// Tally is one metric's number.
type Tally struct {
	Metric
	N int64
	// Limit is the project's concurrency quota for MetricProjectRunning
	// (HasLimit false when the project or its concurrency is unknown).
	Limit    int64
	HasLimit bool

	Consumed  float64   // read capacity of the count
	CountedAt time.Time // when the count was made (zero: never)
	// Partial: the count stopped at its page cap; N is a lower bound.
	Partial bool
	// Estimated: a change the tail could not place (a stream without old
	// images, a gap) may have moved the number; a re-count settles it.
	Estimated bool
	// Moved counts the live changes applied since the count.
	Moved int
	// Span is when the count read (zero: a tally not made by a count,
	// which takes every change as after it).
	Span ReadSpan
	Err  error
}

// Overview is every tally of a plan, counted at one time.
type Overview struct {
	Plan     OverviewPlan
	At       time.Time // the clock the windows were computed at
	Tallies  []Tally
	Consumed float64 // read capacity of the whole re-count
	Elapsed  time.Duration
	// Unplaced counts the changes that moved a tally but could not be
	// placed against its count (the tally is Estimated): a count started
	// CountSlack after they arrived settles them.
	Unplaced int
	// fence: per shard, the first record known to come after every
	// count (overview_place.go).
	fence shardFence
}

// countConcurrency bounds how many counts run at once: a re-count is a few
// dozen small queries, and the tables are shared with the services.
const countConcurrency = 4

// BulkPageItems is the Limit of every page that reads many items the
// console does not keep: counts (Select=COUNT and tested counts) and the
// explicit scan. DynamoDB stops a page at 1 MB either way, so on AWS the
// Limit costs a few more round trips and no capacity; DynamoDB Local,
// though, reads the whole partition (or table) for a page that has no
// Limit before it cuts it at 1 MB, and its one storage thread is shared by
// every reader, so a count of a 100k-session project took seconds a page
// there and stalled everything else.
const BulkPageItems = 1000

// Apply moves the tallies by one item change from the live tail: each
// tally of the table gains one when the new image counts and the old did
// not, and loses one the other way — if the change came after the tally's
// count. A change the count already saw moves nothing; one that may or may
// not be in it (ChangeAt.At too close to the count to tell, see
// ReadSpan.Place) leaves the number and marks it Estimated. old is nil on
// an INSERT; when the stream carries no old image (a NEW_IMAGE stream's
// MODIFY or REMOVE) the change cannot be placed exactly either, and every
// tally it may touch becomes Estimated — unless the item's key shows it is
// outside the scope. It reports whether anything changed.
func (o *Overview) Apply(c ChangeAt) bool {
	changed := false
	oldKnown := c.Old != nil || c.Event == "INSERT"
	fenced := o.fence.after(c)
	timed, allAfter := false, true
	for i := range o.Tallies {
		t := &o.Tallies[i]
		if t.Scope.Table != c.Table || t.Err != nil {
			continue
		}
		place := PlacedAfter
		if !fenced && !t.Span.From.IsZero() {
			timed = true
			place = t.Span.Place(c)
		}
		if place != PlacedAfter {
			allAfter = false
		}
		if place == PlacedBefore {
			continue
		}
		if !oldKnown {
			if outsideByKey(t.Scope, c.Keys) {
				continue
			}
			d := 0
			if t.In(c.New) {
				d = 1
			}
			// The old image is unknown: the number may have moved by
			// -1, 0 or +1. Keep it, say it is estimated.
			if !t.Estimated || d != 0 {
				t.Estimated = true
				t.Moved++
				changed = true
			}
			continue
		}
		d := 0
		if t.In(c.New) {
			d++
		}
		if t.In(c.Old) {
			d--
		}
		if d == 0 {
			continue
		}
		t.Moved++
		changed = true
		if place == PlacedUnknown {
			// The count may already hold this change: moving the number
			// could count it twice, not moving it could miss it.
			t.Estimated = true
			o.Unplaced++
			continue
		}
		t.N += int64(d)
		if t.N < 0 {
			// A change the count never saw (it was counted before the
			// item existed, or after): the number cannot go below zero.
			t.N, t.Estimated = 0, true
		}
	}
	if timed && allAfter {
		if o.fence == nil {
			o.fence = shardFence{}
		}
		o.fence.note(c)
	}
	return changed
}

// MarkEstimated flags every tally of table: changes to it may have been
// missed (a stream gap, a restart of the tail).
func (o *Overview) MarkEstimated(table TableID) bool {
	changed := false
	for i := range o.Tallies {
		if t := &o.Tallies[i]; t.Scope.Table == table && !t.Estimated {
			t.Estimated, changed = true, true
		}
	}
	return changed
}

// outsideByKey reports whether an item's primary key alone shows it is not
// in the scope: the scope's partition attribute is a base-table key
// attribute and the key holds another value.
func outsideByKey(sc Scope, keys Item) bool {
	if sc.PKAttr == "" {
		return false
	}
	v, ok := keys[sc.PKAttr]
	return ok && !EqualValues(v, sc.pkValue())
}
