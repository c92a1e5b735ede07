package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// Inserts, modifies and removes on a NEW_AND_OLD_IMAGES table (sessions) and
// a NEW_IMAGE table (events) reach the pane once each, in per-key order,
// with the images the view type allows, and the pane shows them as such.
func TestWritesReachThePaneOnceInOrder(t *testing.T) {
	r := newRig(t, data.TableSessions, data.TableEvents)
	r.waitLive(t, data.TableSessions, data.TableEvents)

	const sessions, events = 40, 15
	want := map[string][]string{} // key → event names in order
	for i := 0; i < sessions; i++ {
		id := fmt.Sprintf("sess-%03d", i)
		key := data.Item{"sessionId": s(id)}
		r.put(t, data.TableSessions, data.Item{"sessionId": s(id), "status": s("RUNNING"), "projectId": s("proj-1")})
		r.setStatus(t, data.TableSessions, key, "COMPLETED")
		want["sessions/"+id] = []string{"INSERT", "MODIFY"}
		if i%2 == 0 {
			r.del(t, data.TableSessions, key)
			want["sessions/"+id] = append(want["sessions/"+id], "REMOVE")
		}
	}
	for i := 0; i < events; i++ {
		sk := fmt.Sprintf("2026-11-21T12:00:%02dZ#evt-%d", i, i)
		key := data.Item{"user_id": s("user-1"), "timestamp#event_id": s(sk)}
		r.put(t, data.TableEvents, data.Item{"user_id": s("user-1"), "timestamp#event_id": s(sk), "status": s("pending"), "event_type": s("order.created")})
		r.setStatus(t, data.TableEvents, key, "delivered")
		want["events/user-1/"+sk] = []string{"INSERT", "MODIFY"}
	}
	total := 0
	for _, evs := range want {
		total += len(evs)
	}
	r.until(t, 60*time.Second, fmt.Sprintf("%d records", total), func() bool { return len(r.seen) >= total })

	got := map[string][]string{}
	for _, rec := range r.seen {
		k := keyString(rec)
		got[k] = append(got[k], rec.EventName)
		switch {
		case rec.Table == data.TableSessions && rec.EventName == "MODIFY":
			if rec.Old == nil || rec.New == nil {
				t.Fatalf("%s MODIFY without both images", k)
			}
		case rec.Table == data.TableEvents && rec.Old != nil:
			t.Fatalf("%s: NEW_IMAGE stream delivered an old image", k)
		}
	}
	if len(r.seen) != total || r.pane.Len() != total || r.pane.Dropped() != 0 {
		t.Fatalf("pane got %d records (holds %d, dropped %d), want %d", len(r.seen), r.pane.Len(), r.pane.Dropped(), total)
	}
	for k, evs := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(evs) {
			t.Errorf("%s: events %v, want %v", k, got[k], evs)
		}
	}

	// What the operator sees for one key: its three records, the change spelled out.
	r.pane.SetFilter("sess-004")
	view := r.pane.View()
	for _, wantText := range []string{"INSERT", "status: RUNNING → COMPLETED", "REMOVE", "was status=COMPLETED"} {
		if !strings.Contains(view, wantText) {
			t.Errorf("filtered view lacks %q:\n%s", wantText, view)
		}
	}
	if h := r.health[data.TableEvents]; h.State != stream.StateLive {
		t.Errorf("events health %q", h.State)
	}
}
