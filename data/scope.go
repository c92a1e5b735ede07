package data

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Scope describes the set of items one pane lists: the key condition of its
// Query (table or GSI, partition value, optional sort-key prefix) plus any
// filter terms. The live tail uses it to decide, from a stream record's new
// image alone, whether the row belongs in the pane — so a pane can insert,
// update or remove rows in place instead of re-running its query.
//
// Matches mirrors what DynamoDB itself would return for that Query: an item
// only appears in a GSI when every key attribute of the index is present with
// the index's declared type (sparse indexes), so Matches checks that too.
// Scope is comparable with ==, so a pane can tell whether its scope changed.
type Scope struct {
	Table TableID
	Index string // GSI name; "" queries the base table

	PKAttr, PKValue  string // partition key equality; PKAttr "" means the whole table
	SKAttr, SKPrefix string // sort key begins_with; SKPrefix "" means any sort key

	// Extra holds up to two filter terms applied after the key condition
	// (the FilterExpression of the query). A fixed array rather than a slice
	// keeps Scope comparable.
	Extra [2]Cond
}

// Cond is one filter term: the string attribute Attr equals Value, or begins
// with it when Prefix is set. A zero Cond (Attr "") is ignored.
type Cond struct {
	Attr   string
	Value  string
	Prefix bool
}

// Matches reports whether item (typically a stream record's NEW image) falls
// in the scope. A nil or empty item never matches, so a REMOVE record (no new
// image) always takes its row out of a pane. It never panics on malformed
// items: a key attribute of the wrong type simply does not match, exactly as
// DynamoDB would leave such an item out of the index.
func (s Scope) Matches(item map[string]types.AttributeValue) bool {
	if len(item) == 0 {
		return false
	}
	if !s.inIndex(item) {
		return false
	}
	if s.PKAttr != "" {
		v, ok := keyString(item[s.PKAttr])
		if !ok || v != s.PKValue {
			return false
		}
	}
	if s.SKAttr != "" && s.SKPrefix != "" {
		v, ok := item[s.SKAttr].(*types.AttributeValueMemberS)
		if !ok || !strings.HasPrefix(v.Value, s.SKPrefix) {
			return false
		}
	}
	for _, c := range s.Extra {
		if c.Attr != "" && !c.holds(item) {
			return false
		}
	}
	return true
}

// inIndex checks GSI membership: every key attribute of the index must be
// present with the declared scalar type. For the base table (or an index the
// schema does not know) every item qualifies.
func (s Scope) inIndex(item map[string]types.AttributeValue) bool {
	if s.Index == "" {
		return true
	}
	schema, ok := Schema(s.Table)
	if !ok {
		return true
	}
	ix, ok := schema.Index(s.Index)
	if !ok {
		return true
	}
	if !hasKeyType(item[ix.PK.Name], ix.PK.Type) {
		return false
	}
	if ix.SK != nil && !hasKeyType(item[ix.SK.Name], ix.SK.Type) {
		return false
	}
	return true
}

func (c Cond) holds(item map[string]types.AttributeValue) bool {
	v, ok := keyString(item[c.Attr])
	if !ok {
		return false
	}
	if c.Prefix {
		return strings.HasPrefix(v, c.Value)
	}
	return v == c.Value
}

// hasKeyType reports whether v is a scalar of the given key type.
func hasKeyType(v types.AttributeValue, t AttrType) bool {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return t == TypeS
	case *types.AttributeValueMemberN:
		return t == TypeN
	case *types.AttributeValueMemberB:
		return t == TypeB
	}
	return false
}

// keyString reads a string or number attribute as the text a key condition
// compares against. Other types have no such text and never match.
func keyString(v types.AttributeValue) (string, bool) {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return x.Value, true
	case *types.AttributeValueMemberN:
		return x.Value, true
	}
	return "", false
}

// String renders the scope for a pane title, e.g.
// "sessions · projectId=p-1" or "events · user_id=u-1 · event_type#timestamp^=order.".
// The result is raw data (tenant values included): pass it through the
// sanitiser before it reaches the screen.
func (s Scope) String() string {
	var b strings.Builder
	b.WriteString(string(s.Table))
	if s.PKAttr != "" {
		b.WriteString(" · ")
		b.WriteString(s.PKAttr)
		b.WriteString("=")
		b.WriteString(s.PKValue)
	}
	if s.SKAttr != "" && s.SKPrefix != "" {
		b.WriteString(" · ")
		b.WriteString(s.SKAttr)
		b.WriteString("^=")
		b.WriteString(s.SKPrefix)
	}
	for _, c := range s.Extra {
		if c.Attr == "" {
			continue
		}
		b.WriteString(" · ")
		b.WriteString(c.Attr)
		if c.Prefix {
			b.WriteString("^=")
		} else {
			b.WriteString("=")
		}
		b.WriteString(c.Value)
	}
	return b.String()
}

// The constructors below mirror the list queries of the panes one for one.
// Attribute and index names come from the schemas, so a schema change that
// renames an index breaks these at the same place it breaks the queries.

func indexScope(t TableID, index, pkValue, skPrefix string) Scope {
	ix, ok := MustSchema(t).Index(index)
	if !ok {
		panic("data: table " + string(t) + " has no index " + index)
	}
	s := Scope{Table: t, Index: index, PKAttr: ix.PK.Name, PKValue: pkValue}
	if ix.SK != nil {
		s.SKAttr, s.SKPrefix = ix.SK.Name, skPrefix
	}
	return s
}

func baseScope(t TableID, pkValue, skPrefix string) Scope {
	schema := MustSchema(t)
	s := Scope{Table: t, PKAttr: schema.PK.Name, PKValue: pkValue}
	if schema.SK != nil {
		s.SKAttr, s.SKPrefix = schema.SK.Name, skPrefix
	}
	return s
}

// SessionsByProject: projectId-createdAt-index, projectId = id.
func SessionsByProject(projectID string) Scope {
	return indexScope(TableSessions, "projectId-createdAt-index", projectID, "")
}

// SessionsByStatus: status-expiresAt-index, status = s. The index is sparse on
// expiresAt, so a session without a numeric expiresAt is not in it.
func SessionsByStatus(status string) Scope {
	return indexScope(TableSessions, "status-expiresAt-index", status, "")
}

// SessionByID: the one session with sessionId = id (`:session <id>`).
func SessionByID(sessionID string) Scope {
	return baseScope(TableSessions, sessionID, "")
}

// APIKeysByProject: projectId-index, projectId = id.
func APIKeysByProject(projectID string) Scope {
	return indexScope(TableAPIKeys, "projectId-index", projectID, "")
}

// RunsByUser: base table, PK = "USER#"+id and SK begins_with "RUN#".
func RunsByUser(userID string) Scope {
	return baseScope(TableGraphRuns, "USER#"+userID, "RUN#")
}

// RunByID: GSI1, GSI1PK = "RUN#"+id.
func RunByID(runID string) Scope {
	return indexScope(TableGraphRuns, "GSI1", "RUN#"+runID, "")
}

// EventsByUser: base table, user_id = id (newest first by timestamp#event_id).
func EventsByUser(userID string) Scope {
	return baseScope(TableEvents, userID, "")
}

// EventsByType: EventTypeIndex, user_id = id and event_type#timestamp
// begins_with prefix.
func EventsByType(userID, typePrefix string) Scope {
	return indexScope(TableEvents, "EventTypeIndex", userID, typePrefix)
}

// EventsByStatus: StatusIndex, user_id = id and status#timestamp begins_with
// prefix.
func EventsByStatus(userID, statusPrefix string) Scope {
	return indexScope(TableEvents, "StatusIndex", userID, statusPrefix)
}

// EventsFor is the scope of `:inbox <user> [type=P] [status=P]`: the type
// index when a type prefix is given (the status prefix, if any, becomes a
// filter term on status#timestamp), else the status index, else the table.
func EventsFor(userID, typePrefix, statusPrefix string) Scope {
	switch {
	case typePrefix != "":
		s := EventsByType(userID, typePrefix)
		if statusPrefix != "" {
			s.Extra[0] = Cond{Attr: "status#timestamp", Value: statusPrefix, Prefix: true}
		}
		return s
	case statusPrefix != "":
		return EventsByStatus(userID, statusPrefix)
	}
	return EventsByUser(userID)
}

// DelegationsByAudience: the audience index, audience = did.
func DelegationsByAudience(audience string) Scope {
	return indexScope(TableDelegations, "audience", audience, "")
}

// SubscriptionsByCustomer: the customer index, customer = did.
func SubscriptionsByCustomer(customer string) Scope {
	return indexScope(TableSubscriptions, "customer", customer, "")
}

// SubscriptionsByCustomerProvider: the customer index narrowed to one
// provider (Store.SubscriptionsByCustomer with a provider: SK equality,
// expressed as a filter term since Scope's sort-key condition is a prefix).
func SubscriptionsByCustomerProvider(customer, provider string) Scope {
	s := SubscriptionsByCustomer(customer)
	if provider != "" {
		s.Extra[0] = Cond{Attr: "provider", Value: provider}
	}
	return s
}

// SubscriptionsByProvider: the provider index, provider = did.
func SubscriptionsByProvider(provider string) Scope {
	return indexScope(TableSubscriptions, "provider", provider, "")
}

// ConsumersByProvider: the provider index, provider = did.
func ConsumersByProvider(provider string) Scope {
	return indexScope(TableConsumers, "provider", provider, "")
}

// ConsumersByConsumer: the consumer index, consumer = did.
func ConsumersByConsumer(consumer string) Scope {
	return indexScope(TableConsumers, "consumer", consumer, "")
}

// SandboxesByStatus: StatusIndex, status = s (sparse on allocated_at, which
// the broker sets to 0 for unallocated sandboxes for exactly this reason).
func SandboxesByStatus(status string) Scope {
	return indexScope(TableSandboxes, "StatusIndex", status, "")
}

// SandboxesByTrack: TrackIndex, allocated_to_track = track.
func SandboxesByTrack(track string) Scope {
	return indexScope(TableSandboxes, "TrackIndex", track, "")
}

// SandboxesByIdempotencyKey: IdempotencyIndex, idempotency_key = key.
func SandboxesByIdempotencyKey(key string) Scope {
	return indexScope(TableSandboxes, "IdempotencyIndex", key, "")
}
