package data

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// Wallcrawler: browser sessions, their projects, API keys and browser
// contexts. Everything the console knows about these four tables is
// declared here (see Descriptor).

const (
	TableSessions TableID = "sessions"
	TableProjects TableID = "projects"
	TableAPIKeys  TableID = "api-keys"
	TableContexts TableID = "contexts"
)

// Index names, as the service created them. Queries name an index only
// through these constants (and the scope constructors below),
// so a renamed index breaks at one place.
const (
	IndexSessionsByProject = "projectId-createdAt-index"
	IndexSessionsByStatus  = "status-expiresAt-index"
	IndexAPIKeysByProject  = "projectId-index"
)

// The ids Wallcrawler's commands take.
const (
	KindSession IDKind = "session" // :session <sessionId>
	KindProject IDKind = "project" // :sessions <projectId>
)

// projectIDs: every Wallcrawler table names a project.
var projectIDs = []IDAttr{{Kind: KindProject, Attr: "projectId"}}

// toProject is the o jump of every row that names a project.
func toProject(it Item) (Scope, string, bool) {
	if p := strAttr(it, "projectId"); p != "" {
		return SessionsByProject(p), "the project (quota, v: API keys, contexts)", true
	}
	return Scope{}, "", false
}

func init() {
	Register(Descriptor{
		Order: 10,
		Schema: TableSchema{
			ID:           TableSessions,
			Service:      "Wallcrawler",
			NameTemplate: "wallcrawler-sessions",
			PK:           KeyAttr{"sessionId", TypeS},
			Attrs: map[string]string{
				"sessionId": "S", "status": "S", "internalStatus": "S", "projectId": "S",
				"createdAt": "S", "updatedAt": "S", "startedAt": "S", "expiresAt": "N",
				"keepAlive": "BOOL", "region": "S", "publicIP": "S", "ecsTaskArn": "S",
				"connectUrl": "S", "signingKey": "S", "seleniumRemoteUrl": "S", "contextId": "S",
				"contextPersist": "BOOL", "contextStorageKey": "S", "proxyBytes": "N",
				"avgCpuUsage": "N", "memoryUsage": "N", "eventHistory": "L",
				"lastEventTimestamp": "S", "retryCount": "N", "userMetadata": "M",
				// Not in the seed's table, but written by Wallcrawler's release
				// path (and opsdeck's release action) when a session ends.
				"endedAt":   "S",
				AttemptAttr: "S",
			},
			Indexes: []Index{
				// The seed gives no projection for this index; ALL is what the
				// service's list endpoint needs (it renders whole sessions).
				{Name: IndexSessionsByProject, PK: KeyAttr{"projectId", TypeS}, SK: sk("createdAt", TypeS), Projection: Projection{Type: ProjectAll}},
				{Name: IndexSessionsByStatus, PK: KeyAttr{"status", TypeS}, SK: sk("expiresAt", TypeN), Projection: Projection{Type: ProjectKeysOnly}},
			},
			Stream:  StreamNewAndOld,
			TTLAttr: "expiresAt",
		},
		Decode: func(it Item) Record { return DecodeSession(it) },
		// A RUNNING session whose TTL is this close: the Overview's
		// "expiring" count, row by row.
		Trouble: func(o Trouble, now time.Time) func(Item) (string, bool) {
			expiring := SessionsExpiring(now, o.ExpiringWithin)
			why := "expires within " + shortDuration(o.ExpiringWithin)
			return func(it Item) (string, bool) {
				if expiring.Matches(it) {
					return why, true
				}
				return "", false
			}
		},
		IDs: []IDAttr{{Kind: KindSession, Attr: "sessionId"}, {Kind: KindProject, Attr: "projectId"}},
		Jumps: map[Jump]func(Item) (Scope, string, bool){
			JumpRelated: toProject,
			JumpContext: func(it Item) (Scope, string, bool) {
				if c := strAttr(it, "contextId"); c != "" {
					return ContextByID(c), "the session's context", true
				}
				return Scope{}, "", false
			},
		},
	})
	Register(Descriptor{
		Order: 11,
		Schema: TableSchema{
			ID:           TableProjects,
			Service:      "Wallcrawler",
			NameTemplate: "wallcrawler-projects",
			PK:           KeyAttr{"projectId", TypeS},
			Attrs: map[string]string{
				"projectId": "S", "name": "S", "ownerId": "S", "defaultTimeout": "N",
				"concurrency": "N", "status": "S", "createdAt": "S", "updatedAt": "S", "billingTier": "S",
				AttemptAttr: "S", // the kill switch writes it
			},
		},
		Decode: func(it Item) Record { return DecodeProject(it) },
		IDs:    projectIDs,
	})
	Register(Descriptor{
		Order: 12,
		Schema: TableSchema{
			ID:           TableAPIKeys,
			Service:      "Wallcrawler",
			NameTemplate: "wallcrawler-api-keys",
			PK:           KeyAttr{"apiKeyHash", TypeS},
			Attrs: map[string]string{
				"apiKeyHash": "S", "keyId": "S", "projectId": "S", "projectIds": "L",
				"name": "S", "status": "S", "createdAt": "S", "lastUsedAt": "S",
				AttemptAttr: "S", // the kill switch writes it
			},
			Indexes: []Index{
				{Name: IndexAPIKeysByProject, PK: KeyAttr{"projectId", TypeS}, Projection: Projection{Type: ProjectAll}},
			},
		},
		Decode: func(it Item) Record { return DecodeAPIKey(it) },
		IDs:    projectIDs,
		Jumps:  map[Jump]func(Item) (Scope, string, bool){JumpRelated: toProject},
	})
	Register(Descriptor{
		Order: 13,
		Schema: TableSchema{
			ID:           TableContexts,
			Service:      "Wallcrawler",
			NameTemplate: "wallcrawler-contexts",
			PK:           KeyAttr{"contextId", TypeS},
			Attrs: map[string]string{
				"contextId": "S", "projectId": "S", "storageKey": "S",
				"createdAt": "S", "updatedAt": "S", "status": "S",
			},
		},
		Decode: func(it Item) Record { return DecodeBrowserContext(it) },
		IDs:    projectIDs,
		Jumps:  map[Jump]func(Item) (Scope, string, bool){JumpRelated: toProject},
	})
}

// The access patterns: one scope constructor per query the console
// reads the service's tables by (and the Overview's counts).

// SessionsByProject: a project's sessions, newest first
// (projectId-createdAt-index, ALL).
func SessionsByProject(projectID string) Scope {
	s := indexScope(TableSessions, IndexSessionsByProject, projectID, "")
	s.NewestFirst = true
	return labelled(s, "project "+projectID)
}

// SessionsByStatus: sessions whose stored status is status, soonest expiry
// first (status-expiresAt-index, KEYS_ONLY: completed with BatchGetItem).
// The partition is the stored value, not the SDK status: container-written
// rows sit under STOPPED. Sparse on expiresAt: a session without a numeric
// expiresAt is not in it.
func SessionsByStatus(status string) Scope {
	return labelled(indexScope(TableSessions, IndexSessionsByStatus, status, ""), "status "+status)
}

// SessionsRunningInProject: the project's sessions whose stored status is
// RUNNING — what its concurrency quota counts. It reads the project's own
// index (projectId-createdAt-index) with a status filter, never the fleet's
// RUNNING partition.
func SessionsRunningInProject(projectID string) Scope {
	s := indexScope(TableSessions, IndexSessionsByProject, projectID, "")
	s.Filter[0] = Cond{Attr: "status", Value: SessionRunning}
	return labelled(s, "project "+projectID+" · RUNNING")
}

// SessionByID: the one session with this id (GetItem).
func SessionByID(sessionID string) Scope {
	return labelled(getScope(TableSessions, sessionID, ""), "session "+sessionID)
}

// ProjectByID: one project (GetItem). The projects table has no index:
// listing every project is an explicit scan.
func ProjectByID(projectID string) Scope {
	return labelled(getScope(TableProjects, projectID, ""), "project "+projectID)
}

// APIKeysByProject: a project's API keys by their primary projectId
// (projectId-index). Keys that merely list the project in projectIds are
// not in this index.
func APIKeysByProject(projectID string) Scope {
	return labelled(indexScope(TableAPIKeys, IndexAPIKeysByProject, projectID, ""), "project "+projectID)
}

// APIKeyByHash: one API key by its primary key, the SHA-256 hash of the
// raw key (GetItem). The raw key itself is never stored, so never asked
// for.
func APIKeyByHash(hash string) Scope {
	return labelled(getScope(TableAPIKeys, hash, ""), "API key "+hash)
}

// APIKeyLookup is `:apikey <hash or key>`. The table's key is the SHA-256
// of the raw key in lowercase hex (the seed: "SHA-256 hash of the customer
// provided API key"); an argument of that shape is the hash. Anything else
// is taken as a raw key an operator was handed: it is hashed here, as the
// authorizer does, and only the hash goes into the scope (hashed is set),
// so the key itself is neither sent nor shown.
func APIKeyLookup(hashOrKey string) (s Scope, hashed bool) {
	if isSHA256Hex(hashOrKey) {
		return APIKeyByHash(hashOrKey), false
	}
	sum := sha256.Sum256([]byte(hashOrKey))
	return APIKeyByHash(hex.EncodeToString(sum[:])), true
}

// isSHA256Hex: 64 lowercase hex digits.
func isSHA256Hex(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ContextsOfProject: the browser contexts a project's sessions name (the
// contexts table has no projectId index; docs/SCHEMAS.md). A context row
// belongs to the scope, for the live tail, when it names the project.
func ContextsOfProject(projectID string) Scope {
	s := Scope{Table: TableContexts, Via: ViaProjectSessions}
	s.Filter[0] = Cond{Attr: "projectId", Value: projectID}
	return labelled(s, "project "+projectID)
}

// ContextByID: one browser context (GetItem).
func ContextByID(contextID string) Scope {
	return labelled(getScope(TableContexts, contextID, ""), "context "+contextID)
}

// SessionsExpiring: sessions whose stored status is RUNNING and whose TTL
// (expiresAt) falls in [now, now+within] — status-expiresAt-index with a
// BETWEEN on its sort key, so DynamoDB counts them.
func SessionsExpiring(now time.Time, within time.Duration) Scope {
	s := indexScope(TableSessions, IndexSessionsByStatus, SessionRunning, "")
	s.SKOp = SKBetween
	s.SKValue = strconv.FormatInt(now.Unix(), 10)
	s.SKHigh = strconv.FormatInt(now.Add(within).Unix(), 10)
	return labelled(s, "RUNNING · expiring within "+shortDuration(within))
}
