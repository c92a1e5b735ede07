package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// stepClock is a deterministic clock that moves half a second per call.
func stepClock(start time.Time) func() time.Time {
	n := 0
	return func() time.Time {
		n++
		return start.Add(time.Duration(n) * 500 * time.Millisecond)
	}
}

func newTestSim(conn *data.Conn, tables data.Tables, start time.Time, seed uint64) *Simulator {
	return NewSimulator(conn, tables, SimOptions{Rand: rand.New(rand.NewPCG(seed, 3)), Now: stepClock(start)})
}

// doUntilMoved runs one kind until it writes something (it may find nothing
// to do, or lose a race, a few times).
func doUntilMoved(t *testing.T, ctx context.Context, s *Simulator, kind string) StepReport {
	t.Helper()
	for range 20 {
		rep, err := s.do(ctx, kind)
		if errors.Is(err, errNothingToDo) || (err == nil && rep.Skipped) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		return rep
	}
	t.Fatalf("%s never moved anything", kind)
	return StepReport{}
}

func eventHistoryLen(it Item) int {
	if l, ok := it["eventHistory"].(*types.AttributeValueMemberL); ok {
		return len(l.Value)
	}
	return -1
}

func TestSimulatorTransitionsMoveRecordsForward(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	s := newTestSim(conn, tables, rep.Now, 1)

	// Sessions: created, then advanced along the lifecycle.
	r := doUntilMoved(t, ctx, s, "session.create")
	it := getItem(t, ctx, conn, tables.Name(data.TableSessions), r.Key)
	if strAttr(it, "internalStatus") != "CREATING" || strAttr(it, "status") != "RUNNING" {
		t.Errorf("new session %s: %s/%s", r.ID, strAttr(it, "status"), strAttr(it, "internalStatus"))
	}
	exp, _ := numAttr(it, "expiresAt")
	created, _ := time.Parse(time.RFC3339, strAttr(it, "createdAt"))
	if d := time.Duration(exp-created.Unix()) * time.Second; d < 3*time.Minute || d > 15*time.Minute {
		t.Errorf("new session timeout %v", d)
	}
	order := map[string]int{}
	for i, st := range wcInternalStatuses {
		order[st] = i
	}
	for range 12 {
		r := doUntilMoved(t, ctx, s, "session.advance")
		it := getItem(t, ctx, conn, tables.Name(data.TableSessions), r.Key)
		to := strings.TrimSuffix(r.To, " (container-written)")
		if got := strAttr(it, "internalStatus"); got != to {
			t.Errorf("%s: internalStatus %s after moving %s → %s", r.ID, got, r.From, r.To)
		}
		if order[to] <= order[r.From] && to != "FAILED" && to != "TIMED_OUT" {
			t.Errorf("%s moved backwards: %s → %s", r.ID, r.From, to)
		}
		st := strAttr(it, "status")
		if want := wcSDKStatus(to); st != want && !(st == "STOPPED" && to == "STOPPED") {
			t.Errorf("%s: status %s for internalStatus %s", r.ID, st, to)
		}
		l, _ := it["eventHistory"].(*types.AttributeValueMemberL)
		if l == nil || len(l.Value) == 0 {
			t.Fatalf("%s: no eventHistory", r.ID)
		}
		last, _ := l.Value[len(l.Value)-1].(*types.AttributeValueMemberM)
		detail, _ := last.Value["detail"].(*types.AttributeValueMemberM)
		if detail == nil || strAttr(detail.Value, "internalStatus") != to {
			t.Errorf("%s: last eventHistory entry %s does not record %s", r.ID, canon(l.Value[len(l.Value)-1]), to)
		}
		if to == "READY" && (strAttr(it, "publicIP") == "" || strAttr(it, "connectUrl") == "" || strAttr(it, "startedAt") == "") {
			t.Errorf("%s: READY without publicIP/connectUrl/startedAt", r.ID)
		}
		if (to == "STOPPED" || to == "FAILED" || to == "TIMED_OUT") && strAttr(it, "endedAt") == "" {
			t.Errorf("%s: ended without endedAt", r.ID)
		}
	}

	// Events.
	r = doUntilMoved(t, ctx, s, "event.receive")
	it = getItem(t, ctx, conn, tables.Name(data.TableEvents), r.Key)
	if strAttr(it, "status") != "received" {
		t.Errorf("new event %s", canonItem(it))
	}
	checkEventInvariants(t, it)
	for range 5 {
		r = doUntilMoved(t, ctx, s, "event.deliver")
		it = getItem(t, ctx, conn, tables.Name(data.TableEvents), r.Key)
		if strAttr(it, "status") != r.To || (r.To != "delivered" && r.To != "failed") {
			t.Errorf("event %s: %s → %s, stored %s", r.ID, r.From, r.To, strAttr(it, "status"))
		}
		checkEventInvariants(t, it)
	}
	r = doUntilMoved(t, ctx, s, "event.retry")
	it = getItem(t, ctx, conn, tables.Name(data.TableEvents), r.Key)
	if strAttr(it, "status") != "retrying" || strAttr(it, "last_retry_at") == "" {
		t.Errorf("retried event %s", canonItem(it))
	}
	checkEventInvariants(t, it)

	// Runs.
	r = doUntilMoved(t, ctx, s, "run.upload")
	if it := getItem(t, ctx, conn, tables.Name(data.TableGraphRuns), r.Key); strAttr(it, "status") != "UPLOADED" || strAttr(it, "GSI1PK") != "RUN#"+r.ID {
		t.Errorf("new run %s", canonItem(it))
	}
	for range 6 {
		r = doUntilMoved(t, ctx, s, "run.advance")
		it := getItem(t, ctx, conn, tables.Name(data.TableGraphRuns), r.Key)
		next := map[string][]string{"UPLOADED": {"PROCESSING"}, "PROCESSING": {"COMPLETE", "FAILED"}}[r.From]
		if !contains(next, r.To) || strAttr(it, "status") != r.To {
			t.Errorf("run %s: %s → %s, stored %s", r.ID, r.From, r.To, strAttr(it, "status"))
		}
		if r.To == "COMPLETE" {
			if _, ok := numAttr(it, "nodeCount"); !ok || strAttr(it, "graphS3Key") == "" {
				t.Errorf("completed run %s lacks its summary: %s", r.ID, canonItem(it))
			}
		}
		if r.From == "PROCESSING" {
			// Stuck runs are the operator's: the simulator must not touch them.
			// (Seeded stuck runs were created at least StuckAfter ago,
			// healthy ones minutes ago.)
			if u, _ := time.Parse(time.RFC3339, strAttr(it, "createdAt")); rep.Now.Sub(u) > StuckAfter {
				t.Errorf("stuck run %s (created %v ago) was moved", r.ID, rep.Now.Sub(u))
			}
		}
	}

	// Sandboxes.
	for _, kind := range []string{"sandbox.allocate", "sandbox.mark", "sandbox.cleanup", "sandbox.cleanup", "sandbox.cleanup"} {
		r = doUntilMoved(t, ctx, s, kind)
		it := getItem(t, ctx, conn, tables.Name(data.TableSandboxes), r.Key)
		if r.To == "deleted" {
			if it != nil {
				t.Errorf("sandbox %s reported deleted but still there", r.ID)
			}
			continue
		}
		if strAttr(it, "status") != r.To {
			t.Errorf("%s %s: stored %s, want %s", kind, r.ID, strAttr(it, "status"), r.To)
		}
		checkSandboxInvariants(t, it)
	}

	// w3infra.
	r = doUntilMoved(t, ctx, s, "delegation.new")
	if it := getItem(t, ctx, conn, tables.Name(data.TableDelegations), r.Key); strAttr(it, "link") != r.ID {
		t.Errorf("new delegation not stored: %s", canonItem(it))
	}
	r = doUntilMoved(t, ctx, s, "space.provision")
	if it := getItem(t, ctx, conn, tables.Name(data.TableConsumers), r.Key); strAttr(it, "consumer") != r.ID {
		t.Errorf("new consumer not stored: %s", canonItem(it))
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Many random steps later, every row still obeys the invariants.
func TestSimulatorStepsKeepInvariants(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	s := newTestSim(conn, tables, rep.Now, 42)
	kinds := map[string]int{}
	for range 150 {
		r, err := s.Step(ctx)
		if err != nil {
			t.Fatalf("step: %v", err)
		}
		if !r.Skipped {
			kinds[r.Kind]++
		}
	}
	if len(kinds) < 10 {
		t.Errorf("only %d kinds of transition in 150 steps: %v", len(kinds), kinds)
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableSessions)) {
		if strAttr(it, "projectId") == hostile.Project {
			continue
		}
		st, is := strAttr(it, "status"), strAttr(it, "internalStatus")
		_, numeric := it["updatedAt"].(*types.AttributeValueMemberN)
		if !numeric && st != wcSDKStatus(is) {
			t.Errorf("session %s: status %s with internalStatus %s", strAttr(it, "sessionId"), st, is)
		}
		if numeric && st != "STOPPED" {
			t.Errorf("session %s: numeric updatedAt with status %s", strAttr(it, "sessionId"), st)
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableEvents)) {
		if strAttr(it, "user_id") != hostile.EventUser {
			checkEventInvariants(t, it)
		}
	}
	for _, it := range scanAll(t, ctx, conn, tables.Name(data.TableSandboxes)) {
		if strAttr(it, "allocated_to_track") != hostile.Track {
			checkSandboxInvariants(t, it)
		}
	}
	// The seed's examples are reference rows the simulator leaves alone.
	for _, ex := range sandboxExamples() {
		got := getItem(t, ctx, conn, tables.Name(data.TableSandboxes), sandboxKey(ex))
		if canonItem(got) != canonItem(ex) {
			t.Errorf("seed example %s was changed", strAttr(ex, "sandbox_id"))
		}
	}
	t.Logf("transitions: %v", kinds)
}

// An operator's change between the simulator's read and its write wins: the
// conditional write fails, the step is skipped, the operator's values stay.
func TestSimulatorYieldsToConcurrentOperatorChanges(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	s := newTestSim(conn, tables, rep.Now, 5)
	var raced Item
	s.beforeWrite = func(id data.TableID, key Item) {
		if id != data.TableSessions {
			return
		}
		raced = key
		// The operator releases the session first.
		_, err := conn.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String(tables.Name(id)),
			Key:                       key,
			UpdateExpression:          aws.String("SET #st = :c, internalStatus = :s, updatedAt = :u, endedAt = :u"),
			ExpressionAttributeNames:  map[string]string{"#st": "status"},
			ExpressionAttributeValues: Item{":c": avS("COMPLETED"), ":s": avS("STOPPED"), ":u": avS("2030-01-01T00:00:00Z")},
		})
		if err != nil {
			t.Errorf("operator update: %v", err)
		}
	}
	r, err := s.do(ctx, "session.advance")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Skipped || !strings.Contains(r.Reason, "changed") {
		t.Fatalf("step %v, want skipped because the item changed", r)
	}
	it := getItem(t, ctx, conn, tables.Name(data.TableSessions), raced)
	if strAttr(it, "status") != "COMPLETED" || strAttr(it, "internalStatus") != "STOPPED" || strAttr(it, "updatedAt") != "2030-01-01T00:00:00Z" {
		t.Errorf("operator's release was overwritten: %s/%s/%s", strAttr(it, "status"), strAttr(it, "internalStatus"), strAttr(it, "updatedAt"))
	}

	// Same for a sandbox the operator marks for deletion first.
	s.beforeWrite = func(id data.TableID, key Item) {
		raced = key
		_, err := conn.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String(tables.Name(id)),
			Key:                       key,
			UpdateExpression:          aws.String("SET #st = :p, updated_at = :u"),
			ExpressionAttributeNames:  map[string]string{"#st": "status"},
			ExpressionAttributeValues: Item{":p": avS("pending_deletion"), ":u": avN(1)},
		})
		if err != nil {
			t.Errorf("operator update: %v", err)
		}
	}
	r, err = s.do(ctx, "sandbox.mark")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Skipped {
		t.Fatalf("sandbox step %v, want skipped", r)
	}
	if it := getItem(t, ctx, conn, tables.Name(data.TableSandboxes), raced); strAttr(it, "status") != "pending_deletion" || canon(it["updated_at"]) != "N(1)" {
		t.Errorf("operator's mark was overwritten: %s", canonItem(it))
	}
}

// With the same seed, clock and database, the simulator makes the same moves.
func TestSimulatorIsDeterministic(t *testing.T) {
	start := time.Now().UTC().Truncate(time.Second)
	run := func() []string {
		ctx, conn, tables := testEnv(t)
		if err := CreateTables(ctx, conn, tables, CreateOptions{SkipTTL: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := Seed(ctx, conn, tables, SeedOptions{Now: start, Rand: rand.New(rand.NewPCG(9, 9))}); err != nil {
			t.Fatal(err)
		}
		s := newTestSim(conn, tables, start, 77)
		var out []string
		for range 40 {
			r, err := s.Step(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(r.Kind, r.ID, r.From, r.To, r.Skipped))
		}
		return out
	}
	a, b := run(), run()
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("two runs differ:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// Where the server does not enforce TTL, the simulator does: a day later,
// running sessions time out and ended ones are deleted.
func TestSimulatorExpiresSessionsPastExpiresAt(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	s := newTestSim(conn, tables, rep.Now.Add(25*time.Hour), 3)
	timedOut, deleted := 0, 0
	for range 300 {
		r, err := s.do(ctx, "session.expire")
		if errors.Is(err, errNothingToDo) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		it := getItem(t, ctx, conn, tables.Name(data.TableSessions), r.Key)
		switch r.To {
		case "TIMED_OUT":
			timedOut++
			if strAttr(it, "status") != "TIMED_OUT" {
				t.Errorf("%s: status %s after timing out", r.ID, strAttr(it, "status"))
			}
		case "deleted (expired)":
			deleted++
			if it != nil {
				t.Errorf("%s: still there after expiry delete", r.ID)
			}
		}
		if timedOut >= 3 && deleted >= 3 {
			break
		}
	}
	if timedOut == 0 || deleted == 0 {
		t.Errorf("timed out %d, deleted %d; want both", timedOut, deleted)
	}
}

func TestSimulatorRunStopsWhenCancelled(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	lines := make(chan string, 100)
	s := NewSimulator(conn, tables, SimOptions{Rate: 100, Now: func() time.Time { return rep.Now }, Logf: func(f string, a ...any) {
		select {
		case lines <- fmt.Sprintf(f, a...):
		default:
		}
	}})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Run(runCtx) }()
	deadline := time.After(30 * time.Second)
	for n := 0; n < 5; {
		select {
		case l := <-lines:
			if strings.HasPrefix(l, "error:") {
				t.Errorf("error while running: %s", l)
			}
			n++
		case <-deadline:
			t.Fatal("no transitions within 30s")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run returned %v after cancel, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// Malformed rows inside the ordinary tenants (not just the hostile ones)
// never make the simulator fail, and it never rewrites them into shape.
func TestSimulatorToleratesMalformedRowsInOrdinaryTenants(t *testing.T) {
	ctx, conn, tables, rep := seeded(t)
	now := rep.Now
	put := func(id data.TableID, it Item) Item {
		t.Helper()
		if _, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tables.Name(id)), Item: it}); err != nil {
			t.Fatalf("put %s: %v", id, err)
		}
		return it
	}
	ts := now.Add(-time.Minute).UTC().Format(isoMicros)
	bad := []struct {
		id data.TableID
		it Item
	}{
		{data.TableSessions, put(data.TableSessions, Item{
			"sessionId": avS("sess_bad_history"), "projectId": avS(wcProjects[0].ID), "status": avS("RUNNING"),
			"internalStatus": avS("READY"), "createdAt": avS(iso(now)), "expiresAt": avN(now.Add(time.Hour).Unix()),
			"eventHistory": avM(Item{"oops": avS("a map")}),
		})},
		{data.TableSessions, put(data.TableSessions, Item{
			"sessionId": avS("sess_bad_nointernal"), "projectId": avS(wcProjects[0].ID), "status": avS("RUNNING"),
			"createdAt": avS(iso(now)), "expiresAt": avN(now.Add(time.Hour).Unix()),
		})},
		{data.TableEvents, put(data.TableEvents, Item{
			"user_id": avS(eventUsers[0].ID), "timestamp#event_id": avS(ts + "#bad-retry"), "event_id": avS("bad-retry"),
			"status": avS("failed"), "timestamp": avS(ts), "retry_count": avS("1"), "status#timestamp": avS("failed#" + ts),
		})},
		{data.TableGraphRuns, put(data.TableGraphRuns, Item{
			"PK": avS("USER#" + graphUsers[0].ID), "SK": avS("RUN#" + iso(now) + "#badrun"), "runId": avS("badrun"),
			"status": avS("PROCESSING"), "updatedAt": avN(now.Unix()),
		})},
		{data.TableSandboxes, put(data.TableSandboxes, Item{
			"PK": avS("SBX#bad-hours"), "SK": avS("META"), "sandbox_id": avS("bad-hours"), "status": avS("allocated"),
			"allocated_at": avN(now.Unix()), "allocated_to_track": avS("track-101"), "idempotency_key": avS("track-101"),
			"lab_duration_hours": avS("4h"),
		})},
		{data.TableSandboxes, put(data.TableSandboxes, Item{
			"PK": avS("SBX#bad-count"), "SK": avS("META"), "sandbox_id": avS("bad-count"), "status": avS("pending_deletion"),
			"allocated_at": avN(now.Unix()), "allocated_to_track": avS("track-102"), "deletion_retry_count": avS("two"),
		})},
	}
	s := newTestSim(conn, tables, now, 11)
	for _, k := range simKinds {
		for range 15 {
			if _, err := s.do(ctx, k.name); err != nil && !errors.Is(err, errNothingToDo) {
				t.Fatalf("%s: %v", k.name, err)
			}
		}
	}
	for _, b := range bad {
		got := getItem(t, ctx, conn, tables.Name(b.id), keyOf(b.id, b.it))
		if got != nil && canonItem(got) != canonItem(b.it) {
			t.Errorf("%s: malformed row was rewritten\n got %s\nwant %s", b.id, canonItem(got), canonItem(b.it))
		}
		if got == nil && b.id != data.TableSandboxes {
			t.Errorf("%s: malformed row %s disappeared", b.id, canonItem(keyOf(b.id, b.it)))
		}
	}
}

// With the server gone, Run keeps going (logging errors with growing pauses)
// and still stops promptly when cancelled.
func TestSimulatorRunSurvivesAnUnreachableServer(t *testing.T) {
	// A loopback port nobody listens on.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := data.ConnectLocal(ctx, "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := data.ResolveTables("dev", nil)
	lines := make(chan string, 10)
	s := NewSimulator(conn, tables, SimOptions{Rate: 200, Logf: func(f string, a ...any) {
		select {
		case lines <- fmt.Sprintf(f, a...):
		default:
		}
	}})
	if _, err := s.Step(ctx); err == nil {
		t.Fatal("Step against no server returned no error")
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Run(runCtx) }()
	var pauses []string
	for len(pauses) < 3 {
		select {
		case l := <-lines:
			if !strings.HasPrefix(l, "error:") {
				t.Fatalf("unexpected line %q", l)
			}
			pauses = append(pauses, l[strings.LastIndex(l, "next attempt in"):])
		case <-ctx.Done():
			t.Fatal("no errors logged")
		}
	}
	if pauses[0] == pauses[1] || pauses[1] == pauses[2] {
		t.Errorf("pauses do not grow: %q", pauses)
	}
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run returned %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Run did not stop")
	}
}
