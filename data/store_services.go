package data

import (
	"context"
	"fmt"
)

// --- AppLens graph runs ----------------------------------------------------

// RunsByUser lists a user's graph runs, newest first: PK = "USER#<userId>",
// SK begins_with "RUN#" (SK is "RUN#<timestamp>#<runId>").
func (s *Store) RunsByUser(ctx context.Context, userID string, req PageRequest) (Page[GraphRun], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableGraphRuns, pkValue: S(graphUserPrefix + userID),
		skOp: "begins_with", skValue: S(graphRunPrefix), newestFirst: true,
	}, req, DecodeGraphRun)
}

// RunByID finds a run by its runId through GSI1 (GSI1PK = "RUN#<runId>").
// If (wrongly) several users have a run with that id, the first by GSI1SK
// is returned.
func (s *Store) RunByID(ctx context.Context, runID string) (GraphRun, bool, error) {
	p, err := queryPage(ctx, s, keyQuery{
		table: TableGraphRuns, index: "GSI1", pkValue: S(graphRunPrefix + runID),
	}, PageRequest{Limit: 1}, DecodeGraphRun)
	if err != nil || len(p.Items) == 0 {
		return GraphRun{}, false, err
	}
	return p.Items[0], true, nil
}

// --- Zapier events ---------------------------------------------------------

// EventsByUser lists a user's events, newest first (base table, sort key
// `timestamp#event_id`).
func (s *Store) EventsByUser(ctx context.Context, userID string, req PageRequest) (Page[Event], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableEvents, pkValue: S(userID), newestFirst: true,
	}, req, DecodeEvent)
}

// EventsByType lists a user's events whose `event_type#timestamp` begins
// with typePrefix (EventTypeIndex), newest first within a type. Pass a full
// type followed by "#" ("user.created#") to exclude types that merely share
// the prefix ("user.created_v2").
func (s *Store) EventsByType(ctx context.Context, userID, typePrefix string, req PageRequest) (Page[Event], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableEvents, index: "EventTypeIndex", pkValue: S(userID),
		skOp: prefixOp(typePrefix), skValue: S(typePrefix), newestFirst: true,
	}, req, DecodeEvent)
}

// EventsByStatus lists a user's events whose `status#timestamp` begins with
// statusPrefix (StatusIndex), newest first. The same "#" advice applies
// ("failed#" does not match "failed_permanently"). An event whose
// status#timestamp was not updated with its status is listed under the old
// status; its decoded record flags that.
func (s *Store) EventsByStatus(ctx context.Context, userID, statusPrefix string, req PageRequest) (Page[Event], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableEvents, index: "StatusIndex", pkValue: S(userID),
		skOp: prefixOp(statusPrefix), skValue: S(statusPrefix), newestFirst: true,
	}, req, DecodeEvent)
}

// EventsMatching lists a user's events narrowed by an optional type prefix
// and an optional status prefix, newest first, choosing the query as
// data.EventsFor describes the scope: both → EventTypeIndex with a
// FilterExpression begins_with(status#timestamp, statusPrefix) (pages can
// be short, or empty with a Next); one → EventsByType or EventsByStatus;
// neither → EventsByUser.
func (s *Store) EventsMatching(ctx context.Context, userID, typePrefix, statusPrefix string, req PageRequest) (Page[Event], error) {
	switch {
	case typePrefix != "":
		return queryPage(ctx, s, keyQuery{
			table: TableEvents, index: "EventTypeIndex", pkValue: S(userID),
			skOp: "begins_with", skValue: S(typePrefix), newestFirst: true,
			filterAttr: AttrEventStatusKey, filterPrefix: statusPrefix,
		}, req, DecodeEvent)
	case statusPrefix != "":
		return s.EventsByStatus(ctx, userID, statusPrefix, req)
	}
	return s.EventsByUser(ctx, userID, req)
}

// Event reads one event by its full key (consistent read).
func (s *Store) Event(ctx context.Context, userID, sortKey string) (Event, bool, error) {
	return getRecord(ctx, s, TableEvents, Item{"user_id": S(userID), AttrEventSortKey: S(sortKey)}, DecodeEvent)
}

// prefixOp drops the sort key condition for an empty prefix (begins_with
// "" is rejected by DynamoDB).
func prefixOp(prefix string) string {
	if prefix == "" {
		return ""
	}
	return "begins_with"
}

// --- w3infra delegations, subscriptions, consumers ---------------------------

// DelegationsByAudience lists the delegations issued to audience (index
// `audience`, INCLUDE [link]: completed with BatchGetItem). The index has no
// sort key, so the order is DynamoDB's (stable, not meaningful).
func (s *Store) DelegationsByAudience(ctx context.Context, audience string, req PageRequest) (Page[Delegation], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableDelegations, index: "audience", pkValue: S(audience),
	}, req, DecodeDelegation)
}

// Delegation reads one delegation by its CID (consistent read).
func (s *Store) Delegation(ctx context.Context, link string) (Delegation, bool, error) {
	return getRecord(ctx, s, TableDelegations, Item{"link": S(link)}, DecodeDelegation)
}

// SubscriptionsByCustomer lists a customer's subscriptions (index
// `customer`, INCLUDE [cause, subscription]: completed with BatchGetItem),
// ordered by provider. A non-empty provider narrows to that provider (the
// query the service runs).
func (s *Store) SubscriptionsByCustomer(ctx context.Context, customer, provider string, req PageRequest) (Page[Subscription], error) {
	q := keyQuery{table: TableSubscriptions, index: "customer", pkValue: S(customer)}
	if provider != "" {
		q.skOp, q.skValue = "=", S(provider)
	}
	return queryPage(ctx, s, q, req, DecodeSubscription)
}

// SubscriptionsByProvider lists a provider's subscriptions (index
// `provider`, INCLUDE [customer]: completed with BatchGetItem).
func (s *Store) SubscriptionsByProvider(ctx context.Context, provider string, req PageRequest) (Page[Subscription], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableSubscriptions, index: "provider", pkValue: S(provider),
	}, req, DecodeSubscription)
}

// Subscription reads one subscription by its key (consistent read).
func (s *Store) Subscription(ctx context.Context, subscription, provider string) (Subscription, bool, error) {
	return getRecord(ctx, s, TableSubscriptions, Item{"subscription": S(subscription), "provider": S(provider)}, DecodeSubscription)
}

// ConsumersByConsumer lists the providers a consumer (space) uses (index
// `consumer`, INCLUDE [provider, subscription]: completed with BatchGetItem).
func (s *Store) ConsumersByConsumer(ctx context.Context, consumer string, req PageRequest) (Page[Consumer], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableConsumers, index: "consumer", pkValue: S(consumer),
	}, req, DecodeConsumer)
}

// ConsumersByProvider lists a provider's consumers (index `provider`,
// INCLUDE [consumer]: completed with BatchGetItem).
func (s *Store) ConsumersByProvider(ctx context.Context, provider string, req PageRequest) (Page[Consumer], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableConsumers, index: "provider", pkValue: S(provider),
	}, req, DecodeConsumer)
}

// Consumer reads one consumer record by its key (consistent read).
func (s *Store) Consumer(ctx context.Context, subscription, provider string) (Consumer, bool, error) {
	return getRecord(ctx, s, TableConsumers, Item{"subscription": S(subscription), "provider": S(provider)}, DecodeConsumer)
}

// --- Sandbox pool ------------------------------------------------------------

// SandboxesByStatus lists sandboxes in a status (StatusIndex), oldest
// allocation first, so the allocations closest to expiry come first.
func (s *Store) SandboxesByStatus(ctx context.Context, status string, req PageRequest) (Page[Sandbox], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableSandboxes, index: "StatusIndex", pkValue: S(status),
	}, req, DecodeSandbox)
}

// SandboxesByTrack lists the sandboxes allocated to a track (TrackIndex),
// oldest allocation first.
func (s *Store) SandboxesByTrack(ctx context.Context, track string, req PageRequest) (Page[Sandbox], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableSandboxes, index: "TrackIndex", pkValue: S(track),
	}, req, DecodeSandbox)
}

// SandboxesByIdempotencyKey lists the allocations made under an idempotency
// key (IdempotencyIndex), oldest first. More than one is itself a finding.
func (s *Store) SandboxesByIdempotencyKey(ctx context.Context, key string, req PageRequest) (Page[Sandbox], error) {
	return queryPage(ctx, s, keyQuery{
		table: TableSandboxes, index: "IdempotencyIndex", pkValue: S(key),
	}, req, DecodeSandbox)
}

// Sandbox reads one sandbox by id (PK "SBX#<id>", SK "META"; consistent read).
func (s *Store) Sandbox(ctx context.Context, sandboxID string) (Sandbox, bool, error) {
	return getRecord(ctx, s, TableSandboxes, SandboxKey(sandboxID), DecodeSandbox)
}

// Get reads any record by table and key, decoded (consistent read). The
// action layer uses it to re-read the item it is about to change.
func (s *Store) Get(ctx context.Context, table TableID, key Item) (Record, bool, error) {
	it, found, err := s.GetItem(ctx, table, key)
	if err != nil || !found {
		return nil, false, err
	}
	r := Decode(table, it)
	if r == nil {
		return nil, false, fmt.Errorf("data: unknown table %q", table)
	}
	return r, true, nil
}
