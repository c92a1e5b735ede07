package demo

import (
	"bytes"
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// seeded creates fresh tables (TTL off, so expired-by-design rows stay
// put while the test reads them) and seeds them.
func seeded(t *testing.T) (context.Context, *data.Conn, data.Tables, SeedReport) {
	t.Helper()
	ctx, conn, tables := testEnv(t)
	if err := CreateTables(ctx, conn, tables, CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	rep, err := Seed(ctx, conn, tables, SeedOptions{Now: time.Now(), Rand: rand.New(rand.NewPCG(7, 11))})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, conn, tables, rep
}

func getItem(t *testing.T, ctx context.Context, conn *data.Conn, table string, key Item) Item {
	t.Helper()
	out, err := conn.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("get %s %s: %v", table, canonItem(key), err)
	}
	return out.Item
}

func keyOf(id data.TableID, it Item) Item {
	k := Item{}
	for _, n := range data.MustSchema(id).KeyNames() {
		k[n] = it[n]
	}
	return k
}

// The example items of the seed documents are read from copies of the
// documents themselves (testdata/seeds), not from our code, and must come
// back from the database attribute for attribute, type for type.
func TestSeedWritesTheSeedDocumentsExamplesVerbatim(t *testing.T) {
	ctx, conn, tables, _ := seeded(t)

	runs := seedJSONItems(t, "testdata/seeds/001_428b34b34b57357e.txt")
	if len(runs) != 1 {
		t.Fatalf("found %d JSON examples in the AppLens seed, want 1", len(runs))
	}
	events := seedJSONItems(t, "testdata/seeds/002_126cb5fb8c9041c2.txt")
	if len(events) != 1 {
		t.Fatalf("found %d JSON examples in the Zapier seed, want 1", len(events))
	}
	sandboxes := seedJSONItems(t, "testdata/seeds/004_bb372dad44d48b77.txt")
	if len(sandboxes) != 4 {
		t.Fatalf("found %d JSON examples in the sandbox seed, want 4", len(sandboxes))
	}

	check := func(id data.TableID, want Item) {
		t.Helper()
		got := getItem(t, ctx, conn, tables.Name(id), keyOf(id, want))
		if canonItem(got) != canonItem(want) {
			t.Errorf("%s: stored item differs from the seed's example\n got %s\nwant %s", id, canonItem(got), canonItem(want))
		}
	}
	check(data.TableGraphRuns, runs[0])
	check(data.TableEvents, events[0])

	// The four lifecycle examples share one key; abc123 holds ALLOCATED and
	// the others carry a suffix in PK and sandbox_id only.
	suffix := map[string]string{"available": "-available", "allocated": "", "pending_deletion": "-pending", "stale": "-stale"}
	seen := map[string]bool{}
	for _, ex := range sandboxes {
		status := strAttr(ex, "status")
		sfx, ok := suffix[status]
		if !ok {
			t.Fatalf("unexpected sandbox example status %q", status)
		}
		seen[status] = true
		ex["PK"] = avS("SBX#abc123" + sfx)
		ex["sandbox_id"] = avS("abc123" + sfx)
		check(data.TableSandboxes, ex)
	}
	if len(seen) != 4 {
		t.Errorf("sandbox examples cover %v, want four states", seen)
	}
}

func TestSeedCountsMatchTheDatabaseAndCoverEveryLifecycleState(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)

	rows := map[data.TableID][]Item{}
	total := 0
	for _, s := range data.Schemas() {
		rows[s.ID] = scanAll(t, ctx, conn, tables.Name(s.ID))
		if got, want := len(rows[s.ID]), rep.Counts[s.ID]; got != want {
			t.Errorf("%s: %d rows in the table, report says %d", s.ID, got, want)
		}
		if len(rows[s.ID]) == 0 {
			t.Errorf("%s: no rows", s.ID)
		}
		total += len(rows[s.ID])
	}
	t.Logf("rows per table %v (total %d); states %v", rep.Counts, total, rep.States)
	if total < 300 {
		t.Errorf("%d rows in all, want a few hundred", total)
	}

	// Recount states from the database, independently of the report.
	count := func(id data.TableID, attr string) map[string]int {
		m := map[string]int{}
		for _, it := range rows[id] {
			m[strAttr(it, attr)]++
		}
		return m
	}
	sessions := count(data.TableSessions, "internalStatus")
	for _, st := range []string{"CREATING", "PROVISIONING", "STARTING", "READY", "ACTIVE", "TERMINATING", "STOPPED", "FAILED", "TIMED_OUT"} {
		if sessions[st] == 0 {
			t.Errorf("no session with internalStatus %s", st)
		}
		if sessions[st] != rep.States[data.TableSessions][st] {
			t.Errorf("sessions %s: %d in the table, report says %d", st, sessions[st], rep.States[data.TableSessions][st])
		}
	}
	sdk := count(data.TableSessions, "status")
	for _, st := range []string{"RUNNING", "COMPLETED", "ERROR", "TIMED_OUT", "STOPPED"} {
		if sdk[st] == 0 {
			t.Errorf("no session with status %s", st)
		}
	}
	if n := len(rows[data.TableSessions]); n < 70 || n > 100 {
		t.Errorf("%d sessions, want about 80", n)
	}
	for _, st := range []string{"UPLOADED", "PROCESSING", "COMPLETE", "FAILED"} {
		if count(data.TableGraphRuns, "status")[st] == 0 {
			t.Errorf("no graph run in %s", st)
		}
	}
	for _, st := range []string{"received", "delivered", "failed", "retrying"} {
		if count(data.TableEvents, "status")[st] == 0 {
			t.Errorf("no event in %s", st)
		}
	}
	for _, st := range []string{"available", "allocated", "pending_deletion", "stale"} {
		if count(data.TableSandboxes, "status")[st] == 0 {
			t.Errorf("no sandbox in %s", st)
		}
	}
	projects := count(data.TableProjects, "status")
	if projects["ACTIVE"] < 3 || projects["INACTIVE"] != 1 {
		t.Errorf("project statuses %v, want ≥3 ACTIVE and one INACTIVE", projects)
	}

	now := rep.Now
	var messy, stuck, exhausted, retryable, expired, pastWindow, failedDeletions int
	for _, it := range rows[data.TableSessions] {
		if _, ok := it["updatedAt"].(*types.AttributeValueMemberN); ok && strAttr(it, "status") == "STOPPED" {
			messy++
		}
	}
	for _, it := range rows[data.TableGraphRuns] {
		if strAttr(it, "status") != "PROCESSING" {
			continue
		}
		if u, err := time.Parse(time.RFC3339, strAttr(it, "updatedAt")); err == nil && now.Sub(u) > StuckAfter {
			stuck++
		}
	}
	for _, it := range rows[data.TableEvents] {
		if strAttr(it, "status") != "failed" {
			continue
		}
		if n, ok := numAttr(it, "retry_count"); ok && n >= MaxEventRetries {
			exhausted++
		} else if ok {
			retryable++
		}
	}
	for _, it := range rows[data.TableDelegations] {
		if e, ok := numAttr(it, "expiration"); ok && e < now.Unix() {
			expired++
		}
	}
	for _, it := range rows[data.TableSandboxes] {
		at, _ := numAttr(it, "allocated_at")
		h, _ := numAttr(it, "lab_duration_hours")
		if strAttr(it, "status") == "allocated" && at > 0 && h > 0 && at < now.Unix()-h*3600 {
			pastWindow++
		}
		if n, _ := numAttr(it, "deletion_retry_count"); strAttr(it, "status") == "pending_deletion" && n > 0 {
			failedDeletions++
		}
	}
	for what, n := range map[string]int{
		"container-written session (status STOPPED, numeric updatedAt)": messy,
		"stuck PROCESSING run": stuck, "failed event out of retries": exhausted,
		"failed event that can be retried": retryable, "expired delegation": expired,
		"allocation past its lab_duration_hours": pastWindow, "pending deletion with failed attempts counted": failedDeletions,
	} {
		if n == 0 {
			t.Errorf("no %s", what)
		}
	}
}

var (
	hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)
	cidRe     = regexp.MustCompile(`^bafyrei[a-z2-7]{52}$`)
	didKeyRe  = regexp.MustCompile(`^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$`)
)

// Every row outside the hostile tenants obeys the services' invariants.
func TestSeedRowsAreConsistent(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	now := rep.Now.Unix()

	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableSessions)) {
		if strAttr(it, "projectId") == rep.Hostile.Project {
			continue
		}
		id := strAttr(it, "sessionId")
		status, internal := strAttr(it, "status"), strAttr(it, "internalStatus")
		if _, numeric := it["updatedAt"].(*types.AttributeValueMemberN); numeric {
			if status != "STOPPED" {
				t.Errorf("%s: numeric updatedAt on a row not written by the container (status %s)", id, status)
			}
		} else if want := wcSDKStatus(internal); status != want {
			t.Errorf("%s: status %s for internalStatus %s, want %s", id, status, internal, want)
		}
		if got := data.SDKStatus(status, internal); got == "" {
			t.Errorf("%s: data.SDKStatus(%s, %s) unknown", id, status, internal)
		}
		exp, ok := numAttr(it, "expiresAt")
		created, err := time.Parse(time.RFC3339, strAttr(it, "createdAt"))
		if !ok || err != nil {
			t.Errorf("%s: expiresAt %v / createdAt %v unreadable", id, it["expiresAt"], err)
			continue
		}
		if exp <= now {
			t.Errorf("%s: expiresAt already passed; DynamoDB Local would delete it at once", id)
		}
		if d := time.Duration(exp-created.Unix()) * time.Second; d <= 0 || d > 24*time.Hour {
			t.Errorf("%s: expiresAt - createdAt = %v, want a session timeout", id, d)
		}
		if u := strAttr(it, "connectUrl"); u != "" && !strings.Contains(u, "signingKey=") && !strings.Contains(u, "token=") {
			t.Errorf("%s: connectUrl %q carries no token", id, u)
		}
		if u := strAttr(it, "seleniumRemoteUrl"); u != "" && !regexp.MustCompile(`^https://[^:]+:[^@]+@`).MatchString(u) {
			t.Errorf("%s: seleniumRemoteUrl %q has no credentials", id, u)
		}
		if strings.Count(strAttr(it, "signingKey"), ".") != 2 {
			t.Errorf("%s: signingKey is not JWT-shaped", id)
		}
		if _, ok := it["eventHistory"].(*types.AttributeValueMemberL); !ok {
			t.Errorf("%s: eventHistory is not a list", id)
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableAPIKeys)) {
		if !hexSHA256.MatchString(strAttr(it, "apiKeyHash")) {
			t.Errorf("api key hash %q is not sha256 hex", strAttr(it, "apiKeyHash"))
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableGraphRuns)) {
		pk := strAttr(it, "PK")
		if pk == "USER#"+rep.Hostile.GraphUser || strAttr(it, "runId") == "c8a91e" {
			continue
		}
		run := strAttr(it, "runId")
		if want := "RUN#" + strAttr(it, "createdAt") + "#" + run; strAttr(it, "SK") != want {
			t.Errorf("run %s: SK %q, want %q", run, strAttr(it, "SK"), want)
		}
		if strAttr(it, "GSI1PK") != "RUN#"+run || strAttr(it, "GSI1SK") != pk {
			t.Errorf("run %s: GSI1 keys %q/%q disagree with %q", run, strAttr(it, "GSI1PK"), strAttr(it, "GSI1SK"), pk)
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableEvents)) {
		if strAttr(it, "user_id") == rep.Hostile.EventUser {
			continue
		}
		checkEventInvariants(t, it)
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableDelegations)) {
		if strAttr(it, "audience") == rep.Hostile.Audience {
			continue
		}
		if !cidRe.MatchString(strAttr(it, "link")) || !cidRe.MatchString(strAttr(it, "cause")) || !didKeyRe.MatchString(strAttr(it, "issuer")) {
			t.Errorf("delegation %s: link/cause/issuer not shaped like CIDs and a did:key", canonItem(it))
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableConsumers)) {
		if c := strAttr(it, "consumer"); !didKeyRe.MatchString(c) && !strings.Contains(c, "\u202e") {
			t.Errorf("consumer %q is not a did:key", c)
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableSandboxes)) {
		if strAttr(it, "allocated_to_track") == rep.Hostile.Track {
			continue
		}
		checkSandboxInvariants(t, it)
	}
}

func checkEventInvariants(t *testing.T, it Item) {
	t.Helper()
	id, ts, st, et := strAttr(it, "event_id"), strAttr(it, "timestamp"), strAttr(it, "status"), strAttr(it, "event_type")
	if strAttr(it, "status#timestamp") != st+"#"+ts {
		t.Errorf("event %s: status#timestamp %q, want %q", id, strAttr(it, "status#timestamp"), st+"#"+ts)
	}
	if strAttr(it, "event_type#timestamp") != et+"#"+ts {
		t.Errorf("event %s: event_type#timestamp %q, want %q", id, strAttr(it, "event_type#timestamp"), et+"#"+ts)
	}
	if strAttr(it, "timestamp#event_id") != ts+"#"+id {
		t.Errorf("event %s: timestamp#event_id %q", id, strAttr(it, "timestamp#event_id"))
	}
	if n, ok := numAttr(it, "retry_count"); !ok || n < 0 || n > MaxEventRetries {
		t.Errorf("event %s: retry_count %v", id, it["retry_count"])
	}
	if _, ok := numAttr(it, "ttl"); !ok {
		t.Errorf("event %s: ttl %v", id, it["ttl"])
	}
}

func checkSandboxInvariants(t *testing.T, it Item) {
	t.Helper()
	id, st := strAttr(it, "sandbox_id"), strAttr(it, "status")
	at, ok := numAttr(it, "allocated_at")
	if !ok {
		t.Errorf("sandbox %s: allocated_at %v", id, it["allocated_at"])
		return
	}
	if strAttr(it, "PK") != "SBX#"+id || strAttr(it, "SK") != "META" {
		t.Errorf("sandbox %s: key %q/%q", id, strAttr(it, "PK"), strAttr(it, "SK"))
	}
	switch st {
	case sbxAvailable, sbxStale:
		if at != 0 {
			t.Errorf("sandbox %s: %s with allocated_at %d, want 0", id, st, at)
		}
		if _, has := it["allocated_to_track"]; has {
			t.Errorf("sandbox %s: %s but owned by a track", id, st)
		}
	case sbxAllocated, sbxPendingDeletion:
		track := strAttr(it, "allocated_to_track")
		if at <= 0 || track == "" || strAttr(it, "idempotency_key") != track {
			t.Errorf("sandbox %s: %s with allocated_at %d, track %q, key %q", id, st, at, track, strAttr(it, "idempotency_key"))
		}
		if st != sbxAllocated {
			if _, ok := numAttr(it, "deletion_requested_at"); !ok {
				t.Errorf("sandbox %s: %s without deletion_requested_at", id, st)
			}
		}
	default:
		t.Errorf("sandbox %s: unknown status %q", id, st)
	}
}

// The hostile rows keep their bytes exactly: escape sequences, bidi
// overrides, invalid UTF-8 in binaries, wrong types.
func TestSeedStoresHostileRowsByteForByte(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	sess := getItem(t, ctx, conn, tables.Name(data.TableSessions), Item{"sessionId": avS("sess_hostile_escapes")})
	md, _ := sess["userMetadata"].(*types.AttributeValueMemberM)
	if md == nil || !strings.Contains(strAttr(md.Value, "note"), escClear) || strAttr(md.Value, "nul") != "before\x00after" {
		t.Errorf("control sequences not stored as written: %s", canon(sess["userMetadata"]))
	}
	if u := strAttr(sess, "connectUrl"); !strings.Contains(u, "\x1b]52;c;") || !strings.Contains(u, "\x07") {
		t.Errorf("OSC 52 sequence not stored in connectUrl: %q", u)
	}
	if it := getItem(t, ctx, conn, tables.Name(data.TableSessions), Item{"sessionId": avS("sess_\u202egnp.exe")}); it == nil {
		t.Error("session keyed with a bidi override not found")
	}
	unk := getItem(t, ctx, conn, tables.Name(data.TableSessions), Item{"sessionId": avS("sess_hostile_unknown")})
	if b, ok := unk["rawHeaders"].(*types.AttributeValueMemberB); !ok || !bytes.Equal(b.Value, invalidUTF8) {
		t.Errorf("invalid UTF-8 binary not preserved: %s", canon(unk["rawHeaders"]))
	}
	types_ := getItem(t, ctx, conn, tables.Name(data.TableSessions), Item{"sessionId": avS("sess_hostile_types")})
	if _, ok := types_["proxyBytes"].(*types.AttributeValueMemberS); !ok {
		t.Errorf("wrong-typed proxyBytes came back as %s", canon(types_["proxyBytes"]))
	}
	missing := getItem(t, ctx, conn, tables.Name(data.TableSessions), Item{"sessionId": avS("sess_hostile_missing")})
	if _, has := missing["internalStatus"]; has || missing == nil {
		t.Errorf("sess_hostile_missing should exist without internalStatus: %s", canonItem(missing))
	}
	// One hostile session is in the default Sessions scope.
	out, err := conn.DB.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String(tables.Name(data.TableSessions)), IndexName: aws.String("projectId-createdAt-index"),
		KeyConditionExpression:    aws.String("projectId = :p"),
		ExpressionAttributeValues: Item{":p": avS(rep.Defaults.SessionsProject)},
	})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range out.Items {
		if strings.Contains(canon(it["userMetadata"]), `\x1b[2J`) {
			found = true
		}
	}
	if !found {
		t.Error("no hostile session in the default project's view")
	}
	// ...and one hostile payload in the default Inbox.
	out, err = conn.DB.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(tables.Name(data.TableEvents)),
		KeyConditionExpression:    aws.String("user_id = :u"),
		ExpressionAttributeValues: Item{":u": avS(rep.Defaults.InboxUser)},
	})
	if err != nil {
		t.Fatal(err)
	}
	found = false
	for _, it := range out.Items {
		if p, ok := it["payload"].(*types.AttributeValueMemberM); ok && strings.Contains(strAttr(p.Value, "order_id"), "\x1b]52;c;") {
			found = true
		}
	}
	if !found {
		t.Error("no OSC 52 payload in the default Inbox")
	}
	// Wrong types come back as written, not coerced.
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableEvents)) {
		if strAttr(it, "user_id") == rep.Hostile.EventUser {
			if _, isS := it["retry_count"].(*types.AttributeValueMemberS); isS {
				return
			}
		}
	}
	t.Error("the hostile event with a string retry_count is missing")
}

// The default scopes lead somewhere useful, through the real indexes.
func TestSeedDefaultScopesHaveSomethingToShow(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	d := rep.Defaults
	query := func(id data.TableID, index, cond string, vals Item, names map[string]string) []Item {
		t.Helper()
		in := &dynamodb.QueryInput{TableName: aws.String(tables.Name(id)), KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: vals}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		if names != nil {
			in.ExpressionAttributeNames = names
		}
		out, err := conn.DB.Query(ctx, in)
		if err != nil {
			t.Fatalf("query %s %s: %v", id, index, err)
		}
		return out.Items
	}
	// The busiest project really is the busiest.
	busiest, most := "", 0
	for _, p := range rep.Projects {
		n := len(query(data.TableSessions, "projectId-createdAt-index", "projectId = :p", Item{":p": avS(p)}, nil))
		if n > most {
			busiest, most = p, n
		}
	}
	if busiest != d.SessionsProject {
		t.Errorf("default project %s, but %s has the most sessions (%d)", d.SessionsProject, busiest, most)
	}
	if n := len(query(data.TableSessions, "status-expiresAt-index", "#s = :s", Item{":s": avS(d.SessionsStatus)}, map[string]string{"#s": "status"})); n == 0 {
		t.Errorf("no %s sessions", d.SessionsStatus)
	}
	failed := query(data.TableEvents, "StatusIndex", "user_id = :u AND begins_with(#st, :s)", Item{":u": avS(d.InboxUser), ":s": avS("failed#")}, map[string]string{"#st": "status#timestamp"})
	if len(failed) < 2 {
		t.Errorf("default inbox user %s has %d failed events", d.InboxUser, len(failed))
	}
	runs := query(data.TableGraphRuns, "", "PK = :u", Item{":u": avS("USER#" + d.RunsUser)}, nil)
	stuck := 0
	for _, r := range runs {
		if u, err := time.Parse(time.RFC3339, strAttr(r, "updatedAt")); err == nil && strAttr(r, "status") == "PROCESSING" && rep.Now.Sub(u) > StuckAfter {
			stuck++
		}
	}
	if stuck == 0 {
		t.Errorf("default runs user %s has no stuck run", d.RunsUser)
	}
	if n := len(query(data.TableDelegations, "audience", "audience = :a", Item{":a": avS(d.Audience)}, nil)); n < 10 {
		t.Errorf("default audience has %d delegations", n)
	}
	if n := len(query(data.TableSubscriptions, "customer", "customer = :c", Item{":c": avS(d.Customer)}, nil)); n < 2 {
		t.Errorf("default customer has %d subscriptions", n)
	}
	if n := len(query(data.TableConsumers, "consumer", "consumer = :c", Item{":c": avS(d.Consumer)}, nil)); n < 2 {
		t.Errorf("default consumer has %d providers, want ≥2", n)
	}
	if n := len(query(data.TableSandboxes, "StatusIndex", "#s = :s", Item{":s": avS(d.SandboxStatus)}, map[string]string{"#s": "status"})); n < 5 {
		t.Errorf("%d sandboxes %s", n, d.SandboxStatus)
	}
	owned := query(data.TableSandboxes, "TrackIndex", "allocated_to_track = :t", Item{":t": avS(d.Track)}, nil)
	late := false
	for _, it := range owned {
		at, _ := numAttr(it, "allocated_at")
		h, _ := numAttr(it, "lab_duration_hours")
		late = late || (strAttr(it, "status") == "allocated" && at < rep.Now.Unix()-h*3600)
	}
	if !late {
		t.Errorf("default track %s owns no allocation past its window", d.Track)
	}
}

func TestBuildWorldIsDeterministic(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	render := func(seed uint64) string {
		w := buildWorld(now, rand.New(rand.NewPCG(seed, 1)))
		var b strings.Builder
		for _, s := range data.Schemas() {
			for _, it := range w.rows[s.ID] {
				b.WriteString(canonItem(it))
				b.WriteByte('\n')
			}
		}
		return b.String()
	}
	a, b, c := render(1), render(1), render(2)
	if a != b {
		t.Error("the same seed built two different worlds")
	}
	if a == c {
		t.Error("different seeds built the same world")
	}
}

func TestPrepareCreatesTheDocumentsTablesSeedsAndIsSafeToRepeat(t *testing.T) {
	ctx, conn, tables := testEnv(t)
	rep, err := Prepare(ctx, conn, tables, SeedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.AlreadySeeded {
		t.Error("fresh tables reported as already seeded")
	}
	// The demo's default is the documents' streams exactly: two tables
	// have one (`--demo-streams all` is CreateOptions.StreamsOnAll, checked
	// by TestCreateTablesStreamsOnAll).
	streams := 0
	for _, s := range data.Schemas() {
		td, ttl := describe(t, ctx, conn, tables.Name(s.ID))
		checkTableMatchesSchema(t, s, td, ttl, s.Stream, s.TTLAttr != "")
		if s.Stream != data.StreamNone {
			streams++
		}
	}
	if streams != 2 {
		t.Errorf("%d tables have a stream; the documents give one to wallcrawler-sessions and the events table", streams)
	}
	before := len(scanAll(t, ctx, conn, tables.Name(data.TableSandboxes)))
	if before != rep.Counts[data.TableSandboxes] {
		t.Errorf("%d sandboxes, report says %d", before, rep.Counts[data.TableSandboxes])
	}

	again, err := Prepare(ctx, conn, tables, SeedOptions{})
	if err != nil {
		t.Fatalf("second Prepare: %v", err)
	}
	if !again.AlreadySeeded {
		t.Error("second Prepare seeded again")
	}
	if after := len(scanAll(t, ctx, conn, tables.Name(data.TableSandboxes))); after != before {
		t.Errorf("second Prepare changed the sandbox count %d → %d", before, after)
	}
	if again.Defaults != rep.Defaults {
		t.Errorf("default scopes differ between runs: %+v vs %+v", rep.Defaults, again.Defaults)
	}
}
