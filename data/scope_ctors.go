package data

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The scope constructors: one per access pattern the console reads (and
// the one count it makes). Index and attribute names come from the
// schemas, so a schema change that renames an index breaks here, at the
// same place for the query, the count and the live tail.

// indexScope is a Query on index: partition key = pk, and when the index
// has a sort key and skPrefix is not empty, begins_with(sort key, skPrefix).
func indexScope(t TableID, index, pk, skPrefix string) Scope {
	ix, ok := MustSchema(t).Index(index)
	if !ok {
		panic("data: table " + string(t) + " has no index " + index)
	}
	s := Scope{Table: t, Index: index, PKAttr: ix.PK.Name, PKValue: pk}
	if ix.SK != nil {
		s.SKAttr = ix.SK.Name
		s.SKOp, s.SKValue = prefix(skPrefix)
	}
	return s
}

// baseScope is a Query on the base table: partition key = pk, and when the
// table has a sort key and skPrefix is not empty, begins_with on it.
func baseScope(t TableID, pk, skPrefix string) Scope {
	schema := MustSchema(t)
	s := Scope{Table: t, PKAttr: schema.PK.Name, PKValue: pk}
	if schema.SK != nil {
		s.SKAttr = schema.SK.Name
		s.SKOp, s.SKValue = prefix(skPrefix)
	}
	return s
}

// getScope is one item by its whole primary key (GetItem).
func getScope(t TableID, pk, sk string) Scope {
	schema := MustSchema(t)
	s := Scope{Table: t, PKAttr: schema.PK.Name, PKValue: pk}
	if schema.SK != nil {
		s.SKAttr, s.SKOp, s.SKValue = schema.SK.Name, SKEqual, sk
	}
	return s
}

// prefix is the sort-key condition of a prefix: none for "" (DynamoDB
// rejects begins_with on an empty string).
func prefix(p string) (SKOp, string) {
	if p == "" {
		return SKAny, ""
	}
	return SKBeginsWith, p
}

func labelled(s Scope, label string) Scope {
	s.Label = label
	return s
}

// --- Wallcrawler ------------------------------------------------------------

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

// --- AppLens ------------------------------------------------------------------

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

// --- Zapier events --------------------------------------------------------------

// EventsByUser: a user's events, newest first (base table).
func EventsByUser(userID string) Scope {
	return EventsFor(userID, "", "")
}

// EventsByType: a user's events whose event_type#timestamp begins with
// typePrefix (EventTypeIndex), newest first. "user.created#" excludes types
// that merely share the prefix ("user.created_v2").
func EventsByType(userID, typePrefix string) Scope {
	return EventsFor(userID, typePrefix, "")
}

// EventsByStatus: a user's events whose status#timestamp begins with
// statusPrefix (StatusIndex), newest first.
func EventsByStatus(userID, statusPrefix string) Scope {
	return EventsFor(userID, "", statusPrefix)
}

// EventsFor is the scope of `:inbox <user> [type=P] [status=P]`: the type
// index when a type prefix is given (the status prefix, if any, becomes a
// filter term on status#timestamp), else the status index, else the table.
// Every one is read newest first.
func EventsFor(userID, typePrefix, statusPrefix string) Scope {
	var s Scope
	switch {
	case typePrefix != "":
		s = indexScope(TableEvents, IndexEventsByType, userID, typePrefix)
		if statusPrefix != "" {
			s.Filter[0] = Cond{Attr: AttrEventStatusKey, Value: statusPrefix, Prefix: true}
		}
	case statusPrefix != "":
		s = indexScope(TableEvents, IndexEventsByStatus, userID, statusPrefix)
	default:
		s = baseScope(TableEvents, userID, "")
	}
	s.NewestFirst = true
	label := "user " + userID
	if typePrefix != "" {
		label += " · type " + PrefixLabel(typePrefix)
	}
	if statusPrefix != "" {
		label += " · status " + PrefixLabel(statusPrefix)
	}
	return labelled(s, label)
}

// PrefixLabel says what a key prefix selects: "user.created#" is exactly
// the type user.created (the "#" ends the type in event_type#timestamp),
// "user." every type that begins so ("user.*").
func PrefixLabel(prefix string) string {
	if t, exact := strings.CutSuffix(prefix, "#"); exact && t != "" {
		return t
	}
	return prefix + "*"
}

// EventByKey: one event by its full key (GetItem, the document's Pattern
// 2).
func EventByKey(userID, sortKey string) Scope {
	return labelled(getScope(TableEvents, userID, sortKey), "event "+sortKey)
}

// EventByID: a user's event by its event_id alone. The sort key is
// "<timestamp>#<event_id>" and no index is keyed by event_id, so without
// the timestamp the event is found by reading the user's partition (the
// document's Pattern 3, newest first) with the filter event_id = id: a
// Query whose pages can come back empty, costing the partition read up to
// the event — never a Scan.
func EventByID(userID, eventID string) Scope {
	s := baseScope(TableEvents, userID, "")
	s.NewestFirst = true
	s.Filter[0] = Cond{Attr: AttrEventID, Value: eventID}
	return labelled(s, "event "+eventID)
}

// EventLookup is `:event <userId> <sortKey or eventId>`: a whole sort key
// (it holds the '#' between timestamp and event id, which a UUID event id
// never does) is a GetItem; anything else is an event id (EventByID).
func EventLookup(userID, keyOrID string) Scope {
	if strings.Contains(keyOrID, eventKeySep) {
		return EventByKey(userID, keyOrID)
	}
	return EventByID(userID, keyOrID)
}

// --- w3infra ---------------------------------------------------------------------

// DelegationsByAudience: delegations to an audience (index audience,
// INCLUDE [link]: completed with BatchGetItem). No sort key: DynamoDB's
// order, stable but not meaningful.
func DelegationsByAudience(audience string) Scope {
	return labelled(indexScope(TableDelegations, IndexDelegationsByAudience, audience, ""), "audience "+audience)
}

// DelegationByLink: one delegation by its CID (GetItem).
func DelegationByLink(link string) Scope {
	return labelled(getScope(TableDelegations, link, ""), "delegation "+link)
}

// SubscriptionsByCustomer: a customer's subscriptions, by provider (index
// customer, INCLUDE: completed).
func SubscriptionsByCustomer(customer string) Scope {
	return SubscriptionsByCustomerProvider(customer, "")
}

// SubscriptionsByCustomerProvider: the customer index narrowed to one
// provider by its sort key (the query the service runs); an empty provider
// is every provider.
func SubscriptionsByCustomerProvider(customer, provider string) Scope {
	s := indexScope(TableSubscriptions, IndexSubscriptionsByCustomer, customer, "")
	label := "customer " + customer
	if provider != "" {
		s.SKOp, s.SKValue = SKEqual, provider
		label += " · provider " + provider
	}
	return labelled(s, label)
}

// SubscriptionsByProvider: a provider's subscriptions (index provider).
func SubscriptionsByProvider(provider string) Scope {
	return labelled(indexScope(TableSubscriptions, IndexSubscriptionsByProvider, provider, ""), "provider "+provider)
}

// SubscriptionByID: the records of one subscription key, one per provider
// (a Query on the base table by its partition key, the provider being the
// sort key): the document's provisional "find the customer of a given
// subscription".
func SubscriptionByID(subscription string) Scope {
	return labelled(baseScope(TableSubscriptions, subscription, ""), "subscription "+subscription)
}

// SubscriptionByKey: one subscription (GetItem).
func SubscriptionByKey(subscription, provider string) Scope {
	return labelled(getScope(TableSubscriptions, subscription, provider), "subscription "+subscription)
}

// ConsumersByConsumer: the providers a consumer (space) uses (index
// consumer, INCLUDE: completed).
func ConsumersByConsumer(consumer string) Scope {
	return labelled(indexScope(TableConsumers, IndexConsumersByConsumer, consumer, ""), "consumer "+consumer)
}

// ConsumersByProvider: a provider's consumers (index provider).
func ConsumersByProvider(provider string) Scope {
	return labelled(indexScope(TableConsumers, IndexConsumersByProvider, provider, ""), "provider "+provider)
}

// ConsumerByKey: one consumer record (GetItem).
func ConsumerByKey(subscription, provider string) Scope {
	return labelled(getScope(TableConsumers, subscription, provider), "consumer "+subscription)
}

// --- Sandbox pool ------------------------------------------------------------------

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

// --- Overview counts ------------------------------------------------------------

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

// SandboxesDeletionFailing: pending deletions the cleanup job has failed
// at least atLeast times (StatusIndex, status = pending_deletion, filtered
// on deletion_retry_count — the document's "Failed deletion attempts").
func SandboxesDeletionFailing(atLeast int) Scope {
	s := SandboxesByStatus(SandboxPendingDeletion)
	s.Filter[0] = Cond{Attr: "deletion_retry_count", Value: strconv.Itoa(atLeast), Cmp: CmpAtLeast, Num: true}
	return labelled(s, "pending_deletion · deletion failed ≥ "+strconv.Itoa(atLeast)+" times")
}

// EventsExhausted: a user's failed events whose retry_count has reached
// retryMax (StatusIndex, status#timestamp begins_with "failed#", filtered
// on the number).
func EventsExhausted(userID string, retryMax int) Scope {
	s := EventsByStatus(userID, EventFailed+"#")
	s.Filter[0] = Cond{Attr: "retry_count", Value: strconv.Itoa(retryMax), Cmp: CmpAtLeast, Num: true}
	return labelled(s, "user "+userID+" · failed · retries ≥ "+strconv.Itoa(retryMax))
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

// --- Jumps ------------------------------------------------------------------------

// ItemScope is the one item whose primary key item holds (GetItem): where a
// stream record's item is shown in its pane. ok is false when the key is
// incomplete or not strings.
func ItemScope(t TableID, item Item) (Scope, bool) {
	schema, ok := Schema(t)
	if !ok {
		return Scope{}, false
	}
	text := func(k *KeyAttr) (string, bool) {
		if k == nil {
			return "", true
		}
		v, ok := item[k.Name].(*types.AttributeValueMemberS)
		if !ok {
			return "", false
		}
		return v.Value, true
	}
	pk, okPK := text(&schema.PK)
	sk, okSK := text(schema.SK)
	if !okPK || !okSK || pk == "" {
		return Scope{}, false
	}
	label := pk
	if sk != "" {
		label += " · " + sk
	}
	return labelled(getScope(t, pk, sk), "item "+label), true
}
