package data

import (
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

// DefaultLabDuration is the allocation window used when an item has no
// usable lab_duration_hours (the seed's examples all use 4).
const DefaultLabDuration = 4 * time.Hour

const sandboxPKPrefix = "SBX#"

// SandboxKey is the primary key of a sandbox id: PK "SBX#<id>", SK "META".
func SandboxKey(sandboxID string) Item {
	return Item{"PK": S(sandboxPKPrefix + sandboxID), "SK": S("META")}
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
	if h, ok := s.LabDurationHours.Float64(); ok {
		if h <= 0 {
			d.flag("lab_duration_hours", "N > 0", "N", "not positive; the 4-hour default applies")
		}
	}
	if s.PK != "" && s.SandboxID != "" && s.PK != sandboxPKPrefix+s.SandboxID {
		d.flag("PK", sandboxPKPrefix+Clip(s.SandboxID, 40), "S", "PK disagrees with sandbox_id")
	}
	if s.SK != "" && s.SK != "META" {
		d.flag("SK", "META", "S", "not a sandbox META item")
	}
	if s.Status == SandboxAllocated && s.AllocatedAt.IsZero() {
		d.flag("allocated_at", "unix seconds > 0", "N", "allocated without an allocation time")
	}
	s.Meta = d.finish()
	return s
}

// LabDuration is the item's own allocation window (lab_duration_hours), or
// DefaultLabDuration when the item has none usable.
func (s Sandbox) LabDuration() time.Duration {
	h, ok := s.LabDurationHours.Float64()
	if !ok || h <= 0 || h > 24*365*100 {
		return DefaultLabDuration
	}
	return time.Duration(h * float64(time.Hour))
}

// AllocationDeadline is when the current allocation ends; zero when the
// sandbox has no allocation time.
func (s Sandbox) AllocationDeadline() time.Time {
	if s.AllocatedAt.IsZero() {
		return time.Time{}
	}
	return s.AllocatedAt.Add(s.LabDuration())
}

// AllocationExpired reports whether an allocated sandbox is past its window
// (allocated_at + its own lab_duration_hours < now). Sandboxes in any other
// status, or never allocated, are not "expired".
func (s Sandbox) AllocationExpired(now time.Time) bool {
	if !strings.EqualFold(s.Status, SandboxAllocated) || s.AllocatedAt.IsZero() {
		return false
	}
	return s.AllocationDeadline().Before(now)
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
