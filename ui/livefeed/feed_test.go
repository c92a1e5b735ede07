package livefeed

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// guard bounds every wait so a broken Feed fails the test instead of hanging
// it. It is a deadline, not a timing assumption: a correct Feed answers in
// microseconds.
const guard = 10 * time.Second

func rec(key string, seq int) stream.Record {
	return stream.Record{
		Table:     data.TableSessions,
		EventName: "MODIFY",
		Keys:      data.Item{"sessionId": &types.AttributeValueMemberS{Value: key}},
		Seq:       fmt.Sprintf("%020d", seq),
	}
}

func keyOf(r stream.Record) string {
	return r.Keys["sessionId"].(*types.AttributeValueMemberS).Value
}

// runLoop plays the program: it runs Next's commands back to back, the way
// the root model re-arms the feed after every BatchMsg, and forwards each
// batch. The channel closes when a command returns nil (the feed stopped).
func runLoop(f *Feed) <-chan BatchMsg {
	out := make(chan BatchMsg)
	go func() {
		defer close(out)
		for {
			m := f.Next()()
			if m == nil {
				return
			}
			out <- m.(BatchMsg)
		}
	}()
	return out
}

// Many writers, a hand-driven ticker: every record arrives exactly once, in
// per-key order, and there is never more than one batch per tick.
func TestCoalescesConcurrentWriters(t *testing.T) {
	const writers, perWriter, keysPerWriter = 16, 2000, 5
	ticks := make(chan time.Time)
	f := New(context.Background(), Options{Ticks: ticks, MaxBacklog: writers * perWriter})
	defer f.Close()

	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWriter; {
				// Reader goroutines deliver small slices of varying size.
				n := 1 + i%7
				var batch []stream.Record
				for j := 0; j < n && i < perWriter; j, i = j+1, i+1 {
					batch = append(batch, rec(fmt.Sprintf("w%d-k%d", w, i%keysPerWriter), i))
				}
				f.Records(batch)
			}
		}(w)
	}

	batches := runLoop(f)
	seen := map[string]int{} // key → last seq seen
	got, msgs, ticksSent := 0, 0, 0
	deadline := time.After(guard)
	for got < writers*perWriter {
		select {
		case ticks <- time.Time{}:
			ticksSent++
		case m := <-batches:
			msgs++
			if m.Dropped != 0 {
				t.Fatalf("dropped %d records below the cap", m.Dropped)
			}
			for _, r := range m.Records {
				seq, err := strconv.Atoi(r.Seq)
				if err != nil {
					t.Fatal(err)
				}
				k := keyOf(r)
				if last, ok := seen[k]; ok && seq <= last {
					t.Fatalf("key %s: seq %d after %d (out of order or duplicated)", k, seq, last)
				}
				seen[k] = seq
				got++
			}
		case <-deadline:
			t.Fatalf("only %d of %d records after %v", got, writers*perWriter, guard)
		}
	}
	wg.Wait()
	if got != writers*perWriter {
		t.Fatalf("got %d records, want %d", got, writers*perWriter)
	}
	if msgs > ticksSent {
		t.Fatalf("%d batches for %d ticks: more than one batch per tick", msgs, ticksSent)
	}
	if st := f.Stats(); st.Delivered != got || st.Batches != msgs || st.Pending != 0 {
		t.Fatalf("stats %+v, want delivered %d batches %d pending 0", st, got, msgs)
	}
}

// A burst that lands between two ticks becomes one message.
func TestBurstIsOneBatch(t *testing.T) {
	ticks := make(chan time.Time, 1)
	f := New(context.Background(), Options{Ticks: ticks})
	defer f.Close()
	for i := 0; i < 5000; i++ {
		f.Records([]stream.Record{rec("k", i)})
	}
	f.Health(stream.Health{Table: data.TableEvents, State: "polling"})
	ticks <- time.Time{}
	m := f.Next()().(BatchMsg)
	if len(m.Records) != 5000 || len(m.Health) != 1 || m.Dropped != 0 {
		t.Fatalf("batch has %d records, %d health, %d dropped; want 5000, 1, 0", len(m.Records), len(m.Health), m.Dropped)
	}
	for i, r := range m.Records {
		if r.Seq != fmt.Sprintf("%020d", i) {
			t.Fatalf("record %d has seq %s: order not kept", i, r.Seq)
		}
	}
}

// Next waits for a tick even when records are pending: the tick, not the
// arrival of data, paces the program.
func TestNextWaitsForTick(t *testing.T) {
	ticks := make(chan time.Time)
	f := New(context.Background(), Options{Ticks: ticks})
	defer f.Close()
	f.Records([]stream.Record{rec("k", 1)})
	done := make(chan result, 1)
	go func() { done <- result{f.Next()()} }()
	// The command must now be parked on the tick: an unbuffered send only
	// succeeds when it is receiving. If it had returned without a tick, the
	// send would block until the guard fires.
	select {
	case ticks <- time.Time{}:
	case d := <-done:
		t.Fatalf("Next returned %#v before any tick", d.msg)
	case <-time.After(guard):
		t.Fatal("Next never waited on the tick")
	}
	select {
	case d := <-done:
		if m, ok := d.msg.(BatchMsg); !ok || len(m.Records) != 1 {
			t.Fatalf("got %#v, want one record", d.msg)
		}
	case <-time.After(guard):
		t.Fatal("no batch after the tick")
	}
}

type result struct{ msg any }

// Overflow drops the oldest pending records, counts them exactly once, and
// keeps the newest.
func TestOverflowDropsOldestAndCounts(t *testing.T) {
	ticks := make(chan time.Time, 1)
	f := New(context.Background(), Options{Ticks: ticks, MaxBacklog: 100})
	defer f.Close()
	for i := 0; i < 250; i++ {
		f.Records([]stream.Record{rec("k", i)})
	}
	ticks <- time.Time{}
	m := f.Next()().(BatchMsg)
	if len(m.Records) != 100 || m.Dropped != 150 {
		t.Fatalf("got %d records, %d dropped; want 100, 150", len(m.Records), m.Dropped)
	}
	if m.Records[0].Seq != fmt.Sprintf("%020d", 150) || m.Records[99].Seq != fmt.Sprintf("%020d", 249) {
		t.Fatalf("kept %s..%s, want the newest 150..249", m.Records[0].Seq, m.Records[99].Seq)
	}
	// One slice larger than the cap on its own.
	big := make([]stream.Record, 130)
	for i := range big {
		big[i] = rec("k", 1000+i)
	}
	f.Records([]stream.Record{rec("k", 999)})
	f.Records(big)
	ticks <- time.Time{}
	m = f.Next()().(BatchMsg)
	if len(m.Records) != 100 || m.Dropped != 31 || m.Records[0].Seq != fmt.Sprintf("%020d", 1030) {
		t.Fatalf("got %d records from %s, %d dropped; want 100 from 1030, 31", len(m.Records), m.Records[0].Seq, m.Dropped)
	}
	if st := f.Stats(); st.Dropped != 181 {
		t.Fatalf("stats.Dropped = %d, want 181", st.Dropped)
	}
}

// The backlog is bounded by bytes too: records of big items (800 KB with
// both images) are dropped oldest first once the pending ones pass the
// byte cap, counted, and the newest is always kept.
func TestOverflowByBytesDropsOldestAndCounts(t *testing.T) {
	ticks := make(chan time.Time, 1)
	f := New(context.Background(), Options{Ticks: ticks, MaxBacklogBytes: 8 << 20})
	defer f.Close()
	for i := 0; i < 100; i++ {
		r := rec("k", i)
		r.Bytes = 800_000
		f.Records([]stream.Record{r})
	}
	ticks <- time.Time{}
	m := f.Next()().(BatchMsg)
	if len(m.Records) != 10 || m.Dropped != 90 {
		t.Fatalf("got %d records, %d dropped; want the newest 10 (8 MB), 90 dropped", len(m.Records), m.Dropped)
	}
	if m.Records[9].Seq != fmt.Sprintf("%020d", 99) {
		t.Fatalf("newest kept is %s, want 99", m.Records[9].Seq)
	}
	huge := rec("k", 500)
	huge.Bytes = 9 << 20
	f.Records([]stream.Record{huge})
	ticks <- time.Time{}
	if m = f.Next()().(BatchMsg); len(m.Records) != 1 || m.Dropped != 0 {
		t.Fatalf("a record over the cap alone: got %d records, %d dropped; want it kept", len(m.Records), m.Dropped)
	}
}

// Repeated identical health notices collapse; transitions are all kept.
func TestHealthCollapsesRepeatsKeepsTransitions(t *testing.T) {
	ticks := make(chan time.Time, 1)
	f := New(context.Background(), Options{Ticks: ticks})
	defer f.Close()
	at := time.Unix(0, 0)
	for i := 0; i < 50; i++ {
		f.Health(stream.Health{Table: data.TableSessions, State: "live", At: at.Add(time.Duration(i))})
	}
	f.Health(stream.Health{Table: data.TableEvents, State: "reconnecting"})
	f.Health(stream.Health{Table: data.TableSessions, State: "gap", Detail: "trimmed"})
	f.Health(stream.Health{Table: data.TableSessions, State: "live"})
	ticks <- time.Time{}
	m := f.Next()().(BatchMsg)
	var got []string
	for _, h := range m.Health {
		got = append(got, string(h.Table)+":"+string(h.State))
	}
	want := "[sessions:live events:reconnecting sessions:gap sessions:live]"
	if fmt.Sprint(got) != want {
		t.Fatalf("health %v, want %s", got, want)
	}
	if m.Health[0].At != at.Add(49) {
		t.Fatalf("collapsed notice kept At %v, want the latest", m.Health[0].At)
	}
}

// Close and context cancellation both end a waiting command with nil.
func TestCloseAndCancelStopNext(t *testing.T) {
	for _, how := range []string{"close", "cancel"} {
		t.Run(how, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f := New(ctx, Options{Ticks: make(chan time.Time)})
			done := make(chan any, 1)
			go func() { done <- f.Next()() }()
			f.Records([]stream.Record{rec("k", 1)}) // pending, but no tick ever comes
			if how == "close" {
				f.Close()
			} else {
				cancel()
			}
			select {
			case m := <-done:
				if m != nil {
					t.Fatalf("got %#v after %s, want nil", m, how)
				}
			case <-time.After(guard):
				t.Fatalf("Next still waiting after %s", how)
			}
			f.Records([]stream.Record{rec("k", 2)}) // must not panic or block
			f.Close()
		})
	}
}

// With the real ticker, records arrive without any test-driven tick.
func TestRealTickerDelivers(t *testing.T) {
	f := New(context.Background(), Options{})
	defer f.Close()
	f.Records([]stream.Record{rec("k", 1), rec("k", 2)})
	done := make(chan any, 1)
	go func() { done <- f.Next()() }()
	select {
	case m := <-done:
		if b, ok := m.(BatchMsg); !ok || len(b.Records) != 2 {
			t.Fatalf("got %#v", m)
		}
	case <-time.After(guard):
		t.Fatal("no batch from the real ticker")
	}
}

// Lineage reports alone make a batch; several of one table before the
// batch collapse into the latest (they are running totals), one per table.
func TestLineageLatestPerTable(t *testing.T) {
	ticks := make(chan time.Time, 1)
	f := New(context.Background(), Options{Ticks: ticks})
	defer f.Close()
	for i := 1; i <= 3; i++ {
		f.Lineage(stream.Lineage{Table: data.TableSessions, Rollovers: i})
	}
	f.Lineage(stream.Lineage{Table: data.TableEvents, Splits: 1})
	ticks <- time.Time{}
	m := f.Next()().(BatchMsg)
	got := fmt.Sprint(m.Lineage)
	if len(m.Lineage) != 2 || m.Lineage[0].Table != data.TableSessions || m.Lineage[0].Rollovers != 3 ||
		m.Lineage[1].Table != data.TableEvents || m.Lineage[1].Splits != 1 {
		t.Fatalf("lineage %s, want sessions with 3 rollovers then events with 1 split", got)
	}
	f.Lineage(stream.Lineage{Table: data.TableSessions, Rollovers: 4})
	ticks <- time.Time{}
	if m := f.Next()().(BatchMsg); len(m.Lineage) != 1 || m.Lineage[0].Rollovers != 4 {
		t.Fatalf("second batch lineage %v, want only the new sessions report", m.Lineage)
	}
}
