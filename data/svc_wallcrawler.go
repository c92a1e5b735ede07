package data

import "time"

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
// through these constants (and the scope constructors in scope_ctors.go),
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
