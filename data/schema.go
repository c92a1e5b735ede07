// Over 400 lines on purpose: the ten tables' declarations are one list, the single
// description the demo and the queries read; split, it would be read in pieces.

package data

import (
	"fmt"
	"sort"
	"strings"
)

// The schemas below are the single description of every table opsdeck knows.
// The demo creates its tables from them and the queries read key and index
// names from them, so the two cannot drift apart. They follow ../shared/seeds
// exactly; where a seed is vague, docs/SCHEMAS.md records what we chose.

// TableID is the logical name of a table, stable across environments. It is
// also the key used in the config file's `tables:` map.
type TableID string

const (
	TableSessions      TableID = "sessions"
	TableProjects      TableID = "projects"
	TableAPIKeys       TableID = "api-keys"
	TableContexts      TableID = "contexts"
	TableGraphRuns     TableID = "graph-runs"
	TableEvents        TableID = "events"
	TableDelegations   TableID = "delegations"
	TableSubscriptions TableID = "subscriptions"
	TableConsumers     TableID = "consumers"
	TableSandboxes     TableID = "sandboxes"
)

// AttrType is a DynamoDB scalar type usable in a key.
type AttrType string

const (
	TypeS AttrType = "S"
	TypeN AttrType = "N"
	TypeB AttrType = "B"
)

// KeyAttr names one key attribute and its type.
type KeyAttr struct {
	Name string
	Type AttrType
}

// ProjectionType mirrors DynamoDB's index projection types.
type ProjectionType string

const (
	ProjectAll      ProjectionType = "ALL"
	ProjectKeysOnly ProjectionType = "KEYS_ONLY"
	ProjectInclude  ProjectionType = "INCLUDE"
)

// Projection is what a GSI copies from the base item.
type Projection struct {
	Type   ProjectionType
	NonKey []string // only for INCLUDE
}

// Index is a global secondary index.
type Index struct {
	Name       string
	PK         KeyAttr
	SK         *KeyAttr // nil when the index has no sort key
	Projection Projection
}

// StreamView mirrors DynamoDB's StreamViewType; empty means no stream.
type StreamView string

const (
	StreamNone      StreamView = ""
	StreamKeysOnly  StreamView = "KEYS_ONLY"
	StreamNewImage  StreamView = "NEW_IMAGE"
	StreamOldImage  StreamView = "OLD_IMAGE"
	StreamNewAndOld StreamView = "NEW_AND_OLD_IMAGES"
)

// TableSchema is the declarative description of one table.
type TableSchema struct {
	ID           TableID
	Service      string // the service that owns the table, for humans
	NameTemplate string // physical name; "{env}" is replaced by the environment
	PK           KeyAttr
	SK           *KeyAttr
	// Attrs lists the documented attributes and their DynamoDB types
	// (S, N, BOOL, M, L, ...). Used for tolerant decoding and for docs.
	Attrs   map[string]string
	Indexes []Index
	Stream  StreamView
	TTLAttr string // empty when the table has no TTL
}

// Index returns the named GSI.
func (s TableSchema) Index(name string) (Index, bool) {
	for _, ix := range s.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return Index{}, false
}

// KeyNames returns the base table's key attribute names, partition key first.
func (s TableSchema) KeyNames() []string {
	if s.SK == nil {
		return []string{s.PK.Name}
	}
	return []string{s.PK.Name, s.SK.Name}
}

func sk(name string, t AttrType) *KeyAttr { return &KeyAttr{Name: name, Type: t} }

// AttemptAttr is written by every opsdeck transition: a token of the attempt,
// by which a write whose response was lost is recognised (docs/ACTIONS.md).
// It is documented on the four tables opsdeck writes to, so it is not
// flagged as unknown.
const AttemptAttr = "opsdeck_attempt"

// Index names, as the services created them. Queries name an index only
// through these constants (and the scope constructors in scope_ctors.go),
// so a renamed index breaks at one place.
const (
	IndexSessionsByProject       = "projectId-createdAt-index"
	IndexSessionsByStatus        = "status-expiresAt-index"
	IndexAPIKeysByProject        = "projectId-index"
	IndexRunsByID                = "GSI1"
	IndexEventsByType            = "EventTypeIndex"
	IndexEventsByStatus          = "StatusIndex"
	IndexDelegationsByAudience   = "audience"
	IndexSubscriptionsByCustomer = "customer"
	IndexSubscriptionsByProvider = "provider"
	IndexConsumersByConsumer     = "consumer"
	IndexConsumersByProvider     = "provider"
	IndexSandboxesByStatus       = "StatusIndex"
	IndexSandboxesByTrack        = "TrackIndex"
	IndexSandboxesByIdempotency  = "IdempotencyIndex"
)

var schemas = []TableSchema{
	{
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
	{
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
	{
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
	{
		ID:           TableContexts,
		Service:      "Wallcrawler",
		NameTemplate: "wallcrawler-contexts",
		PK:           KeyAttr{"contextId", TypeS},
		Attrs: map[string]string{
			"contextId": "S", "projectId": "S", "storageKey": "S",
			"createdAt": "S", "updatedAt": "S", "status": "S",
		},
	},
	{
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
	{
		ID:           TableEvents,
		Service:      "Zapier Triggers",
		NameTemplate: "zapier-triggers-api-{env}-events",
		PK:           KeyAttr{"user_id", TypeS},
		SK:           sk("timestamp#event_id", TypeS),
		Attrs: map[string]string{
			"user_id": "S", "timestamp#event_id": "S", "event_id": "S", "event_type": "S",
			"payload": "M", "status": "S", "timestamp": "S", "ttl": "N", "retry_count": "N",
			"metadata": "M", "event_type#timestamp": "S", "status#timestamp": "S",
			"last_retry_at": "S", AttemptAttr: "S",
		},
		Indexes: []Index{
			{Name: IndexEventsByType, PK: KeyAttr{"user_id", TypeS}, SK: sk("event_type#timestamp", TypeS), Projection: Projection{Type: ProjectAll}},
			{Name: IndexEventsByStatus, PK: KeyAttr{"user_id", TypeS}, SK: sk("status#timestamp", TypeS), Projection: Projection{Type: ProjectAll}},
		},
		Stream:  StreamNewImage,
		TTLAttr: "ttl",
	},
	{
		ID:           TableDelegations,
		Service:      "w3infra",
		NameTemplate: "delegation",
		PK:           KeyAttr{"link", TypeS},
		Attrs: map[string]string{
			"cause": "S", "link": "S", "audience": "S", "issuer": "S",
			"expiration": "N", "insertedAt": "S", "updatedAt": "S",
		},
		Indexes: []Index{
			{Name: IndexDelegationsByAudience, PK: KeyAttr{"audience", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"link"}}},
		},
	},
	{
		ID:           TableSubscriptions,
		Service:      "w3infra",
		NameTemplate: "subscription",
		PK:           KeyAttr{"subscription", TypeS},
		SK:           sk("provider", TypeS),
		Attrs: map[string]string{
			"subscription": "S", "provider": "S", "cause": "S", "customer": "S",
			"insertedAt": "S", "updatedAt": "S",
		},
		Indexes: []Index{
			{Name: IndexSubscriptionsByCustomer, PK: KeyAttr{"customer", TypeS}, SK: sk("provider", TypeS), Projection: Projection{Type: ProjectInclude, NonKey: []string{"cause", "subscription"}}},
			{Name: IndexSubscriptionsByProvider, PK: KeyAttr{"provider", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"customer"}}},
		},
	},
	{
		ID:           TableConsumers,
		Service:      "w3infra",
		NameTemplate: "consumer",
		PK:           KeyAttr{"subscription", TypeS},
		SK:           sk("provider", TypeS),
		Attrs: map[string]string{
			"subscription": "S", "provider": "S", "cause": "S", "consumer": "S",
			"insertedAt": "S", "updatedAt": "S",
		},
		Indexes: []Index{
			{Name: IndexConsumersByConsumer, PK: KeyAttr{"consumer", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"provider", "subscription"}}},
			{Name: IndexConsumersByProvider, PK: KeyAttr{"provider", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"consumer"}}},
		},
	},
	{
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
}

// Schemas returns every table description, in a stable order.
func Schemas() []TableSchema {
	out := make([]TableSchema, len(schemas))
	copy(out, schemas)
	return out
}

// Schema returns the description of one table.
func Schema(id TableID) (TableSchema, bool) {
	for _, s := range schemas {
		if s.ID == id {
			return s, true
		}
	}
	return TableSchema{}, false
}

// MustSchema is Schema for ids that are compile-time constants of this package.
func MustSchema(id TableID) TableSchema {
	s, ok := Schema(id)
	if !ok {
		panic("data: unknown table id " + string(id))
	}
	return s
}

// TableIDs lists every known logical table id, sorted.
func TableIDs() []TableID {
	ids := make([]TableID, 0, len(schemas))
	for _, s := range schemas {
		ids = append(ids, s.ID)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// Tables maps logical table ids to physical table names for one environment.
type Tables struct {
	Env   string
	names map[TableID]string
}

// ResolveTables fills each template with env and then applies overrides
// (from the config file's `tables:` map). An override for an unknown id is an
// error, so a typo in the config is never silently ignored.
func ResolveTables(env string, overrides map[string]string) (Tables, error) {
	if env == "" {
		env = "dev"
	}
	t := Tables{Env: env, names: map[TableID]string{}}
	for _, s := range schemas {
		t.names[s.ID] = strings.ReplaceAll(s.NameTemplate, "{env}", env)
	}
	for k, v := range overrides {
		id := TableID(k)
		if _, ok := t.names[id]; !ok {
			return Tables{}, fmt.Errorf("unknown table %q (known: %s)", k, joinIDs(TableIDs()))
		}
		if len(v) < 3 || len(v) > 255 {
			return Tables{}, fmt.Errorf("table %q: physical name %q must be 3 to 255 characters", k, v)
		}
		t.names[id] = v
	}
	return t, nil
}

// WithPrefix returns a copy whose physical names all start with prefix. Tests
// use it to give each test its own set of tables on one shared server.
func (t Tables) WithPrefix(prefix string) Tables {
	out := Tables{Env: t.Env, names: make(map[TableID]string, len(t.names))}
	for id, n := range t.names {
		out.names[id] = prefix + n
	}
	return out
}

// Name returns the physical table name for id.
func (t Tables) Name(id TableID) string {
	if n, ok := t.names[id]; ok {
		return n
	}
	// A zero Tables still answers with the default template for dev.
	s := MustSchema(id)
	return strings.ReplaceAll(s.NameTemplate, "{env}", "dev")
}

// ByName finds the logical id of a physical table name.
func (t Tables) ByName(physical string) (TableID, bool) {
	for id, n := range t.names {
		if n == physical {
			return id, true
		}
	}
	return "", false
}

func joinIDs(ids []TableID) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = string(id)
	}
	return strings.Join(parts, ", ")
}
