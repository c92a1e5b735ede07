package demo

import (
	"fmt"
	"time"

	"opsdeck/data"
)

// Sandbox statuses: the document's enum. A failed deletion is no status:
// the cleanup job counts it in deletion_retry_count and the sandbox stays
// pending_deletion for its next run.
const (
	sbxAvailable       = "available"
	sbxAllocated       = "allocated"
	sbxPendingDeletion = "pending_deletion"
	sbxStale           = "stale"
)

// The seed's four lifecycle examples all describe sandbox abc123 at
// different moments, so only one of them can live under its key. abc123
// itself is stored as the ALLOCATED example; the other three are stored
// verbatim except for PK and sandbox_id, which get a suffix naming the state.
func sandboxExamples() map[string]Item {
	base := func(id string) Item {
		return Item{
			"PK":                   avS("SBX#" + id),
			"SK":                   avS("META"),
			"sandbox_id":           avS(id),
			"name":                 avS("test-sandbox-1"),
			"external_id":          avS("ext-xyz-456"),
			"lab_duration_hours":   avNum("4"),
			"deletion_retry_count": avNum("0"),
			"created_at":           avNum("1759567084"),
		}
	}
	available := base("abc123-available")
	available["status"] = avS("available")
	available["allocated_at"] = avNum("0")
	available["updated_at"] = avNum("1759567084")
	available["last_synced"] = avNum("1759567084")

	allocated := base("abc123")
	allocated["status"] = avS("allocated")
	allocated["allocated_at"] = avNum("1759567084")
	allocated["allocated_to_track"] = avS("track-123")
	allocated["idempotency_key"] = avS("track-123")
	allocated["updated_at"] = avNum("1759567084")

	pending := base("abc123-pending")
	pending["status"] = avS("pending_deletion")
	pending["allocated_at"] = avNum("1759567084")
	pending["allocated_to_track"] = avS("track-123")
	pending["idempotency_key"] = avS("track-123")
	pending["deletion_requested_at"] = avNum("1759567090")
	pending["updated_at"] = avNum("1759567090")

	stale := base("abc123-stale")
	stale["status"] = avS("stale")
	stale["allocated_at"] = avNum("0")
	stale["updated_at"] = avNum("1759567200")
	stale["last_synced"] = avNum("1759567000")

	return map[string]Item{
		sbxAvailable:       available,
		sbxAllocated:       allocated,
		sbxPendingDeletion: pending,
		sbxStale:           stale,
	}
}

func seedSandboxes(g *gen, w *world) {
	ex := sandboxExamples()
	for _, st := range []string{sbxAvailable, sbxAllocated, sbxPendingDeletion, sbxStale} {
		w.add(data.TableSandboxes, st, ex[st])
	}
	w.note("the sandbox seed's four lifecycle examples share key SBX#abc123; abc123 holds the ALLOCATED one, the others are stored as abc123-available, abc123-pending and abc123-stale")
	w.report.Tracks = appendUnique(w.report.Tracks, "track-123")

	n := 0
	next := func() int { n++; return n }
	for range 12 {
		w.add(data.TableSandboxes, sbxAvailable, sandboxItem(g, next(), sbxAvailable, "", 0))
	}
	// Allocations: every fourth one has outlived its window (its own
	// lab_duration_hours, at most the broker's four hours).
	for i := range 12 {
		track := fmt.Sprintf("track-%d", 101+i)
		w.report.Tracks = appendUnique(w.report.Tracks, track)
		hours := g.between(1, 8)
		window := min(time.Duration(hours)*time.Hour, data.BrokerMarkWindow)
		age := g.jitter(2*time.Minute, window-5*time.Minute)
		if i%4 == 1 {
			age = window + g.jitter(10*time.Minute, 20*time.Hour)
			if w.report.Defaults.Track == "" {
				w.report.Defaults.Track = track
			}
		}
		w.add(data.TableSandboxes, sbxAllocated, sandboxItem(g, next(), sbxAllocated, track, hours, age))
	}
	for i := range 5 {
		track := fmt.Sprintf("track-%d", 113+i)
		w.report.Tracks = appendUnique(w.report.Tracks, track)
		w.add(data.TableSandboxes, sbxPendingDeletion, sandboxItem(g, next(), sbxPendingDeletion, track, g.between(1, 8)))
	}
	for i := range 4 {
		// Deletions the cleanup job tried and failed: still pending, counted.
		track := fmt.Sprintf("track-%d", 118+i)
		w.report.Tracks = appendUnique(w.report.Tracks, track)
		it := sandboxItem(g, next(), sbxPendingDeletion, track, g.between(1, 8))
		it["deletion_retry_count"] = avN(int64(g.between(1, 5)))
		w.add(data.TableSandboxes, sbxPendingDeletion, it)
	}
	for range 3 {
		w.add(data.TableSandboxes, sbxStale, sandboxItem(g, next(), sbxStale, "", g.between(1, 8)))
	}
	w.report.Defaults.SandboxStatus = sbxAvailable
}

// sandboxItem builds a pool sandbox in status. For allocated ones, age is
// how long ago it was allocated (default: somewhere inside its window).
func sandboxItem(g *gen, n int, status, track string, hours int, age ...time.Duration) Item {
	if hours == 0 {
		hours = pick(g, []int{2, 4, 4, 4, 8})
	}
	created := g.ago(g.jitter(2*24*time.Hour, 90*24*time.Hour))
	id := g.uuid()
	it := Item{
		"PK":                   avS("SBX#" + id),
		"SK":                   avS("META"),
		"sandbox_id":           avS(id),
		"name":                 avS(fmt.Sprintf("lab-sbx-%03d", n)),
		"external_id":          avS(fmt.Sprintf("ext-%s-%03d", lowerAlpha(g, 3), g.between(100, 999))),
		"status":               avS(status),
		"lab_duration_hours":   avN(int64(hours)),
		"deletion_retry_count": avN(0),
		"allocated_at":         avN(0),
		"created_at":           avN(created.Unix()),
		"updated_at":           avN(created.Unix()),
	}
	synced := g.ago(g.jitter(time.Minute, 15*time.Minute))
	switch status {
	case sbxAvailable:
		it["last_synced"] = avN(synced.Unix())
		it["updated_at"] = avN(synced.Unix())
	case sbxStale:
		// Missing from the last ENG syncs: last_synced is hours old.
		last := g.ago(g.jitter(3*time.Hour, 72*time.Hour))
		it["last_synced"] = avN(last.Unix())
		it["updated_at"] = avN(last.Add(g.jitter(time.Minute, time.Hour)).Unix())
	default:
		window := time.Duration(hours) * time.Hour
		a := g.jitter(window/8, window)
		if len(age) > 0 {
			a = age[0]
		}
		allocated := g.ago(a)
		it["allocated_at"] = avN(allocated.Unix())
		it["allocated_to_track"] = avS(track)
		it["idempotency_key"] = avS(track)
		it["updated_at"] = avN(allocated.Unix())
		it["last_synced"] = avN(synced.Unix())
		if status == sbxPendingDeletion {
			requested := allocated.Add(g.jitter(time.Minute, max(2*time.Minute, g.now.Sub(allocated)))).Truncate(time.Second)
			if requested.After(g.now) {
				requested = g.ago(0)
			}
			it["deletion_requested_at"] = avN(requested.Unix())
			it["updated_at"] = avN(requested.Unix())
		}
	}
	return it
}

func lowerAlpha(g *gen, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + g.intn(26))
	}
	return string(b)
}

func init() { registerSeed(50, seedSandboxes) }
