package streamview

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsdeck/data"
	"opsdeck/data/stream"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// demoRecords is a small, realistic mix: every event kind, three tables with
// streams of different view types, a TTL expiry, nested changes.
func demoRecords() []stream.Record {
	var recs []stream.Record
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("sess-%04d", i)
		recs = append(recs, insert(id, "RUNNING", i))
		if i%3 == 0 {
			recs = append(recs, session("MODIFY", id,
				img("sessionId", id, "status", "RUNNING", "updatedAt", "2026-11-21T12:00:00Z", "proxyBytes", avN("1024")),
				img("sessionId", id, "status", "COMPLETED", "updatedAt", "2026-11-21T12:04:10Z", "proxyBytes", avN("88213")),
				i+1))
		}
	}
	ttl := session("REMOVE", "sess-0002", img("sessionId", "sess-0002", "status", "RUNNING", "projectId", "proj-1", "expiresAt", avN("1763726400")), nil, 20)
	ttl.TTL = true
	recs = append(recs, ttl)
	recs = append(recs, stream.Record{Table: data.TableEvents, EventName: "INSERT", ApproxTime: t0.Add(21e9),
		Keys: img("user_id", "user-42", "timestamp#event_id", "2026-11-21T12:00:21Z#evt-9"),
		New: img("user_id", "user-42", "timestamp#event_id", "2026-11-21T12:00:21Z#evt-9", "event_type", "order.created",
			"status", "pending", "payload", avM("order", avM("id", "o-1", "total", avN("12.5"))))})
	recs = append(recs, stream.Record{Table: data.TableEvents, EventName: "MODIFY", ApproxTime: t0.Add(22e9),
		Keys: img("user_id", "user-42", "timestamp#event_id", "2026-11-21T12:00:21Z#evt-9"),
		New:  img("user_id", "user-42", "timestamp#event_id", "2026-11-21T12:00:21Z#evt-9", "event_type", "order.created", "status", "delivered")})
	recs = append(recs, stream.Record{Table: data.TableSandboxes, EventName: "MODIFY", ApproxTime: t0.Add(23e9),
		Keys: img("PK", "SBX#abc123", "SK", "META"),
		Old:  img("PK", "SBX#abc123", "SK", "META", "status", "available", "allocated_at", avN("0")),
		New:  img("PK", "SBX#abc123", "SK", "META", "status", "allocated", "allocated_at", avN("1759567084"), "allocated_to_track", "track-123")})
	recs = append(recs, stream.Record{Table: data.TableSubscriptions, EventName: "REMOVE", ApproxTime: t0.Add(24e9),
		Keys: img("subscription", "sub-7", "provider", "did:web:web3.storage"),
		Old:  img("subscription", "sub-7", "provider", "did:web:web3.storage", "customer", "did:mailto:example.com:ops")})
	return recs
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs from the golden file (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := newModel(0)
			m.SetSize(w, h)
			m.Append(demoRecords())
			checkGolden(t, fmt.Sprintf("list_%dx%d", w, h), m.View())

			press(m, "space")
			m.Append(demoRecords()[:5])
			press(m, "k", "k")
			checkGolden(t, fmt.Sprintf("paused_%dx%d", w, h), m.View())

			press(m, "space", "G")
			for i := 0; i < 6; i++ {
				press(m, "k")
			}
			press(m, "enter") // the sandbox MODIFY... whichever is 6 above the bottom
			if !m.InDiff() {
				t.Fatal("enter did not open the comparison")
			}
			checkGolden(t, fmt.Sprintf("diff_%dx%d", w, h), m.View())
		})
	}
}

// Lines of a golden view are exactly the pane size.
func TestGoldenShape(t *testing.T) {
	m := newModel(0)
	m.Append(demoRecords())
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m.SetSize(size[0], size[1])
		for _, v := range []string{m.View()} {
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Fatalf("%d lines, want %d", len(lines), size[1])
			}
			for _, l := range lines {
				if displayWidth(l) != size[0] {
					t.Fatalf("width %d, want %d: %q", displayWidth(l), size[0], l)
				}
			}
		}
	}
}
