package data

import (
	"fmt"
	"strings"
	"time"
)

// Sandbox statuses as the broker writes them.
const (
	SandboxAvailable       = "available"
	SandboxAllocated       = "allocated"
	SandboxPendingDeletion = "pending_deletion"
	SandboxStale           = "stale"
)

// SandboxStatuses are the broker's statuses, the document's whole enum:
// "available, allocated, pending_deletion, stale". A failed deletion is
// not a status (deletion_retry_count counts it).
var SandboxStatuses = []string{SandboxAvailable, SandboxAllocated, SandboxPendingDeletion, SandboxStale}

// KnownSandboxStatus reports whether s is one of SandboxStatuses, exactly.
func KnownSandboxStatus(s string) bool {
	for _, k := range SandboxStatuses {
		if s == k {
			return true
		}
	}
	return false
}

// MaxLabHours bounds a usable lab_duration_hours: a year. A larger value is
// a unit or typing error, not a lab, and no deadline is derived from it.
const MaxLabHours = 24 * 366

// unknownWindow is the note on a lab_duration_hours no deadline can be
// derived from: the list shows the DEADLINE as "?" and never assumes one.
const unknownWindow = "the allocation window is unknown, so no deadline is shown"

const (
	sandboxPKPrefix = "SBX#"
	sandboxMetaSK   = "META"
)

// SandboxKey is the primary key of a sandbox id: PK "SBX#<id>", SK "META".
func SandboxKey(sandboxID string) Item {
	return Item{"PK": S(sandboxPKPrefix + sandboxID), "SK": S(sandboxMetaSK)}
}

// Sandbox is one SandboxPool item.
type Sandbox struct {
	Meta
	PK, SK             string
	SandboxID          string
	Name               string
	ExternalID         string
	Status             string
	LabDurationHours   Number // as stored; see LabDuration
	DeletionRetryCount Number
	// AllocatedAt is zero for never-allocated sandboxes (stored as 0, which
	// the broker needs because allocated_at is every GSI's sort key).
	AllocatedAt         time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
	AllocatedToTrack    string
	IdempotencyKey      string
	DeletionRequestedAt time.Time
	LastSynced          time.Time
}

// DecodeSandbox reads a sandbox item. It never panics.
func DecodeSandbox(item Item) Sandbox {
	d := newDecoder(TableSandboxes, item)
	s := Sandbox{
		PK:                  d.str("PK", true),
		SK:                  d.str("SK", true),
		SandboxID:           d.str("sandbox_id", true),
		Name:                d.str("name", false),
		ExternalID:          d.str("external_id", false),
		Status:              d.str("status", true),
		DeletionRetryCount:  d.count("deletion_retry_count", false),
		AllocatedAt:         d.timeAttr("allocated_at", "N", true),
		CreatedAt:           d.timeAttr("created_at", "N", false),
		UpdatedAt:           d.timeAttr("updated_at", "N", false),
		AllocatedToTrack:    d.str("allocated_to_track", false),
		IdempotencyKey:      d.str("idempotency_key", false),
		DeletionRequestedAt: d.timeAttr("deletion_requested_at", "N", false),
		LastSynced:          d.timeAttr("last_synced", "N", false),
	}
	s.LabDurationHours = d.num("lab_duration_hours", true)
	if _, ok := s.LabWindow(); !ok {
		h, isNum := s.LabDurationHours.Float64()
		switch {
		case isNum && h <= 0:
			d.flag("lab_duration_hours", "N > 0", "N", "not positive; "+unknownWindow)
		case isNum:
			d.flag("lab_duration_hours", fmt.Sprintf("N ≤ %d", MaxLabHours), "N", "more than a year; "+unknownWindow)
		default:
			// Absent or not a number: already flagged as such.
			d.flag("lab_duration_hours", "", "", unknownWindow)
		}
	}
	if s.PK != "" && s.SandboxID != "" && s.PK != sandboxPKPrefix+s.SandboxID {
		d.flag("PK", sandboxPKPrefix+Clip(s.SandboxID, 40), "S", "PK disagrees with sandbox_id")
	}
	if s.SK != "" && s.SK != "META" {
		d.flag("SK", "META", "S", "not a sandbox META item")
	}
	if s.Status != "" && !KnownSandboxStatus(s.Status) {
		d.flag("status", strings.Join(SandboxStatuses, " | "), "S", "not a status of the broker's")
	}
	if s.Status == SandboxAllocated && s.AllocatedAt.IsZero() {
		d.flag("allocated_at", "unix seconds > 0", "N", "allocated without an allocation time")
	}
	s.Meta = d.finish()
	return s
}

// LabWindow is the item's own allocation window (lab_duration_hours); ok is
// false when the attribute is absent, not a number, not positive or more
// than MaxLabHours. The window is then unknown: no default is assumed, since
// a deadline shown on screen must be the item's own.
func (s Sandbox) LabWindow() (time.Duration, bool) {
	h, ok := s.LabDurationHours.Float64()
	if !ok || h <= 0 || h > MaxLabHours {
		return 0, false
	}
	return time.Duration(h * float64(time.Hour)), true
}

// BrokerMarkWindow is the Sandbox Broker's own window for marking an
// allocation for deletion. The document's guard is `allocated_at >
// :max_expiry` with `":max_expiry": … # now - 4 hours` ("Ensures only the
// owner can mark within 4-hour window"; it fails on "Allocation expired
// (older than 4 hours)"): the broker refuses a mark past four hours
// whatever the item's lab_duration_hours says.
const BrokerMarkWindow = 4 * time.Hour

// AllocationWindow is how long an allocation stays within its window: the
// item's own lab_duration_hours, but never more than the broker's 4-hour
// mark window (past it the broker's API refuses the mark, so a longer lab
// shown as "within" would offer a write the service itself refuses). ok is
// false when the lab duration is unknown (see LabWindow).
func (s Sandbox) AllocationWindow() (time.Duration, bool) {
	w, ok := s.LabWindow()
	if !ok {
		return 0, false
	}
	return min(w, BrokerMarkWindow), true
}

// AllocationDeadline is when the current allocation's window ends
// (AllocationWindow after allocated_at); ok is false when that cannot be
// known (no allocation time, or no usable lab duration).
func (s Sandbox) AllocationDeadline() (time.Time, bool) {
	w, ok := s.AllocationWindow()
	if s.AllocatedAt.IsZero() || !ok {
		return time.Time{}, false
	}
	return s.AllocatedAt.Add(w), true
}

// AllocationExpired reports whether an allocated sandbox is past its window
// (allocated_at + AllocationWindow < now). Sandboxes in any other
// status, never allocated, or whose window is unknown are not "expired".
func (s Sandbox) AllocationExpired(now time.Time) bool {
	if !strings.EqualFold(s.Status, SandboxAllocated) {
		return false
	}
	due, ok := s.AllocationDeadline()
	return ok && due.Before(now)
}

func (Sandbox) Table() TableID { return TableSandboxes }
func (s Sandbox) Key() Item    { return KeyOf(TableSandboxes, s.Raw) }

// ID is the sandbox_id, falling back to the PK for malformed rows.
func (s Sandbox) ID() string {
	if s.SandboxID != "" {
		return s.SandboxID
	}
	return strings.TrimPrefix(s.PK, sandboxPKPrefix)
}
