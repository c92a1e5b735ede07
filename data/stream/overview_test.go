package stream

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/internal/dbtest"
)

// The overview's counts are checked against the table's truth: every table
// is scanned (here, in the test, never by the console) and each metric is
// recomputed with plain Go over the scanned items — not with Scope.Matches,
// which is what is being tested. Checked three times: after the first
// count over a seeded world, after a burst of writes applied through the
// real stream, and after a re-count.

var ovwNow = time.Now().Truncate(time.Second)

func ovwTables(t *testing.T, conn *data.Conn) data.Tables {
	t.Helper()
	tables := dbtest.Tables(t, "dev", "o")
	// Sessions and events keep the seed's stream (NEW_AND_OLD_IMAGES,
	// NEW_IMAGE); runs and sandboxes get one as the demo gives them.
	dbtest.Create(t, conn, tables, false, data.TableSessions, data.TableProjects, data.TableEvents)
	dbtest.Create(t, conn, tables, true, data.TableGraphRuns, data.TableSandboxes)
	return tables
}

func ovwPut(t *testing.T, conn *data.Conn, tables data.Tables, id data.TableID, it data.Item) {
	t.Helper()
	if _, err := conn.DB.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tables.Name(id)), Item: it}); err != nil {
		t.Fatal(err)
	}
}

func ovwSandbox(id, status string, allocated int64, labHours int64) data.Item {
	it := data.Item{
		"PK": data.S("SBX#" + id), "SK": data.S("META"), "sandbox_id": data.S(id),
		"status": data.S(status), "lab_duration_hours": data.N(labHours),
		"allocated_at": data.N(allocated), "created_at": data.N(ovwNow.Unix() - 86400),
	}
	if status == data.SandboxAllocated || status == data.SandboxPendingDeletion {
		it["allocated_to_track"] = data.S("track-" + id)
	}
	return it
}

func ovwSession(id, project, status string, expires int64) data.Item {
	it := data.Item{
		"sessionId": data.S(id), "projectId": data.S(project), "status": data.S(status),
		"createdAt": data.S(ovwNow.Add(-time.Hour).UTC().Format(time.RFC3339)),
	}
	if expires != 0 {
		it["expiresAt"] = data.N(expires)
	}
	return it
}

func ovwEvent(user, id, status string, retries int64, ts time.Time) data.Item {
	t := ts.UTC().Format("2006-01-02T15:04:05.000000Z")
	return data.Item{
		"user_id": data.S(user), "timestamp#event_id": data.S(t + "#" + id), "event_id": data.S(id),
		"event_type": data.S("order.created"), "status": data.S(status), "timestamp": data.S(t),
		"retry_count": data.N(retries), "event_type#timestamp": data.S("order.created#" + t),
		"status#timestamp": data.S(status + "#" + t),
	}
}

func ovwRun(user, id, status string, created, updated time.Time) data.Item {
	pk, sk, g1, g2 := data.GraphRunKeys(user, id, created)
	return data.Item{
		"PK": data.S(pk), "SK": data.S(sk), "GSI1PK": data.S(g1), "GSI1SK": data.S(g2),
		"runId": data.S(id), "status": data.S(status),
		"updatedAt": data.S(updated.UTC().Format("2006-01-02T15:04:05Z")),
	}
}

// seedOverviewWorld writes a world with an item on each side of every
// boundary the overview counts on (window edges, retry limit, status,
// type mismatches that keep an item out of an index).
func seedOverviewWorld(t *testing.T, conn *data.Conn, tables data.Tables, r *rand.Rand) {
	now := ovwNow.Unix()
	statuses := []string{data.SandboxAvailable, data.SandboxAllocated, data.SandboxPendingDeletion, data.SandboxStale}
	for i := range 60 {
		st := statuses[r.IntN(len(statuses))]
		var alloc int64
		if st != data.SandboxAvailable && st != data.SandboxStale {
			alloc = now - int64(r.IntN(8*3600))
		}
		ovwPut(t, conn, tables, data.TableSandboxes, ovwSandbox(fmt.Sprintf("s%02d", i), st, alloc, int64(1+r.IntN(6))))
	}
	// No allocated_at at all: not in StatusIndex (DynamoDB refuses one of
	// the wrong type).
	bad := ovwSandbox("bad", data.SandboxAllocated, 0, 4)
	delete(bad, "allocated_at")
	ovwPut(t, conn, tables, data.TableSandboxes, bad)
	// The window edges: ended a second ago, ends in a second.
	ovwPut(t, conn, tables, data.TableSandboxes, ovwSandbox("edge-past", data.SandboxAllocated, now-4*3600-1, 4))
	ovwPut(t, conn, tables, data.TableSandboxes, ovwSandbox("edge-in", data.SandboxAllocated, now-4*3600+1, 4))

	sst := []string{"RUNNING", "STOPPED", "COMPLETED", "ERROR", "TIMED_OUT"}
	for i := range 80 {
		exp := now + int64(r.IntN(3600)) - 300
		if r.IntN(10) == 0 {
			exp = 0 // no TTL: not in status-expiresAt-index
		}
		ovwPut(t, conn, tables, data.TableSessions, ovwSession(fmt.Sprintf("sess_%02d", i), fmt.Sprintf("p%d", r.IntN(3)), sst[r.IntN(len(sst))], exp))
	}
	ovwPut(t, conn, tables, data.TableSessions, ovwSession("sess_edge_lo", "p0", "RUNNING", now))
	ovwPut(t, conn, tables, data.TableSessions, ovwSession("sess_edge_hi", "p0", "RUNNING", now+15*60))
	ovwPut(t, conn, tables, data.TableSessions, ovwSession("sess_edge_out", "p0", "RUNNING", now+15*60+1))
	ovwPut(t, conn, tables, data.TableProjects, data.Item{"projectId": data.S("p0"), "concurrency": data.N(5)})
	ovwPut(t, conn, tables, data.TableProjects, data.Item{"projectId": data.S("p1"), "concurrency": data.N(40)})

	est := []string{"received", "delivered", "failed", "retrying"}
	for i := range 90 {
		u := fmt.Sprintf("u%d", r.IntN(3))
		ovwPut(t, conn, tables, data.TableEvents, ovwEvent(u, fmt.Sprintf("e%02d", i), est[r.IntN(len(est))], int64(r.IntN(5)), ovwNow.Add(-time.Duration(i)*time.Minute)))
	}
	rst := []string{"UPLOADED", "PROCESSING", "COMPLETE", "FAILED"}
	for i := range 50 {
		u := fmt.Sprintf("u%d", r.IntN(3))
		upd := ovwNow.Add(-time.Duration(r.IntN(120)) * time.Minute)
		ovwPut(t, conn, tables, data.TableGraphRuns, ovwRun(u, fmt.Sprintf("r%02d", i), rst[r.IntN(len(rst))], upd.Add(-time.Hour), upd))
	}
}

func scanAll(t *testing.T, conn *data.Conn, tables data.Tables, id data.TableID) []data.Item {
	t.Helper()
	var out []data.Item
	var start map[string]types.AttributeValue
	for {
		res, err := conn.DB.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(tables.Name(id)), ExclusiveStartKey: start, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res.Items...)
		if start = res.LastEvaluatedKey; len(start) == 0 {
			return out
		}
	}
}

func sv(it data.Item, a string) (string, bool) {
	v, ok := it[a].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return v.Value, true
}

func nv(it data.Item, a string) (int64, bool) {
	v, ok := it[a].(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	return n, err == nil
}

// truth recomputes a metric over the scanned items with plain Go.
func truth(m data.Metric, plan data.OverviewPlan, items []data.Item) int64 {
	now := ovwNow.Unix()
	var n int64
	for _, it := range items {
		status, _ := sv(it, "status")
		ok := false
		switch m.Key {
		case data.MetricSandboxesAvailable, data.MetricSandboxesAllocated, data.MetricSandboxesPending, data.MetricSandboxesStale:
			_, isN := nv(it, "allocated_at")
			ok = isN && status == strings.TrimPrefix(m.Key, "sandboxes.")
		case data.MetricSandboxesPastWindow:
			at, isN := nv(it, "allocated_at")
			h, hasH := nv(it, "lab_duration_hours")
			// The window is lab_duration_hours, never past the broker's 4 h.
			ok = isN && hasH && status == "allocated" && at > 0 && h > 0 && at+min(h, 4)*3600 < now
		case data.MetricSessionsRunning, data.MetricSessionsStopped, data.MetricSessionsCompleted, data.MetricSessionsError, data.MetricSessionsTimedOut:
			_, isN := nv(it, "expiresAt")
			ok = isN && status == m.Label
		case data.MetricSessionsExpiring:
			e, isN := nv(it, "expiresAt")
			ok = isN && status == "RUNNING" && e >= now && e <= now+int64(plan.ExpiringWithin/time.Second)
		case data.MetricProjectRunning:
			p, _ := sv(it, "projectId")
			_, hasC := sv(it, "createdAt")
			ok = hasC && p == m.Subject && status == "RUNNING"
		case data.MetricEventsFailed, data.MetricEventsRetrying, data.MetricEventsExhausted:
			u, _ := sv(it, "user_id")
			key, _ := sv(it, "status#timestamp")
			want := "failed#"
			if m.Key == data.MetricEventsRetrying {
				want = "retrying#"
			}
			ok = u == m.Subject && strings.HasPrefix(key, want)
			if m.Key == data.MetricEventsExhausted {
				rc, isN := nv(it, "retry_count")
				ok = ok && isN && rc >= int64(plan.RetryMax)
			}
		case data.MetricRunsStaleProcessing, data.MetricRunsStaleUploaded:
			pk, _ := sv(it, "PK")
			sk, _ := sv(it, "SK")
			upd, _ := sv(it, "updatedAt")
			ut, err := time.Parse(time.RFC3339, upd)
			want := "PROCESSING"
			if m.Key == data.MetricRunsStaleUploaded {
				want = "UPLOADED"
			}
			ok = pk == "USER#"+m.Subject && strings.HasPrefix(sk, "RUN#") && status == want && err == nil && ut.Before(ovwNow.Add(-plan.StaleRun))
		}
		if ok {
			n++
		}
	}
	return n
}

func checkTruth(t *testing.T, when string, o data.Overview, conn *data.Conn, tables data.Tables, allowEstimated bool) {
	t.Helper()
	scans := map[data.TableID][]data.Item{}
	for _, tl := range o.Tallies {
		if tl.Err != nil {
			t.Fatalf("%s: %s %s: %v", when, tl.Key, tl.Subject, tl.Err)
		}
		if _, ok := scans[tl.Scope.Table]; !ok {
			scans[tl.Scope.Table] = scanAll(t, conn, tables, tl.Scope.Table)
		}
		want := truth(tl.Metric, o.Plan, scans[tl.Scope.Table])
		switch {
		case tl.Estimated && !allowEstimated:
			t.Errorf("%s: %s %s is estimated", when, tl.Key, tl.Subject)
		case tl.Estimated:
			// Said to be an estimate: that is the truth the screen tells.
		case tl.N != want:
			t.Errorf("%s: %s %s = %d, table says %d", when, tl.Key, tl.Subject, tl.N, want)
		}
	}
}

func TestOverviewCountsEqualTheTablesTruth(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := ovwTables(t, conn)
	r := rand.New(rand.NewPCG(11, 1))
	seedOverviewWorld(t, conn, tables, r)

	ids := []data.TableID{data.TableSessions, data.TableEvents, data.TableGraphRuns, data.TableSandboxes}
	sink := newCollectSink()
	startTailer(t, conn, tables, Options{Tables: ids}, sink)
	waitLive(t, sink, ids)

	st := data.NewStore(conn, tables)
	plan := data.OverviewPlan{Users: []string{"u0", "u1", "u2"}, Projects: []string{"p0", "p1", "p2"},
		ExpiringWithin: 15 * time.Minute, StaleRun: 30 * time.Minute, RetryMax: 3}
	o := st.CountOverview(context.Background(), plan, ovwNow)
	checkTruth(t, "first count", o, conn, tables, false)
	// The burst below is made after the count: once each table's reader
	// has read past the count, its records say so (data.ReadSpan.Place).
	for _, id := range ids {
		readPast(t, conn, tables, sink, id, spanEnd(o))
	}
	nonzero := 0
	for _, tl := range o.Tallies {
		if tl.N > 0 {
			nonzero++
		}
		if tl.Key == data.MetricProjectRunning && tl.Subject == "p0" && (!tl.HasLimit || tl.Limit != 5) {
			t.Errorf("p0 quota = %d (%v), want 5", tl.Limit, tl.HasLimit)
		}
		if tl.Consumed <= 0 {
			t.Errorf("%s %s: no read cost recorded", tl.Key, tl.Subject)
		}
	}
	if nonzero < len(o.Tallies)*2/3 {
		t.Fatalf("the seeded world leaves most numbers at zero (%d of %d non-zero): the test proves little", nonzero, len(o.Tallies))
	}

	// A burst of changes, the kinds the services make: sandboxes allocated
	// and released, sessions stopped and created, new failed events, runs
	// moving on. Events get only INSERTs here: their stream has no old
	// image, so a MODIFY cannot be placed (checked below).
	before := len(sink.recs)
	now := ovwNow.Unix()
	for i := range 40 {
		id := fmt.Sprintf("s%02d", r.IntN(60))
		st := []string{data.SandboxAvailable, data.SandboxAllocated, data.SandboxPendingDeletion, data.SandboxStale}[r.IntN(4)]
		ovwPut(t, conn, tables, data.TableSandboxes, ovwSandbox(id, st, now-int64(r.IntN(8*3600)), 4))
		sid := fmt.Sprintf("sess_%02d", r.IntN(90))
		if i%7 == 0 {
			_, err := conn.DB.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(tables.Name(data.TableSessions)), Key: data.Item{"sessionId": data.S(sid)}})
			if err != nil {
				t.Fatal(err)
			}
		} else {
			ovwPut(t, conn, tables, data.TableSessions, ovwSession(sid, fmt.Sprintf("p%d", r.IntN(3)), []string{"RUNNING", "STOPPED", "ERROR"}[r.IntN(3)], now+int64(r.IntN(1800))))
		}
		ovwPut(t, conn, tables, data.TableEvents, ovwEvent(fmt.Sprintf("u%d", r.IntN(3)), fmt.Sprintf("burst%02d", i), "failed", int64(r.IntN(5)), ovwNow.Add(time.Duration(i)*time.Second)))
		upd := ovwNow.Add(-time.Duration(r.IntN(120)) * time.Minute)
		ovwPut(t, conn, tables, data.TableGraphRuns, ovwRun(fmt.Sprintf("u%d", r.IntN(3)), fmt.Sprintf("r%02d", r.IntN(60)), []string{"PROCESSING", "UPLOADED", "COMPLETE"}[r.IntN(3)], upd.Add(-time.Hour), upd))
	}
	// A last write to each table marks the end of the burst: once each has
	// arrived, so has everything written before it (one shard per table).
	ovwPut(t, conn, tables, data.TableSandboxes, ovwSandbox("zz-last", data.SandboxAvailable, 0, 4))
	ovwPut(t, conn, tables, data.TableSessions, ovwSession("zz-last", "p0", "RUNNING", now+60))
	ovwPut(t, conn, tables, data.TableEvents, ovwEvent("u0", "zz-last", "failed", 9, ovwNow))
	ovwPut(t, conn, tables, data.TableGraphRuns, ovwRun("u0", "zz-last", "PROCESSING", ovwNow.Add(-3*time.Hour), ovwNow.Add(-2*time.Hour)))
	sink.waitFor(t, 60*time.Second, "the burst's records", func() bool { return lastSeen(sink.recs[before:]) == 4 })
	recs, _ := sink.snapshot()
	moved := 0
	for _, rec := range recs[before:] {
		if o.Apply(placed(rec)) {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no record moved any number")
	}
	checkTruth(t, "after the burst", o, conn, tables, false)

	// A MODIFY on the NEW_IMAGE events table cannot be placed: the tallies
	// of that user say they are estimates; the other users' stay exact.
	before = len(recs)
	ovwPut(t, conn, tables, data.TableEvents, ovwEvent("u1", "burst00x", "delivered", 0, ovwNow))
	upd := ovwEvent("u1", "burst00x", "failed", 0, ovwNow)
	ovwPut(t, conn, tables, data.TableEvents, upd)
	sink.waitFor(t, 60*time.Second, "the modify", func() bool { return len(sink.recs)-before >= 2 })
	recs, _ = sink.snapshot()
	for _, rec := range recs[before:] {
		o.Apply(placed(rec))
	}
	for _, tl := range o.Tallies {
		if tl.Scope.Table != data.TableEvents {
			continue
		}
		if want := tl.Subject == "u1"; tl.Estimated != want {
			t.Errorf("%s %s: estimated = %v, want %v", tl.Key, tl.Subject, tl.Estimated, want)
		}
	}
	checkTruth(t, "after an unplaceable change", o, conn, tables, true)

	o = st.CountOverview(context.Background(), plan, ovwNow)
	checkTruth(t, "after the re-count", o, conn, tables, false)
}

// lastSeen counts the tables whose zz-last write has arrived.
func lastSeen(recs []Record) int {
	n := 0
	for _, r := range recs {
		for _, v := range r.Keys {
			if s, ok := v.(*types.AttributeValueMemberS); ok && strings.Contains(s.Value, "zz-last") {
				n++
				break
			}
		}
	}
	return n
}
