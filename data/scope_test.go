package data

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func scS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func scN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func scB(v bool) types.AttributeValue   { return &types.AttributeValueMemberBOOL{Value: v} }
func scItem(kv ...any) Item {
	it := Item{}
	for i := 0; i+1 < len(kv); i += 2 {
		it[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return it
}

func TestScopeMatches(t *testing.T) {
	session := func(project, status string, expires types.AttributeValue) Item {
		it := scItem("sessionId", scS("s-1"), "projectId", scS(project), "status", scS(status), "createdAt", scS("2026-01-01T00:00:00Z"))
		if expires != nil {
			it["expiresAt"] = expires
		}
		return it
	}
	sandbox := func(status string, allocatedAt types.AttributeValue, track string) Item {
		it := scItem("PK", scS("SBX#1"), "SK", scS("META"), "status", scS(status))
		if allocatedAt != nil {
			it["allocated_at"] = allocatedAt
		}
		if track != "" {
			it["allocated_to_track"] = scS(track)
			it["idempotency_key"] = scS(track)
		}
		return it
	}
	event := func(user, typeTS, statusTS string) Item {
		return scItem("user_id", scS(user), "timestamp#event_id", scS("2026-01-01T00:00:00Z#e1"),
			"event_type#timestamp", scS(typeTS), "status#timestamp", scS(statusTS))
	}

	tests := []struct {
		name  string
		scope Scope
		item  Item
		want  bool
	}{
		{"sessions by project: same project", SessionsByProject("p1"), session("p1", "RUNNING", scN("1")), true},
		{"sessions by project: other project", SessionsByProject("p1"), session("p2", "RUNNING", scN("1")), false},
		{"sessions by project: projectId wrong type", SessionsByProject("p1"), scItem("sessionId", scS("x"), "projectId", scN("1"), "createdAt", scS("t")), false},
		{"sessions by project: no createdAt, not in the sparse index", SessionsByProject("p1"), scItem("sessionId", scS("x"), "projectId", scS("p1")), false},
		{"sessions by status: match", SessionsByStatus("RUNNING"), session("p1", "RUNNING", scN("1700000000")), true},
		{"sessions by status: left the status", SessionsByStatus("RUNNING"), session("p1", "COMPLETED", scN("1700000000")), false},
		{"sessions by status: status case matters", SessionsByStatus("RUNNING"), session("p1", "running", scN("1")), false},
		{"sessions by status: expiresAt missing (sparse)", SessionsByStatus("RUNNING"), session("p1", "RUNNING", nil), false},
		{"sessions by status: expiresAt is a string (not in N-typed index)", SessionsByStatus("RUNNING"), session("p1", "RUNNING", scS("1700000000")), false},
		{"session by id", SessionByID("s-1"), session("p1", "RUNNING", nil), true},
		{"session by id: other", SessionByID("s-2"), session("p1", "RUNNING", nil), false},
		{"api keys by project", APIKeysByProject("p1"), scItem("apiKeyHash", scS("h"), "projectId", scS("p1")), true},
		{"api keys by project: other", APIKeysByProject("p1"), scItem("apiKeyHash", scS("h"), "projectId", scS("p10")), false},
		{"runs by user", RunsByUser("12345"), scItem("PK", scS("USER#12345"), "SK", scS("RUN#2026-02-22T19:12:11Z#c8a91e")), true},
		{"runs by user: other user with common prefix", RunsByUser("1234"), scItem("PK", scS("USER#12345"), "SK", scS("RUN#x")), false},
		{"runs by user: not a run item", RunsByUser("12345"), scItem("PK", scS("USER#12345"), "SK", scS("PROFILE")), false},
		{"run by id", RunByID("c8a91e"), scItem("PK", scS("USER#1"), "SK", scS("RUN#t#c8a91e"), "GSI1PK", scS("RUN#c8a91e"), "GSI1SK", scS("USER#1")), true},
		{"run by id: no GSI1SK, not in index", RunByID("c8a91e"), scItem("PK", scS("USER#1"), "SK", scS("RUN#t#c8a91e"), "GSI1PK", scS("RUN#c8a91e")), false},
		{"run by id: other run", RunByID("c8a91e"), scItem("GSI1PK", scS("RUN#zzz"), "GSI1SK", scS("USER#1")), false},
		{"events by user", EventsByUser("u1"), event("u1", "order.created#t", "pending#t"), true},
		{"events by user: other", EventsByUser("u1"), event("u2", "order.created#t", "pending#t"), false},
		{"events by type prefix", EventsByType("u1", "order."), event("u1", "order.created#t", "pending#t"), true},
		{"events by type prefix: other type", EventsByType("u1", "order."), event("u1", "user.signup#t", "pending#t"), false},
		{"events by type prefix: other user", EventsByType("u1", "order."), event("u2", "order.created#t", "pending#t"), false},
		{"events by status prefix", EventsByStatus("u1", "pending"), event("u1", "a#t", "pending#2026"), true},
		{"events by status prefix: delivered", EventsByStatus("u1", "pending"), event("u1", "a#t", "delivered#2026"), false},
		{"events for type+status: both hold", EventsFor("u1", "order.", "failed"), event("u1", "order.created#t", "failed#t"), true},
		{"events for type+status: status filter fails", EventsFor("u1", "order.", "failed"), event("u1", "order.created#t", "pending#t"), false},
		{"events for status only", EventsFor("u1", "", "failed"), event("u1", "x#t", "failed#t"), true},
		{"events for neither", EventsFor("u1", "", ""), event("u1", "x#t", "failed#t"), true},
		{"delegations by audience", DelegationsByAudience("did:key:a"), scItem("link", scS("bafy"), "audience", scS("did:key:a")), true},
		{"delegations by audience: other", DelegationsByAudience("did:key:a"), scItem("link", scS("bafy"), "audience", scS("did:key:b")), false},
		{"subscriptions by customer", SubscriptionsByCustomer("did:mailto:x"), scItem("subscription", scS("sub"), "provider", scS("did:web:p"), "customer", scS("did:mailto:x")), true},
		{"subscriptions by customer: no provider (index SK)", SubscriptionsByCustomer("did:mailto:x"), scItem("subscription", scS("sub"), "customer", scS("did:mailto:x")), false},
		{"subscriptions by customer+provider", SubscriptionsByCustomerProvider("did:mailto:x", "did:web:p"), scItem("subscription", scS("sub"), "provider", scS("did:web:p"), "customer", scS("did:mailto:x")), true},
		{"subscriptions by customer+provider: other provider", SubscriptionsByCustomerProvider("did:mailto:x", "did:web:q"), scItem("subscription", scS("sub"), "provider", scS("did:web:p"), "customer", scS("did:mailto:x")), false},
		{"subscriptions by customer+empty provider = by customer", SubscriptionsByCustomerProvider("did:mailto:x", ""), scItem("subscription", scS("sub"), "provider", scS("did:web:p"), "customer", scS("did:mailto:x")), true},
		{"subscriptions by provider", SubscriptionsByProvider("did:web:p"), scItem("subscription", scS("sub"), "provider", scS("did:web:p")), true},
		{"consumers by provider", ConsumersByProvider("did:web:p"), scItem("subscription", scS("sub"), "provider", scS("did:web:p"), "consumer", scS("c")), true},
		{"consumers by provider: other", ConsumersByProvider("did:web:p"), scItem("subscription", scS("sub"), "provider", scS("did:web:q")), false},
		{"consumers by consumer", ConsumersByConsumer("did:key:space"), scItem("subscription", scS("sub"), "provider", scS("p"), "consumer", scS("did:key:space")), true},
		{"consumers by consumer: other", ConsumersByConsumer("did:key:space"), scItem("subscription", scS("sub"), "provider", scS("p"), "consumer", scS("did:key:other")), false},
		{"sandboxes by status", SandboxesByStatus("available"), sandbox("available", scN("0"), ""), true},
		{"sandboxes by status: allocated", SandboxesByStatus("available"), sandbox("allocated", scN("17"), "t1"), false},
		{"sandboxes by status: allocated_at missing", SandboxesByStatus("available"), sandbox("available", nil, ""), false},
		{"sandboxes by track", SandboxesByTrack("t1"), sandbox("allocated", scN("17"), "t1"), true},
		{"sandboxes by track: released", SandboxesByTrack("t1"), sandbox("available", scN("0"), ""), false},
		{"sandboxes by idempotency key", SandboxesByIdempotencyKey("t1"), sandbox("allocated", scN("17"), "t1"), true},
		{"nil item (REMOVE) never matches", SessionsByProject("p1"), nil, false},
		{"empty item never matches", SessionsByProject("p1"), Item{}, false},
		{"bool where a key should be", SessionByID("true"), scItem("sessionId", scB(true)), false},
		{"nil attribute value", SessionByID("x"), Item{"sessionId": nil}, false},
		// The query sends the value with the key's declared type, and
		// DynamoDB's "=" compares types: a number never equals a string.
		{"number where the query sends a string never matches", Scope{Table: TableSandboxes, PKAttr: "n", PKValue: "42"}, scItem("n", scN("42")), false},
		{"filter term on a string: a number of the same text is not equal", ContextsOfProject("42"), scItem("contextId", scS("c"), "projectId", scN("42")), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.scope.Matches(tc.item); got != tc.want {
				t.Fatalf("%s.Matches(%v) = %v, want %v", tc.scope, tc.item, got, tc.want)
			}
		})
	}
}

// Every constructor must name an index that exists on its table with the
// attribute names the schema gives; otherwise Matches would silently accept
// items the query never returns.
func TestScopeConstructorsFollowSchema(t *testing.T) {
	scopes := []Scope{
		SessionsByProject("x"), SessionsByStatus("x"), SessionByID("x"), APIKeysByProject("x"),
		RunsByUser("x"), RunByID("x"), EventsByUser("x"), EventsByType("x", "p"), EventsByStatus("x", "p"),
		DelegationsByAudience("x"), SubscriptionsByCustomer("x"), SubscriptionsByProvider("x"), ConsumersByConsumer("x"), ConsumersByProvider("x"),
		SandboxesByStatus("x"), SandboxesByTrack("x"), SandboxesByIdempotencyKey("x"),
	}
	for _, sc := range scopes {
		schema := MustSchema(sc.Table)
		if sc.Index == "" {
			if sc.PKAttr != schema.PK.Name {
				t.Errorf("%s: PKAttr %q, table PK is %q", sc, sc.PKAttr, schema.PK.Name)
			}
			continue
		}
		ix, ok := schema.Index(sc.Index)
		if !ok {
			t.Errorf("%s: table has no index %q", sc, sc.Index)
			continue
		}
		if sc.PKAttr != ix.PK.Name {
			t.Errorf("%s: PKAttr %q, index PK is %q", sc, sc.PKAttr, ix.PK.Name)
		}
		if ix.SK != nil && sc.SKAttr != ix.SK.Name {
			t.Errorf("%s: SKAttr %q, index SK is %q", sc, sc.SKAttr, ix.SK.Name)
		}
	}
}

func TestScopeString(t *testing.T) {
	got := EventsFor("u1", "order.", "failed").String()
	want := "events · user_id=u1 · event_type#timestamp^=order. · status#timestamp^=failed"
	if got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	if SessionsByProject("a") == SessionsByProject("b") || SessionsByProject("a") != SessionsByProject("a") {
		t.Fatal("scopes must compare by value")
	}
}

// A jump narrows an inbox to one event type with "type#": the title says
// the type, not a prefix with a "#" and a "*" in it.
func TestEventsLabelSaysWhatThePrefixSelects(t *testing.T) {
	for _, c := range []struct{ typ, status, want string }{
		{"user.created#", "", "user u1 · type user.created"},
		{"user.", "", "user u1 · type user.*"},
		{"", "failed#", "user u1 · status failed"},
		{"order.", "fail", "user u1 · type order.* · status fail*"},
		{"#", "", "user u1 · type #*"},
	} {
		if got := EventsFor("u1", c.typ, c.status).Label; got != c.want {
			t.Errorf("EventsFor(u1, %q, %q).Label = %q, want %q", c.typ, c.status, got, c.want)
		}
	}
}
