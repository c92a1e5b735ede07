package streamview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// bigInsert is a sessions INSERT whose image carries n bytes.
func bigInsert(id string, n int) stream.Record {
	return session("INSERT", id, nil, img("sessionId", id, "status", "RUNNING", "blob", strings.Repeat("x", n)), 0)
}

// TestBufferBoundByBytes: records of 800 KB (the largest item, both images)
// must not be kept 10,000 at a time. The buffer keeps what fits its byte
// budget, newest first, counts what it dropped, and says so.
func TestBufferBoundByBytes(t *testing.T) {
	const budget = 10 << 20
	m := New(Options{Theme: themes.Theme{}, Keys: keymap.Default(), Location: time.UTC, BufferBytes: budget})
	m.SetSize(120, 20)
	for i := 0; i < 100; i++ {
		m.Append([]stream.Record{bigInsert(fmt.Sprintf("s-%03d", i), 800_000)})
	}
	if m.Bytes() > budget {
		t.Fatalf("buffer holds %d bytes, over its %d budget", m.Bytes(), budget)
	}
	if m.Len() < 10 || m.Len() > 13 {
		t.Fatalf("buffer holds %d records of 800 KB within 10 MB, want 10–13", m.Len())
	}
	if m.Len()+m.Dropped() != 100 {
		t.Fatalf("held %d + dropped %d != 100 appended", m.Len(), m.Dropped())
	}
	if want := fmt.Sprintf("%d dropped", m.Dropped()); !strings.Contains(infoLine(m), want) {
		t.Errorf("info line %q does not say %q", infoLine(m), want)
	}
	press(m, "g")
	if r, _ := m.Selected(); keyText(r) != fmt.Sprintf("s-%03d", 100-m.Len()) {
		t.Errorf("oldest kept is %s: the newest must be the ones kept", keyText(r))
	}
	// One record over the whole budget is still shown (alone).
	m.Append([]stream.Record{bigInsert("huge", budget+1)})
	if m.Len() != 1 {
		t.Errorf("a record over the budget: %d held, want it alone", m.Len())
	}
	// Small records fill the room again.
	for i := 0; i < 50; i++ {
		m.Append([]stream.Record{insert(fmt.Sprintf("t-%d", i), "RUNNING", i)})
	}
	if m.Len() != 50 {
		t.Errorf("after small records: %d held, want 50", m.Len())
	}
}

// TestCountFollowsTheNarrowing: `:stream sessions` must count the
// sessions records, not every record held.
func TestCountFollowsTheNarrowing(t *testing.T) {
	m := newModel(0)
	ev := func(i int) stream.Record {
		k := fmt.Sprintf("t#e%d", i)
		return stream.Record{Table: data.TableEvents, EventName: "INSERT", Keys: img("user_id", "u1", "timestamp#event_id", k),
			New: img("user_id", "u1", "timestamp#event_id", k, "status", "pending"), ApproxTime: t0}
	}
	var recs []stream.Record
	for i := 0; i < 308; i++ {
		recs = append(recs, ev(i))
	}
	recs = append(recs, insert("s-1", "RUNNING", 1))
	m.Append(recs)
	if !strings.Contains(infoLine(m), "309 records") {
		t.Errorf("all tables: info %q, want 309 records", infoLine(m))
	}
	m.SetTable(data.TableSessions)
	if info := infoLine(m); !strings.Contains(info, "sessions · 1 record") {
		t.Errorf("narrowed to sessions: info %q, want \"sessions · 1 record\"", info)
	}
	m.SetTable(data.TableEvents)
	if info := infoLine(m); !strings.Contains(info, "308 records") {
		t.Errorf("narrowed to events: info %q, want 308 records", info)
	}
}
