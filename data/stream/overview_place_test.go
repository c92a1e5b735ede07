package stream

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// A count and the live tail must never both count one change. These tests
// interleave writes, counts and the arrival of the writes' records in
// every order against DynamoDB Local and its real stream, and after every
// step check each number against the table (scanned by the test): equal,
// or marked an estimate. Records are applied to every count — even those
// that arrived long before it: placing them (data.ReadSpan.Place) is what
// keeps a change the count saw from moving its number.

// placed is a reader record as the overview takes it.
func placed(r Record) data.ChangeAt {
	return data.ChangeAt{Table: r.Table, Event: r.EventName, Keys: r.Keys, Old: r.Old, New: r.New,
		At: r.ApproxTime, Shard: r.Shard, Seq: r.Seq, NotBy: r.NotBy, ReadBy: r.ReadBy}
}

// placeRig is one tailer on the overview's tables and the records it
// delivered so far.
type placeRig struct {
	t      *testing.T
	conn   *data.Conn
	tables data.Tables
	sink   *collectSink
	st     *data.Store
	plan   data.OverviewPlan
	marks  int
}

func newPlaceRig(t *testing.T) *placeRig {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableSessions)
	ids := []data.TableID{data.TableSessions}
	sink := newCollectSink()
	// Polled briskly: the test waits for every record.
	startTailer(t, conn, tables, Options{Tables: ids, PollInterval: 20 * time.Millisecond, IdlePollMax: 40 * time.Millisecond, TableIdleRate: 50}, sink)
	waitLive(t, sink, ids)
	return &placeRig{t: t, conn: conn, tables: tables, sink: sink, st: data.NewStore(conn, tables),
		plan: data.OverviewPlan{Projects: []string{"p0"}, ExpiringWithin: 15 * time.Minute}}
}

// session writes one session of project p0.
func (r *placeRig) session(id, status string) {
	ovwPut(r.t, r.conn, r.tables, data.TableSessions, ovwSession(id, "p0", status, ovwNow.Unix()+3600))
}

// arrived waits for the record of the n-th change to the session id
// (counting from 1).
func (r *placeRig) arrived(id string, n int) {
	r.t.Helper()
	r.sink.waitFor(r.t, 30*time.Second, "the record of "+id, func() bool { return countKey(r.sink.recs, id) >= n })
}

// passed writes marks (sessions no number counts: no expiresAt, another
// project) until the reader has read the shard to its end after t: every
// later record is then known to be made after t.
func (r *placeRig) passed(t time.Time) {
	r.t.Helper()
	readPast(r.t, r.conn, r.tables, r.sink, data.TableSessions, t)
}

var marks atomicCounter

// readPast writes marks to table id (items no overview number counts)
// until one arrives that the reader read after t: every record of that
// table delivered later was made after t.
func readPast(t *testing.T, conn *data.Conn, tables data.Tables, sink *collectSink, id data.TableID, after time.Time) {
	t.Helper()
	for range 100 {
		key := fmt.Sprintf("mark-%06d-end", marks.next())
		var it data.Item
		switch id {
		case data.TableSessions:
			it = ovwSession(key, "p-marks", "MARK", 0)
		case data.TableSandboxes:
			it = ovwSandbox(key, "marker", 0, 4)
		case data.TableEvents:
			it = ovwEvent("nobody", key, "delivered", 0, ovwNow)
		case data.TableGraphRuns:
			it = ovwRun("nobody", key, "COMPLETE", ovwNow, ovwNow)
		}
		ovwPut(t, conn, tables, id, it)
		var rec *Record
		sink.waitFor(t, 30*time.Second, "the mark "+key, func() bool {
			for i := range sink.recs {
				if keyHas(sink.recs[i], key) {
					rec = &sink.recs[i]
					return true
				}
			}
			return false
		})
		if rec.NotBy.After(after) {
			return
		}
	}
	t.Fatal("the reader never read past the time")
}

// keyHas: one of the record's key values contains s.
func keyHas(rec Record, s string) bool {
	for _, v := range rec.Keys {
		if sv, ok := v.(*types.AttributeValueMemberS); ok && strings.Contains(sv.Value, s) {
			return true
		}
	}
	return false
}

type atomicCounter struct{ n atomic.Int64 }

func (c *atomicCounter) next() int64 { return c.n.Add(1) }

// count counts the sessions' numbers (the plan's metrics of that table:
// the others would only slow the test), as CountOverview does.
func (r *placeRig) count(ctx context.Context) data.Overview {
	r.t.Helper()
	o := data.Overview{Plan: r.plan, At: ovwNow}
	for _, m := range r.plan.Metrics(ovwNow) {
		if m.Scope.Table != data.TableSessions {
			continue
		}
		c, err := r.st.CountMetric(ctx, m, 0)
		if err != nil {
			r.t.Fatal(err)
		}
		o.Tallies = append(o.Tallies, data.Tally{Metric: m, N: c.N, Span: c.Span, CountedAt: ovwNow})
	}
	return o
}

// passedAll waits until every record delivered so far was read more than
// the slack before now.
func (r *placeRig) passedAll() {
	r.t.Helper()
	recs, _ := r.sink.snapshot()
	r.passed(recs[len(recs)-1].ReadBy.Add(data.LocalCountSlack))
}

func countKey(recs []Record, id string) int {
	n := 0
	for _, rec := range recs {
		if keyIs(rec, id) {
			n++
		}
	}
	return n
}

func keyIs(rec Record, id string) bool {
	v, ok := rec.Keys["sessionId"].(*types.AttributeValueMemberS)
	return ok && v.Value == id
}

// TestCountAndTailNeverCountAChangeTwice: two changes of one session
// (RUNNING → COMPLETED → RUNNING) and a count, in every order, each
// change's record awaited at once or only at the end. After every step the
// numbers are exact or marked ≈; where the order leaves no doubt (the
// record read well before the count, or the change made well after it)
// they are exact.
func TestCountAndTailNeverCountAChangeTwice(t *testing.T) {
	r := newPlaceRig(t)
	ctx := context.Background()
	// A few RUNNING and COMPLETED sessions, so no number is zero.
	for i := range 3 {
		r.session(fmt.Sprintf("base-%d", i), "RUNNING")
		r.session(fmt.Sprintf("done-%d", i), "COMPLETED")
	}
	r.arrived("done-2", 1)

	type step byte // 'c' count, '1' / '2' the changes
	orders := [][]step{{'1', '2', 'c'}, {'1', 'c', '2'}, {'c', '1', '2'}, {'2', '1', 'c'}, {'2', 'c', '1'}, {'c', '2', '1'}}
	scenario := 0
	// The count in force: each scenario's steps apply every record to it,
	// and its own count replaces it.
	o := r.count(ctx)
	for _, order := range orders {
		for _, awaitEach := range []bool{true, false} {
			scenario++
			id := fmt.Sprintf("s%02d", scenario)
			r.session(id, "RUNNING")
			r.arrived(id, 1)
			writes := 0
			check := func(when string) {
				t.Helper()
				recs, _ := r.sink.snapshot()
				// Every record so far, applied to the count in force: the
				// ones it saw must move nothing.
				fresh := o
				fresh.Tallies = append([]data.Tally(nil), o.Tallies...)
				for _, rec := range recs {
					fresh.Apply(placed(rec))
				}
				checkTruth(t, fmt.Sprintf("%s %s (order %s, await each %v)", id, when, string(order), awaitEach), fresh, r.conn, r.tables, true)
			}
			for _, s := range order {
				switch s {
				case 'c':
					o = r.count(ctx)
					if awaitEach || writes == 0 {
						check("after the count")
					}
				default:
					// Changes happen in their own order: the first write
					// completes the session, the second runs it again.
					writes++
					status := "COMPLETED"
					if writes == 2 {
						status = "RUNNING"
					}
					r.session(id, status)
					if awaitEach {
						// Until its record arrives, no number can know
						// of a write: checked once it has.
						r.arrived(id, 1+writes)
						check("after write " + string(s))
					}
				}
			}
			r.arrived(id, 3)
			check("at the end")
		}
	}

	// No doubt left: the record read, the reader past it, then a count —
	// or a count, the reader past it, then the change.
	for i, countFirst := range []bool{false, true} {
		id := fmt.Sprintf("sure-%d", i)
		r.session(id, "RUNNING")
		r.arrived(id, 1)
		r.passedAll()
		o := r.count(ctx)
		if countFirst {
			r.passed(spanEnd(o))
			r.session(id, "COMPLETED")
			r.arrived(id, 2)
		} else {
			r.session(id, "COMPLETED")
			r.arrived(id, 2)
			r.passedAll()
			o = r.count(ctx)
		}
		recs, _ := r.sink.snapshot()
		moved := false
		for _, rec := range recs {
			moved = o.Apply(placed(rec)) || moved
		}
		if moved != countFirst {
			t.Errorf("%s: the change moved the count: %v, want %v", id, moved, countFirst)
		}
		checkTruth(t, id, o, r.conn, r.tables, false)
	}
}

// TestCountDuringWrites: writes made while counts run, records applied as
// they come; whatever the timing, each number is exact or marked ≈.
func TestCountDuringWrites(t *testing.T) {
	r := newPlaceRig(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(23, 5))
	statuses := []string{"RUNNING", "COMPLETED", "STOPPED"}
	for round := range 4 {
		done := make(chan data.Overview)
		go func() { done <- r.count(ctx) }()
		for range 6 {
			r.session(fmt.Sprintf("w%d", rnd.IntN(5)), statuses[rnd.IntN(3)])
		}
		o := <-done
		r.session(fmt.Sprintf("end-%d", round), "MARK")
		r.arrived(fmt.Sprintf("end-%d", round), 1)
		recs, _ := r.sink.snapshot()
		for _, rec := range recs {
			o.Apply(placed(rec))
		}
		checkTruth(t, fmt.Sprintf("round %d", round), o, r.conn, r.tables, true)
	}
}

// spanEnd is the end of the latest tally's read.
func spanEnd(o data.Overview) time.Time {
	var end time.Time
	for _, tl := range o.Tallies {
		if tl.Span.To.After(end) {
			end = tl.Span.To
		}
	}
	return end.Add(data.LocalCountSlack)
}
