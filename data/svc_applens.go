package data

import (
	"strings"
	"time"
)

// AppLens: the graph runs of its metadata table, declared whole here (see
// Descriptor).

const TableGraphRuns TableID = "graph-runs"

// IndexRunsByID is the runs' id index, as the service created it.
const IndexRunsByID = "GSI1"

// The ids AppLens's commands take.
const (
	KindRunUser IDKind = "run-user" // :runs <userId>
	KindRun     IDKind = "run"      // :run <runId>
)

func init() {
	Register(Descriptor{
		Order: 20,
		Schema: TableSchema{
			ID:           TableGraphRuns,
			Service:      "AppLens",
			NameTemplate: "applens-graph-metadata",
			PK:           KeyAttr{"PK", TypeS},
			SK:           sk("SK", TypeS),
			Attrs: map[string]string{
				"PK": "S", "SK": "S", "GSI1PK": "S", "GSI1SK": "S",
				"runId": "S", "status": "S", "environment": "S", "createdAt": "S", "updatedAt": "S",
				"graphS3Key": "S", "iacS3Key": "S", "analysisS3Key": "S",
				"nodeCount": "N", "edgeCount": "N", "internetExposedCount": "N", "datastoreCount": "N",
				"graphHash": "S", "iacCommitSha": "S", "terraformWorkspace": "S", "accountId": "S",
				"region": "S", "failureReason": "S", AttemptAttr: "S",
			},
			Indexes: []Index{
				{Name: IndexRunsByID, PK: KeyAttr{"GSI1PK", TypeS}, SK: sk("GSI1SK", TypeS), Projection: Projection{Type: ProjectAll}},
			},
		},
		Decode: func(it Item) Record { return DecodeGraphRun(it) },
		// A PROCESSING or UPLOADED run not updated for StaleRun: the
		// Overview's stale runs, row by row (the scopes name the run's
		// user, so they are built per item).
		Trouble: func(o Trouble, now time.Time) func(Item) (string, bool) {
			return func(it Item) (string, bool) {
				user, isUser := strings.CutPrefix(strAttr(it, "PK"), graphUserPrefix)
				if !isUser {
					return "", false
				}
				for _, st := range []string{RunProcessing, RunUploaded} {
					if RunsStale(user, st, now, o.StaleRun).Matches(it) {
						return st + ", not updated for " + shortDuration(o.StaleRun), true
					}
				}
				return "", false
			}
		},
		IDs: []IDAttr{{Kind: KindRunUser, Attr: "PK", Trim: GraphRunUser}, {Kind: KindRun, Attr: "runId"}},
		Jumps: map[Jump]func(Item) (Scope, string, bool){
			JumpRelated: func(it Item) (Scope, string, bool) {
				if u, isUser := strings.CutPrefix(strAttr(it, "PK"), graphUserPrefix); isUser && u != "" {
					return RunsByUser(u), "the user's runs", true
				}
				return Scope{}, "", false
			},
		},
	})
}
