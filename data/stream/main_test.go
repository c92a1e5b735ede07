package stream

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }

// testTables creates the given tables (from data.Schemas(), with the seed's
// stream settings) under a prefix no other test uses, and deletes them when
// the test ends.
func testTables(t testing.TB, conn *data.Conn, ids ...data.TableID) data.Tables {
	t.Helper()
	tables := dbtest.Tables(t, "dev", "t")
	dbtest.Create(t, conn, tables, false, ids...)
	return tables
}

// testConn connects to endpoint ("": the shared test server) with o.
func testConn(t testing.TB, endpoint string, o data.ConnOptions) *data.Conn {
	t.Helper()
	o.Endpoint = endpoint
	return dbtest.Connect(t, o)
}

// collectSink records everything and pokes waiters.
type collectSink struct {
	mu      sync.Mutex
	recs    []Record
	health  []Health
	changed chan struct{}
	onRecs  func([]Record)
	lineage map[data.TableID]Lineage
}

func newCollectSink() *collectSink { return &collectSink{changed: make(chan struct{}, 1)} }

func (c *collectSink) poke() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *collectSink) Records(rs []Record) {
	c.mu.Lock()
	c.recs = append(c.recs, rs...)
	f := c.onRecs
	c.mu.Unlock()
	if f != nil {
		f(rs)
	}
	c.poke()
}

func (c *collectSink) Lineage(l Lineage) {
	c.mu.Lock()
	if c.lineage == nil {
		c.lineage = map[data.TableID]Lineage{}
	}
	c.lineage[l.Table] = l
	c.mu.Unlock()
	c.poke()
}

func (c *collectSink) Health(h Health) {
	c.mu.Lock()
	c.health = append(c.health, h)
	c.mu.Unlock()
	c.poke()
}

// waitFor waits until cond (called under the sink's lock) holds, or fails
// the test after timeout with what it was waiting for.
func (c *collectSink) waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		ok := cond()
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-c.changed:
		case <-deadline.C:
			c.mu.Lock()
			defer c.mu.Unlock()
			t.Fatalf("timed out after %v waiting for %s; health so far: %s; %d records", timeout, what, healthString(c.health), len(c.recs))
		}
	}
}

// lastState is the latest health state of a table ("" if none yet). Call
// under the lock (from a waitFor condition).
func (c *collectSink) lastState(id data.TableID) State {
	for i := len(c.health) - 1; i >= 0; i-- {
		if c.health[i].Table == id {
			return c.health[i].State
		}
	}
	return ""
}

func (c *collectSink) sawState(id data.TableID, s State, from int) bool {
	for _, h := range c.health[from:] {
		if h.Table == id && h.State == s {
			return true
		}
	}
	return false
}

func (c *collectSink) snapshot() ([]Record, []Health) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Record(nil), c.recs...), append([]Health(nil), c.health...)
}

func healthString(hs []Health) string {
	var b strings.Builder
	if len(hs) > 30 {
		fmt.Fprintf(&b, "(%d earlier) ", len(hs)-30)
		hs = hs[len(hs)-30:]
	}
	for _, h := range hs {
		fmt.Fprintf(&b, "[%s %s %q] ", h.Table, h.State, h.Detail)
	}
	return b.String()
}

// startTailer runs a Tailer until the test ends.
func startTailer(t testing.TB, conn *data.Conn, tables data.Tables, opts Options, sink Sink) *Tailer {
	t.Helper()
	if opts.Logf == nil {
		opts.Logf = func(f string, a ...any) {
			if testing.Verbose() {
				t.Logf(f, a...)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	tl := New(conn, tables, opts)
	go func() { done <- tl.Run(ctx, sink) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("Run did not return within 30s of cancel")
		}
	})
	return tl
}
