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

// The access patterns: one scope constructor per query the console
// reads the service's tables by (and the Overview's counts).

// RunsByUser: a user's graph runs, newest first: PK = "USER#<id>", SK
// begins_with "RUN#" (the partition also holds non-run items).
func RunsByUser(userID string) Scope {
	s := baseScope(TableGraphRuns, graphUserPrefix+userID, graphRunPrefix)
	s.NewestFirst = true
	return labelled(s, "user "+userID)
}

// RunByID: a run by its runId (GSI1, GSI1PK = "RUN#<id>"). Should two
// users have a run with the same id, both are listed.
func RunByID(runID string) Scope {
	return labelled(indexScope(TableGraphRuns, IndexRunsByID, graphRunPrefix+runID, ""), "run "+runID)
}

// RunsStale: a user's runs in status whose updatedAt is older than
// now-after (the base table's RUN# items, filtered). updatedAt is an
// ISO 8601 UTC string as AppLens writes it; strings compare byte by byte,
// which orders such timestamps by time.
func RunsStale(userID, status string, now time.Time, after time.Duration) Scope {
	s := RunsByUser(userID)
	s.Filter[0] = Cond{Attr: "status", Value: status}
	s.Filter[1] = Cond{Attr: "updatedAt", Value: now.Add(-after).UTC().Format("2006-01-02T15:04:05Z"), Cmp: CmpLess}
	return labelled(s, "user "+userID+" · "+status+" · not updated for "+shortDuration(after))
}
