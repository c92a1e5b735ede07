package data

import (
	"strconv"
	"time"
)

// Sandbox Broker: the sandbox pool, declared whole here (see Descriptor).

const TableSandboxes TableID = "sandboxes"

// Index names, as the broker created them.
const (
	IndexSandboxesByStatus      = "StatusIndex"
	IndexSandboxesByTrack       = "TrackIndex"
	IndexSandboxesByIdempotency = "IdempotencyIndex"
)

// The ids the sandboxes' commands take.
const (
	KindSandbox IDKind = "sandbox" // :sandboxes key=<idempotency key>
	KindTrack   IDKind = "track"   // :sandboxes track=<track>
)

func init() {
	Register(Descriptor{
		Order: 50,
		Noun:  "sandbox",
		Schema: TableSchema{
			ID:           TableSandboxes,
			Service:      "Sandbox Broker",
			NameTemplate: "SandboxPool",
			PK:           KeyAttr{"PK", TypeS},
			SK:           sk("SK", TypeS),
			Attrs: map[string]string{
				"PK": "S", "SK": "S", "sandbox_id": "S", "name": "S", "external_id": "S",
				"status": "S", "lab_duration_hours": "N", "deletion_retry_count": "N",
				"allocated_at": "N", "created_at": "N", "updated_at": "N",
				"allocated_to_track": "S", "idempotency_key": "S",
				"deletion_requested_at": "N", "last_synced": "N", AttemptAttr: "S",
			},
			Indexes: []Index{
				{Name: IndexSandboxesByStatus, PK: KeyAttr{"status", TypeS}, SK: sk("allocated_at", TypeN), Projection: Projection{Type: ProjectAll}},
				{Name: IndexSandboxesByTrack, PK: KeyAttr{"allocated_to_track", TypeS}, SK: sk("allocated_at", TypeN), Projection: Projection{Type: ProjectAll}},
				{Name: IndexSandboxesByIdempotency, PK: KeyAttr{"idempotency_key", TypeS}, SK: sk("allocated_at", TypeN), Projection: Projection{Type: ProjectAll}},
			},
		},
		Decode: func(it Item) Record { return DecodeSandbox(it) },
		// Seed note 3: every sandbox time is unix seconds.
		Epoch: map[string]EpochUnit{
			"allocated_at": EpochSeconds, "created_at": EpochSeconds, "updated_at": EpochSeconds,
			"deletion_requested_at": EpochSeconds, "last_synced": EpochSeconds,
		},
		// An allocation past its window: the Overview's count, row by row.
		Trouble: func(_ Trouble, now time.Time) func(Item) (string, bool) {
			past := SandboxesPastWindow(now)
			return func(it Item) (string, bool) {
				if past.In(it) {
					return "past its allocation window", true
				}
				return "", false
			}
		},
		IDs: []IDAttr{{Kind: KindSandbox, Attr: "idempotency_key"}, {Kind: KindTrack, Attr: "allocated_to_track"}},
		Jumps: map[Jump]func(Item) (Scope, string, bool){
			JumpRelated: func(it Item) (Scope, string, bool) {
				if t := strAttr(it, "allocated_to_track"); t != "" {
					return SandboxesByTrack(t), "the sandboxes of its track", true
				}
				return Scope{}, "", false
			},
		},
	})
}

// The access patterns: one scope constructor per query the console
// reads the service's tables by (and the Overview's counts).

// SandboxesByStatus: StatusIndex, oldest allocation first (sparse on
// allocated_at, which the broker sets to 0 for unallocated sandboxes for
// exactly this reason).
func SandboxesByStatus(status string) Scope {
	return labelled(indexScope(TableSandboxes, IndexSandboxesByStatus, status, ""), "status "+status)
}

// SandboxesByTrack: TrackIndex, oldest allocation first.
func SandboxesByTrack(track string) Scope {
	return labelled(indexScope(TableSandboxes, IndexSandboxesByTrack, track, ""), "track "+track)
}

// SandboxesByIdempotencyKey: IdempotencyIndex, oldest first. More than one
// allocation under a key is itself a finding.
func SandboxesByIdempotencyKey(key string) Scope {
	return labelled(indexScope(TableSandboxes, IndexSandboxesByIdempotency, key, ""), "key "+key)
}

// SandboxByID: one sandbox (PK "SBX#<id>", SK "META"; GetItem).
func SandboxByID(sandboxID string) Scope {
	return labelled(getScope(TableSandboxes, sandboxPKPrefix+sandboxID, sandboxMetaSK), "sandbox "+sandboxID)
}

// SandboxesDeletionFailing: pending deletions the cleanup job has failed
// at least atLeast times (StatusIndex, status = pending_deletion, filtered
// on deletion_retry_count — the document's "Failed deletion attempts").
func SandboxesDeletionFailing(atLeast int) Scope {
	s := SandboxesByStatus(SandboxPendingDeletion)
	s.Filter[0] = Cond{Attr: "deletion_retry_count", Value: strconv.Itoa(atLeast), Cmp: CmpAtLeast, Num: true}
	return labelled(s, "pending_deletion · deletion failed ≥ "+strconv.Itoa(atLeast)+" times")
}
