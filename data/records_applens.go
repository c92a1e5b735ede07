package data

import (
	"fmt"
	"strings"
	"time"
)

// Key formats of applens-graph-metadata (see docs/SCHEMAS.md).
const (
	graphUserPrefix = "USER#"
	graphRunPrefix  = "RUN#"
)

// GraphRunKeys builds the four key attributes of a run item: PK, SK, GSI1PK
// and GSI1SK. created is written as RFC 3339 seconds in UTC, as the seed's
// example does, so SK sorts chronologically.
func GraphRunKeys(userID, runID string, created time.Time) (pk, sk, gsi1pk, gsi1sk string) {
	ts := created.UTC().Format("2006-01-02T15:04:05Z")
	return graphUserPrefix + userID, graphRunPrefix + ts + "#" + runID, graphRunPrefix + runID, graphUserPrefix + userID
}

// GraphRun is one applens-graph-metadata item.
type GraphRun struct {
	Meta
	PK, SK         string
	GSI1PK, GSI1SK string
	RunID          string
	Status         string // UPLOADED, PROCESSING, COMPLETE, FAILED
	Environment    string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	GraphS3Key     string
	IaCS3Key       string
	AnalysisS3Key  string

	NodeCount            Number
	EdgeCount            Number
	InternetExposedCount Number
	DatastoreCount       Number
	GraphHash            string

	IaCCommitSha       string
	TerraformWorkspace string
	AccountID          string
	Region             string
	FailureReason      string
}

// DecodeGraphRun reads a run item. Besides types it checks the key formats:
// a run whose GSI1 keys are missing or disagree with PK/runId cannot be found
// by RunByID, which is worth flagging.
func DecodeGraphRun(item Item) GraphRun {
	d := newDecoder(TableGraphRuns, item)
	r := GraphRun{
		PK:                   d.str("PK", true),
		SK:                   d.str("SK", true),
		GSI1PK:               d.str("GSI1PK", false),
		GSI1SK:               d.str("GSI1SK", false),
		RunID:                d.str("runId", true),
		Status:               d.str("status", true),
		Environment:          d.str("environment", false),
		CreatedAt:            d.timeAttr("createdAt", "S", false),
		UpdatedAt:            d.timeAttr("updatedAt", "S", false),
		GraphS3Key:           d.str("graphS3Key", false),
		IaCS3Key:             d.str("iacS3Key", false),
		AnalysisS3Key:        d.str("analysisS3Key", false),
		NodeCount:            d.count("nodeCount", false),
		EdgeCount:            d.count("edgeCount", false),
		InternetExposedCount: d.count("internetExposedCount", false),
		DatastoreCount:       d.count("datastoreCount", false),
		GraphHash:            d.str("graphHash", false),
		IaCCommitSha:         d.str("iacCommitSha", false),
		TerraformWorkspace:   d.str("terraformWorkspace", false),
		AccountID:            d.str("accountId", false),
		Region:               d.str("region", false),
		FailureReason:        d.str("failureReason", false),
	}
	if r.PK != "" && !strings.HasPrefix(r.PK, graphUserPrefix) {
		d.flag("PK", "USER#<userId>", "S", "partition key does not name a user")
	}
	if r.SK != "" && !strings.HasPrefix(r.SK, graphRunPrefix) {
		d.flag("SK", "RUN#<timestamp>#<runId>", "S", "sort key is not a run key")
	} else if r.RunID != "" && r.SK != "" && !strings.HasSuffix(r.SK, "#"+r.RunID) {
		d.flag("SK", "RUN#<timestamp>#<runId>", "S", fmt.Sprintf("sort key does not end with runId %q", Clip(r.RunID, 40)))
	}
	if r.GSI1PK == "" || r.GSI1SK == "" {
		d.flag("GSI1PK", "RUN#<runId>", "missing", "run is not in GSI1: lookup by runId will not find it")
	} else {
		if r.RunID != "" && r.GSI1PK != graphRunPrefix+r.RunID {
			d.flag("GSI1PK", "RUN#"+Clip(r.RunID, 40), "S", "GSI1PK disagrees with runId")
		}
		if r.PK != "" && r.GSI1SK != r.PK {
			d.flag("GSI1SK", Clip(r.PK, 40), "S", "GSI1SK disagrees with PK")
		}
	}
	r.Meta = d.finish()
	return r
}

// UserID is the user part of PK ("USER#12345" → "12345"); if PK does not
// have that shape the whole PK is returned.
func (r GraphRun) UserID() string { return GraphRunUser(r.PK) }

// GraphRunUser is the user part of a graph run's PK, as UserID.
func GraphRunUser(pk string) string { return strings.TrimPrefix(pk, graphUserPrefix) }

func (GraphRun) Table() TableID { return TableGraphRuns }
func (r GraphRun) Key() Item    { return KeyOf(TableGraphRuns, r.Raw) }

// ID is the runId, falling back to the sort key for malformed rows.
func (r GraphRun) ID() string {
	if r.RunID != "" {
		return r.RunID
	}
	return r.SK
}
