package data

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// pageAll follows cursors until the last page, failing on errors or on a
// runaway loop, and returns every item with the number of pages and the
// capacity reported.
func pageAll[T any](t *testing.T, limit int32, fetch func(PageRequest) (Page[T], error)) (items []T, pages int, consumed float64) {
	t.Helper()
	req := PageRequest{Limit: limit}
	for {
		p, err := fetch(req)
		if err != nil {
			t.Fatalf("page %d: %s", pages+1, Describe(err))
		}
		pages++
		consumed += p.Consumed
		if int32(len(p.Items)) > limit {
			t.Fatalf("page %d has %d items, limit %d", pages, len(p.Items), limit)
		}
		items = append(items, p.Items...)
		if p.Next == nil {
			return items, pages, consumed
		}
		if pages > 1000 {
			t.Fatal("more than 1000 pages: the cursor does not advance")
		}
		req.Cursor = p.Next
	}
}

func ids[T Record](rs []T) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID()
	}
	return out
}

func TestSessionsByProjectNewestFirstAcrossPages(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var want []string
	var items []Item
	for i := 0; i < 23; i++ {
		id := fmt.Sprintf("sess_%02d", i)
		items = append(items, sessionItem(id, "proj-a", "RUNNING", baseTime.Add(time.Duration(i)*time.Minute), 2e9))
		want = append([]string{id}, want...) // newest first
	}
	// Noise in another project must not leak in.
	items = append(items, sessionItem("other", "proj-b", "RUNNING", baseTime.Add(time.Hour), 2e9))
	db.put(TableSessions, items...)

	got, pages, consumed := pageAll(t, 5, func(r PageRequest) (Page[Session], error) {
		return db.store.SessionsByProject(ctx, "proj-a", r)
	})
	if strings.Join(ids(got), ",") != strings.Join(want, ",") {
		t.Fatalf("order/content:\n got %v\nwant %v", ids(got), want)
	}
	if pages < 5 {
		t.Errorf("23 items at 5 a page came in %d pages", pages)
	}
	if consumed <= 0 {
		t.Errorf("no consumed capacity recorded")
	}
	if db.store.ConsumedTotal() < consumed {
		t.Errorf("store total %v < pages' %v", db.store.ConsumedTotal(), consumed)
	}
	// Whole items: attributes a list never shows are there for the detail view.
	s := got[0]
	if s.SigningKey == "" || s.UserMetadata == nil || len(s.EventHistory) != 1 || len(s.Raw) != len(items[22]) {
		t.Errorf("not a whole item: %+v", s.Raw)
	}
}

func TestSessionsByStatusCompletesKeysOnlyIndexInExpiryOrder(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var items []Item
	expiries := map[string]int64{}
	for i := 0; i < 17; i++ {
		id := fmt.Sprintf("sess_%02d", i)
		exp := int64(1_800_000_000 + (i*7919)%97*60) // shuffled expiry order
		expiries[id] = exp
		items = append(items, sessionItem(id, "proj-a", "RUNNING", baseTime, exp))
	}
	stopped := sessionItem("sess_stopped", "proj-a", "STOPPED", baseTime, 1_800_000_000)
	stopped["updatedAt"] = num(baseTime.Unix()) // the container's numeric write
	noTTL := sessionItem("sess_nottl", "proj-a", "RUNNING", baseTime, 0)
	db.put(TableSessions, append(items, stopped, noTTL)...)

	got, pages, _ := pageAll(t, 4, func(r PageRequest) (Page[Session], error) {
		return db.store.SessionsByStatus(ctx, "RUNNING", r)
	})
	if len(got) != 17 || pages < 5 {
		t.Fatalf("got %d sessions in %d pages, want 17 in ≥5 (the one without expiresAt is not indexed)", len(got), pages)
	}
	for i, s := range got {
		if s.ExpiresAt.Unix() != expiries[s.SessionID] {
			t.Fatalf("%s: ExpiresAt %v", s.SessionID, s.ExpiresAt)
		}
		if i > 0 && s.ExpiresAt.Before(got[i-1].ExpiresAt) {
			t.Fatalf("not soonest expiry first at %d: %v after %v", i, s.ExpiresAt, got[i-1].ExpiresAt)
		}
		// KEYS_ONLY holds sessionId/status/expiresAt only; these prove the
		// BatchGetItem completion happened.
		if s.ProjectID != "proj-a" || s.SigningKey == "" || s.UserMetadata == nil || s.InternalStatus != "READY" {
			t.Fatalf("%s not completed: %v", s.SessionID, s.Raw)
		}
	}

	st, err := db.store.SessionsByStatus(ctx, "STOPPED", PageRequest{})
	if err != nil || len(st.Items) != 1 {
		t.Fatalf("STOPPED: %v %v", st.Items, err)
	}
	if s := st.Items[0]; s.SDKStatus != SessionCompleted || !hasProblem(s.Problems, "updatedAt", "unix seconds") || !s.UpdatedAt.Equal(baseTime) {
		t.Errorf("container row: sdk %q updatedAt %v problems %v", s.SDKStatus, s.UpdatedAt, s.Problems)
	}
}

func TestSessionProjectAPIKeysAndContexts(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	s1 := sessionItem("sess_1", "proj-a", "RUNNING", baseTime, 2e9)
	s1["contextId"] = str("ctx_1")
	s2 := sessionItem("sess_2", "proj-a", "RUNNING", baseTime.Add(time.Minute), 2e9)
	s2["contextId"] = str("ctx_1") // shared context: must be read once
	s3 := sessionItem("sess_3", "proj-a", "RUNNING", baseTime.Add(2*time.Minute), 2e9)
	s3["contextId"] = str("ctx_2")
	s4 := sessionItem("sess_4", "proj-a", "RUNNING", baseTime.Add(3*time.Minute), 2e9)
	s4["contextId"] = str("ctx_gone") // references a deleted context
	db.put(TableSessions, s1, s2, s3, s4, sessionItem("sess_b", "proj-b", "RUNNING", baseTime, 2e9))
	db.put(TableProjects,
		Item{"projectId": str("proj-a"), "name": str("Alpha"), "defaultTimeout": num(3600), "concurrency": num(5), "status": str("ACTIVE")},
		Item{"projectId": str("proj-b"), "name": str("Beta"), "status": str("INACTIVE")})
	db.put(TableContexts,
		Item{"contextId": str("ctx_1"), "projectId": str("proj-a"), "storageKey": str("proj-a/ctx_1/profile.tar.gz"), "status": str("CREATED")},
		Item{"contextId": str("ctx_2"), "projectId": str("proj-a"), "storageKey": str("proj-a/ctx_2/profile.tar.gz"), "status": str("CREATED")},
		Item{"contextId": str("ctx_unused"), "projectId": str("proj-a")})
	var keys []Item
	for i := 0; i < 7; i++ {
		keys = append(keys, Item{"apiKeyHash": str(fmt.Sprintf("hash%d", i)), "keyId": str(fmt.Sprintf("key%d", i)),
			"projectId": str("proj-a"), "projectIds": listv(str("proj-b")), "status": str("ACTIVE")})
	}
	keys = append(keys, Item{"apiKeyHash": str("hashB"), "projectId": str("proj-b")})
	db.put(TableAPIKeys, keys...)

	s, found, err := db.store.Session(ctx, "sess_3")
	if err != nil || !found || s.ContextID != "ctx_2" {
		t.Fatalf("Session: %v %v %v", s.SessionID, found, err)
	}
	if _, found, err := db.store.Session(ctx, "nope"); found || err != nil {
		t.Fatalf("missing session: found %v err %v", found, err)
	}

	p, found, err := db.store.Project(ctx, "proj-a")
	if err != nil || !found || p.DefaultTimeout != time.Hour || p.Concurrency.String() != "5" {
		t.Fatalf("Project: %+v %v %v", p, found, err)
	}
	ps, err := db.store.Projects(ctx, []string{"proj-b", "missing", "proj-a"})
	if err != nil || strings.Join(ids(ps.Items), ",") != "proj-b,proj-a" || ps.Next != nil {
		t.Fatalf("Projects: %v %v", ids(ps.Items), err)
	}

	ks, pages, _ := pageAll(t, 3, func(r PageRequest) (Page[APIKey], error) {
		return db.store.APIKeysByProject(ctx, "proj-a", r)
	})
	if len(ks) != 7 || pages < 3 || ks[0].ProjectIDs[0] != "proj-b" {
		t.Fatalf("APIKeysByProject: %d keys in %d pages", len(ks), pages)
	}

	cs, err := db.store.ContextsByProject(ctx, "proj-a", PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(Describe(err))
	}
	// Newest session first: sess_4 (ctx_gone, absent), sess_3 (ctx_2), sess_2/sess_1 (ctx_1).
	if strings.Join(ids(cs.Items), ",") != "ctx_2,ctx_1" || cs.Next != nil {
		t.Fatalf("ContextsByProject = %v next %v", ids(cs.Items), cs.Next)
	}
	if cs.Items[0].StorageKey != "proj-a/ctx_2/profile.tar.gz" {
		t.Errorf("context not whole: %v", cs.Items[0].Raw)
	}
	// One context a page: the sessions cursor must not skip any context.
	small, pages, _ := pageAll(t, 1, func(r PageRequest) (Page[BrowserContext], error) {
		return db.store.ContextsByProject(ctx, "proj-a", r)
	})
	union := map[string]bool{}
	for _, c := range small {
		union[c.ContextID] = true
	}
	if len(union) != 2 || !union["ctx_1"] || !union["ctx_2"] || pages < 3 {
		t.Fatalf("limit 1: %v in %d pages", ids(small), pages)
	}
	c, found, err := db.store.BrowserContext(ctx, "ctx_unused")
	if err != nil || !found || c.ProjectID != "proj-a" {
		t.Fatalf("BrowserContext: %v %v %v", c, found, err)
	}
}

func TestGraphRunsByUserAndByRunID(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var items []Item
	var want []string
	for i := 0; i < 11; i++ {
		run := fmt.Sprintf("run%02d", i)
		pk, sk, g1pk, g1sk := GraphRunKeys("12345", run, baseTime.Add(time.Duration(i)*time.Hour))
		items = append(items, Item{"PK": str(pk), "SK": str(sk), "GSI1PK": str(g1pk), "GSI1SK": str(g1sk),
			"runId": str(run), "status": str("COMPLETE"), "environment": str("prod"), "nodeCount": num(int64(i))})
		want = append([]string{run}, want...)
	}
	pk, sk, g1pk, g1sk := GraphRunKeys("999", "other", baseTime)
	items = append(items, Item{"PK": str(pk), "SK": str(sk), "GSI1PK": str(g1pk), "GSI1SK": str(g1sk), "runId": str("other"), "status": str("FAILED")})
	// A non-run item in the user's partition must not be listed as a run.
	items = append(items, Item{"PK": str("USER#12345"), "SK": str("PROFILE"), "name": str("x")})
	db.put(TableGraphRuns, items...)

	got, pages, _ := pageAll(t, 4, func(r PageRequest) (Page[GraphRun], error) {
		return db.store.RunsByUser(ctx, "12345", r)
	})
	if strings.Join(ids(got), ",") != strings.Join(want, ",") || pages < 3 {
		t.Fatalf("RunsByUser (%d pages):\n got %v\nwant %v", pages, ids(got), want)
	}
	if got[0].UserID() != "12345" || got[0].NodeCount.String() != "10" {
		t.Errorf("newest run: %+v", got[0])
	}
	r, found, err := db.store.RunByID(ctx, "run03")
	if err != nil || !found || r.UserID() != "12345" || r.NodeCount.String() != "3" || r.Environment != "prod" {
		t.Fatalf("RunByID: %+v %v %v", r, found, err)
	}
	if _, found, err := db.store.RunByID(ctx, "nope"); found || err != nil {
		t.Fatalf("RunByID(nope): %v %v", found, err)
	}
}

func TestEventsByUserTypeAndStatus(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	types := []string{"user.created", "order.completed", "user.created_v2"}
	statuses := []string{"received", "delivered", "failed", "retrying"}
	var items []Item
	for i := 0; i < 36; i++ {
		items = append(items, eventItem("user-1", fmt.Sprintf("e%02d", i), types[i%3], statuses[i%4], baseTime.Add(time.Duration(i)*time.Second)))
	}
	items = append(items, eventItem("user-2", "x", "user.created", "failed", baseTime))
	db.put(TableEvents, items...)

	all, pages, _ := pageAll(t, 10, func(r PageRequest) (Page[Event], error) {
		return db.store.EventsByUser(ctx, "user-1", r)
	})
	if len(all) != 36 || pages < 4 || all[0].EventID != "e35" || all[35].EventID != "e00" {
		t.Fatalf("EventsByUser: %d in %d pages, first %s last %s", len(all), pages, all[0].EventID, all[len(all)-1].EventID)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Timestamp.After(all[i-1].Timestamp) {
			t.Fatalf("not newest first at %d", i)
		}
	}

	// "user.created" as a prefix also matches "user.created_v2"; with the
	// "#" separator only the exact type.
	loose, _, _ := pageAll(t, 5, func(r PageRequest) (Page[Event], error) {
		return db.store.EventsByType(ctx, "user-1", "user.created", r)
	})
	exact, pages, _ := pageAll(t, 5, func(r PageRequest) (Page[Event], error) {
		return db.store.EventsByType(ctx, "user-1", "user.created#", r)
	})
	if len(loose) != 24 || len(exact) != 12 || pages < 3 {
		t.Fatalf("EventsByType: loose %d exact %d (%d pages)", len(loose), len(exact), pages)
	}
	for i, e := range exact {
		if e.EventType != "user.created" || (i > 0 && e.Timestamp.After(exact[i-1].Timestamp)) {
			t.Fatalf("EventsByType exact[%d] = %s %v", i, e.EventType, e.Timestamp)
		}
	}

	failed, _, _ := pageAll(t, 4, func(r PageRequest) (Page[Event], error) {
		return db.store.EventsByStatus(ctx, "user-1", "failed", r)
	})
	if len(failed) != 9 {
		t.Fatalf("EventsByStatus(failed) = %d", len(failed))
	}
	for _, e := range failed {
		if e.Status != "failed" || e.Payload == nil || len(e.Problems) != 0 {
			t.Fatalf("failed event: %+v", e)
		}
	}
	// Type and status together: EventTypeIndex plus a status filter.
	both, _, _ := pageAll(t, 4, func(r PageRequest) (Page[Event], error) {
		return db.store.EventsMatching(ctx, "user-1", "user.created#", "failed#", r)
	})
	for _, e := range both {
		if e.EventType != "user.created" || e.Status != "failed" {
			t.Fatalf("EventsMatching returned %s/%s", e.EventType, e.Status)
		}
	}
	if len(both) != 3 { // i%3==0 && i%4==2 for i<36: 6, 18, 30
		t.Fatalf("EventsMatching(user.created#, failed#) = %d events", len(both))
	}
	if m, _, _ := pageAll(t, 50, func(r PageRequest) (Page[Event], error) {
		return db.store.EventsMatching(ctx, "user-1", "", "", r)
	}); len(m) != 36 {
		t.Fatalf("EventsMatching with no prefixes = %d", len(m))
	}
	none, err := db.store.EventsByStatus(ctx, "user-1", "nosuch", PageRequest{})
	if err != nil || len(none.Items) != 0 || none.Next != nil {
		t.Fatalf("no match: %v %v", none.Items, err)
	}
	e, found, err := db.store.Event(ctx, "user-1", all[0].SortKey)
	if err != nil || !found || e.EventID != "e35" {
		t.Fatalf("Event: %v %v %v", e.EventID, found, err)
	}
}

func TestDelegationsSubscriptionsConsumersCompleteIncludeIndexes(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var dels []Item
	for i := 0; i < 13; i++ {
		dels = append(dels, Item{"link": str(fmt.Sprintf("bafy%02d", i)), "audience": str("did:web:up.storage"),
			"issuer": str("did:key:agent"), "cause": str("bafycause"), "expiration": num(9256939505), "insertedAt": str("2022-12-24T00:00:00Z")})
	}
	dels = append(dels, Item{"link": str("bafyother"), "audience": str("did:web:else")})
	db.put(TableDelegations, dels...)
	got, pages, _ := pageAll(t, 4, func(r PageRequest) (Page[Delegation], error) {
		return db.store.DelegationsByAudience(ctx, "did:web:up.storage", r)
	})
	if len(got) != 13 || pages < 4 {
		t.Fatalf("DelegationsByAudience: %d in %d pages", len(got), pages)
	}
	seen := map[string]bool{}
	for _, d := range got {
		if seen[d.Link] {
			t.Fatalf("duplicate %s across pages", d.Link)
		}
		seen[d.Link] = true
		// INCLUDE [link] holds only link and audience: issuer proves completion.
		if d.Issuer != "did:key:agent" || d.Expiration.Unix() != 9256939505 || d.Expired(baseTime) {
			t.Fatalf("delegation not whole: %v", d.Raw)
		}
	}
	if d, found, err := db.store.Delegation(ctx, "bafy03"); err != nil || !found || d.Cause != "bafycause" {
		t.Fatalf("Delegation: %v %v %v", d, found, err)
	}

	var subs, cons []Item
	for i := 0; i < 9; i++ {
		prov := fmt.Sprintf("did:web:p%d", i%3)
		subs = append(subs, Item{"subscription": str(fmt.Sprintf("sub%d", i)), "provider": str(prov),
			"customer": str("did:mailto:alice"), "cause": str("bafyc"), "insertedAt": str("2023-06-05T00:00:00Z")})
		cons = append(cons, Item{"subscription": str(fmt.Sprintf("sub%d", i)), "provider": str(prov),
			"consumer": str("did:key:space1"), "cause": str("bafyc"), "updatedAt": str("2023-06-05T00:00:00Z")})
	}
	db.put(TableSubscriptions, subs...)
	db.put(TableConsumers, cons...)

	byCust, pages, _ := pageAll(t, 2, func(r PageRequest) (Page[Subscription], error) {
		return db.store.SubscriptionsByCustomer(ctx, "did:mailto:alice", "", r)
	})
	if len(byCust) != 9 || pages < 3 {
		t.Fatalf("SubscriptionsByCustomer: %d in %d pages", len(byCust), pages)
	}
	for i := 1; i < len(byCust); i++ {
		if byCust[i].Provider < byCust[i-1].Provider {
			t.Fatalf("not ordered by provider")
		}
	}
	if byCust[0].InsertedAt.IsZero() {
		t.Errorf("subscription not completed (insertedAt is not in the INCLUDE list): %v", byCust[0].Raw)
	}
	one, err := db.store.SubscriptionsByCustomer(ctx, "did:mailto:alice", "did:web:p1", PageRequest{})
	if err != nil || len(one.Items) != 3 {
		t.Fatalf("by customer and provider: %d %v", len(one.Items), err)
	}
	byProv, _, _ := pageAll(t, 2, func(r PageRequest) (Page[Subscription], error) {
		return db.store.SubscriptionsByProvider(ctx, "did:web:p2", r)
	})
	if len(byProv) != 3 || byProv[0].Cause != "bafyc" {
		t.Fatalf("SubscriptionsByProvider: %v", byProv)
	}
	if sub, found, err := db.store.Subscription(ctx, "sub4", "did:web:p1"); err != nil || !found || sub.Customer != "did:mailto:alice" {
		t.Fatalf("Subscription: %v %v %v", sub, found, err)
	}

	byCons, pages, _ := pageAll(t, 4, func(r PageRequest) (Page[Consumer], error) {
		return db.store.ConsumersByConsumer(ctx, "did:key:space1", r)
	})
	if len(byCons) != 9 || pages < 3 || byCons[0].UpdatedAt.IsZero() || byCons[0].Cause == "" {
		t.Fatalf("ConsumersByConsumer: %d in %d pages, %v", len(byCons), pages, byCons[0].Raw)
	}
	consProv, _, _ := pageAll(t, 2, func(r PageRequest) (Page[Consumer], error) {
		return db.store.ConsumersByProvider(ctx, "did:web:p0", r)
	})
	if len(consProv) != 3 || consProv[0].Cause != "bafyc" {
		t.Fatalf("ConsumersByProvider: %v", consProv)
	}
	if c, found, err := db.store.Consumer(ctx, "sub0", "did:web:p0"); err != nil || !found || c.Consumer != "did:key:space1" {
		t.Fatalf("Consumer: %v %v %v", c, found, err)
	}
}

func TestSandboxesByStatusTrackIdempotencyAndID(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var items []Item
	for i := 0; i < 7; i++ {
		items = append(items, sandboxItem(fmt.Sprintf("avail%d", i), "available", "", 0))
	}
	for i := 0; i < 9; i++ {
		track := fmt.Sprintf("track-%d", i%2)
		items = append(items, sandboxItem(fmt.Sprintf("alloc%d", i), "allocated", track, 1759567084-int64(i*600)))
	}
	items = append(items, sandboxItem("pend", "pending_deletion", "track-0", 1759567000))
	db.put(TableSandboxes, items...)

	alloc, pages, _ := pageAll(t, 3, func(r PageRequest) (Page[Sandbox], error) {
		return db.store.SandboxesByStatus(ctx, "allocated", r)
	})
	if len(alloc) != 9 || pages < 3 || alloc[0].ID() != "alloc8" {
		t.Fatalf("SandboxesByStatus: %v in %d pages", ids(alloc), pages)
	}
	for i := 1; i < len(alloc); i++ {
		if alloc[i].AllocatedAt.Before(alloc[i-1].AllocatedAt) {
			t.Fatalf("not oldest allocation first")
		}
	}
	avail, _, _ := pageAll(t, 3, func(r PageRequest) (Page[Sandbox], error) {
		return db.store.SandboxesByStatus(ctx, "available", r)
	})
	if len(avail) != 7 || !avail[0].AllocatedAt.IsZero() {
		t.Fatalf("available: %v", ids(avail))
	}
	tr, _, _ := pageAll(t, 2, func(r PageRequest) (Page[Sandbox], error) {
		return db.store.SandboxesByTrack(ctx, "track-0", r)
	})
	if len(tr) != 6 { // alloc0,2,4,6,8 + pend
		t.Fatalf("SandboxesByTrack: %v", ids(tr))
	}
	idem, err := db.store.SandboxesByIdempotencyKey(ctx, "track-1", PageRequest{Limit: 10})
	if err != nil || len(idem.Items) != 4 {
		t.Fatalf("SandboxesByIdempotencyKey: %v %v", ids(idem.Items), err)
	}
	sb, found, err := db.store.Sandbox(ctx, "alloc3")
	if err != nil || !found || sb.AllocatedToTrack != "track-1" || !hasWindow(sb, 4*time.Hour) {
		t.Fatalf("Sandbox: %+v %v %v", sb, found, err)
	}
	rec, found, err := db.store.Get(ctx, TableSandboxes, sb.Key())
	if err != nil || !found || rec.ID() != "alloc3" {
		t.Fatalf("Get by Key(): %v %v %v", rec, found, err)
	}
}

func TestBatchGetOverHundredKeysKeepsOrderAndDedupes(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var items []Item
	for i := 0; i < 230; i++ {
		items = append(items, Item{"projectId": str(fmt.Sprintf("p%03d", i)), "name": str(fmt.Sprintf("Project %d", i))})
	}
	db.put(TableProjects, items...)
	var keys []Item
	var want []string
	for i := 229; i >= 0; i-- {
		keys = append(keys, Item{"projectId": str(fmt.Sprintf("p%03d", i))})
		want = append(want, fmt.Sprintf("p%03d", i))
		if i%50 == 0 { // duplicates and a missing key in the middle
			keys = append(keys, Item{"projectId": str(fmt.Sprintf("p%03d", i))}, Item{"projectId": str("missing")})
			want = append(want, fmt.Sprintf("p%03d", i), "")
		}
	}
	got, consumed, err := db.store.BatchGet(ctx, TableProjects, keys)
	if err != nil {
		t.Fatal(Describe(err))
	}
	if len(got) != len(keys) || consumed <= 0 {
		t.Fatalf("got %d results for %d keys, consumed %v", len(got), len(keys), consumed)
	}
	for i, it := range got {
		name := ""
		if it != nil {
			name = DecodeProject(it).ProjectID
		}
		if name != want[i] {
			t.Fatalf("result %d = %q, want %q", i, name, want[i])
		}
	}
}

func TestScanTableParallelWithProgress(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	var items []Item
	for i := 0; i < 300; i++ {
		items = append(items, eventItem(fmt.Sprintf("user-%d", i%17), fmt.Sprintf("e%03d", i), "t", "received", baseTime.Add(time.Duration(i)*time.Second)))
	}
	db.put(TableEvents, items...)
	est, err := db.store.EstimateScan(ctx, TableEvents)
	if err != nil {
		t.Fatal(Describe(err))
	}
	if est.ItemCount != 300 || est.SizeBytes <= 0 || est.RCUs <= 0 || est.Table != db.tables.Name(TableEvents) {
		t.Fatalf("EstimateScan = %+v", est)
	}
	var reports []ScanProgress
	got, err := db.store.ScanTable(ctx, TableEvents, ScanOptions{Segments: 4}, func(p ScanProgress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(Describe(err))
	}
	seen := map[string]bool{}
	for _, it := range got {
		seen[DecodeEvent(it).EventID] = true
	}
	if len(got) != 300 || len(seen) != 300 {
		t.Fatalf("scan returned %d items (%d distinct)", len(got), len(seen))
	}
	if len(reports) < 4 {
		t.Fatalf("only %d progress reports for 4 segments", len(reports))
	}
	for i := 1; i < len(reports); i++ {
		if reports[i].Scanned < reports[i-1].Scanned || reports[i].Fraction < reports[i-1].Fraction {
			t.Fatalf("progress went backwards: %+v then %+v", reports[i-1], reports[i])
		}
	}
	last := reports[len(reports)-1]
	if last.Fraction != 1 || last.Items != 300 || last.SegmentsDone != 4 || last.Total != 300 || last.Consumed <= 0 {
		t.Fatalf("final progress %+v", last)
	}
	for _, r := range reports[:len(reports)-1] {
		if r.Fraction >= 1 {
			t.Fatalf("fraction reached 1 before the end: %+v", r)
		}
	}
}

func TestQueriesAliasEveryAttributeName(t *testing.T) {
	// The events table's names contain '#', and status is reserved: a query
	// that did not alias them would be rejected by the server. This checks
	// the builder itself; the event tests above prove the server accepts it.
	var e Expr
	cond := e.Name("user_id") + " = " + e.Value(S("u")) + " AND begins_with(" + e.Name(AttrEventStatusKey) + ", " + e.Value(S("failed")) + ")"
	if strings.Contains(cond, "user_id") || strings.Contains(cond, "timestamp") || strings.Count(cond, "#") != 2 {
		t.Fatalf("raw names leaked into %q", cond)
	}
	if e.Name("user_id") != "#n0" || len(e.Names()) != 2 || e.Names()["#n1"] != AttrEventStatusKey {
		t.Fatalf("names %v", e.Names())
	}
	if p := e.Projection("status", "user_id"); p != "#n2, #n0" {
		t.Fatalf("projection %q", p)
	}
	var empty Expr
	if empty.Names() != nil || empty.Values() != nil {
		t.Fatalf("empty maps must be nil (the API rejects empty ones)")
	}
	keys := make([]string, 0)
	for k := range e.Values() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != ":v0,:v1" {
		t.Fatalf("values %v", keys)
	}
}

// Every expression the Store sends must name attributes only through
// placeholders: strip the placeholders and the expression grammar, and
// nothing may remain. This runs every list method, so a new one that
// forgets to alias a name fails here.
func TestEveryStoreExpressionAliasesAllNames(t *testing.T) {
	var mu sync.Mutex
	var exprs []string
	f := &faultTransport{record: func(op string, body []byte) {
		if op != "Query" {
			return
		}
		var in map[string]any
		if json.Unmarshal(body, &in) != nil {
			t.Errorf("unreadable %s body", op)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, k := range []string{"KeyConditionExpression", "ProjectionExpression", "FilterExpression"} {
			if e, ok := in[k].(string); ok {
				exprs = append(exprs, e)
			}
		}
		if in["ReturnConsumedCapacity"] != "TOTAL" {
			t.Errorf("Query without ReturnConsumedCapacity TOTAL: %s", body)
		}
		if in["Limit"] == nil {
			t.Errorf("Query without Limit: %s", body)
		}
	}}
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: f}})
	ctx := context.Background()
	st := db.store
	r := PageRequest{Limit: 5}
	calls := []func() error{
		func() error { _, err := st.SessionsByProject(ctx, "p", r); return err },
		func() error { _, err := st.SessionsByStatus(ctx, "RUNNING", r); return err },
		func() error { _, err := st.APIKeysByProject(ctx, "p", r); return err },
		func() error { _, err := st.ContextsByProject(ctx, "p", r); return err },
		func() error { _, err := st.RunsByUser(ctx, "u", r); return err },
		func() error { _, _, err := st.RunByID(ctx, "r"); return err },
		func() error { _, err := st.EventsByUser(ctx, "u", r); return err },
		func() error { _, err := st.EventsByType(ctx, "u", "user.created", r); return err },
		func() error { _, err := st.EventsByStatus(ctx, "u", "failed", r); return err },
		func() error { _, err := st.EventsMatching(ctx, "u", "user.created", "failed", r); return err },
		func() error { _, err := st.DelegationsByAudience(ctx, "a", r); return err },
		func() error { _, err := st.SubscriptionsByCustomer(ctx, "c", "p", r); return err },
		func() error { _, err := st.SubscriptionsByProvider(ctx, "p", r); return err },
		func() error { _, err := st.ConsumersByConsumer(ctx, "c", r); return err },
		func() error { _, err := st.ConsumersByProvider(ctx, "p", r); return err },
		func() error { _, err := st.SandboxesByStatus(ctx, "allocated", r); return err },
		func() error { _, err := st.SandboxesByTrack(ctx, "t", r); return err },
		func() error { _, err := st.SandboxesByIdempotencyKey(ctx, "k", r); return err },
	}
	for i, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("call %d: %s", i, Describe(err))
		}
	}
	placeholder := regexp.MustCompile(`[#:][nv][0-9]+|begins_with|AND|[=(),\s]`)
	if len(exprs) < len(calls) {
		t.Fatalf("recorded %d expressions for %d queries", len(exprs), len(calls))
	}
	for _, e := range exprs {
		if rest := placeholder.ReplaceAllString(e, ""); rest != "" {
			t.Errorf("expression %q names %q directly", e, rest)
		}
	}
}

func hasWindow(s Sandbox, want time.Duration) bool {
	w, ok := s.LabWindow()
	return ok && w == want
}
