package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// goldenBatch is a fixed set of records of every kind, with a hostile key
// (a screen-clearing escape sequence) and every health state.
func goldenBatch() livefeed.BatchMsg {
	at := func(sec int) time.Time { return fixedNow.Add(time.Duration(sec) * time.Second) }
	sess := func(status, internal string) data.Item {
		return data.Item{
			"sessionId": s("sess_golden01"), "projectId": s("proj_golden"), "status": s(status),
			"internalStatus": s(internal), "createdAt": s("2026-11-21T11:58:00Z"), "region": s("us-east-1"),
		}
	}
	ev := data.Item{"user_id": s("user-1"), "timestamp#event_id": s("2026-11-21T12:00:03Z#ev-1"),
		"event_type": s("payment.failed"), "status": s("received"), "retry_count": n("0")}
	hostile := data.Item{"user_id": s("user-\x1b[2J-x"), "timestamp#event_id": s("2026-11-21T12:00:04Z#ev-2"),
		"event_type": s("order\x1b]0;pwned\x07.created"), "status": s("received")}
	sbx := data.Item{"PK": s("SBX#golden-sbx"), "SK": s("META"), "sandbox_id": s("golden-sbx"),
		"name": s("lab-sbx-999"), "status": s("pending_deletion")}
	keys := func(it data.Item, names ...string) data.Item {
		out := data.Item{}
		for _, k := range names {
			out[k] = it[k]
		}
		return out
	}
	return livefeed.BatchMsg{
		Records: []stream.Record{
			{Table: data.TableSessions, EventName: "INSERT", Keys: keys(sess("RUNNING", "CREATING"), "sessionId"), New: sess("RUNNING", "CREATING"), ApproxTime: at(1)},
			{Table: data.TableSessions, EventName: "MODIFY", Keys: keys(sess("RUNNING", "CREATING"), "sessionId"), Old: sess("RUNNING", "CREATING"), New: sess("COMPLETED", "STOPPED"), ApproxTime: at(2)},
			{Table: data.TableEvents, EventName: "INSERT", Keys: keys(ev, "user_id", "timestamp#event_id"), New: ev, ApproxTime: at(3)},
			{Table: data.TableEvents, EventName: "INSERT", Keys: keys(hostile, "user_id", "timestamp#event_id"), New: hostile, ApproxTime: at(4)},
			{Table: data.TableSandboxes, EventName: "REMOVE", Keys: keys(sbx, "PK", "SK"), Old: sbx, TTL: true, ApproxTime: at(5)},
		},
		Health: []stream.Health{
			{Table: data.TableSessions, State: stream.StateLive},
			{Table: data.TableGraphRuns, State: stream.StateReconnecting, Detail: "throttled"},
			{Table: data.TableEvents, State: stream.StateLive},
			{Table: data.TableSandboxes, State: stream.StatePolling},
		},
	}
}

// TestGoldenStreamPaneLive renders the Stream pane inside the console, fed
// a batch through the real program (teatest), at 120×40 and 80×24 with a
// fixed clock and time zone.
func TestGoldenStreamPaneLive(t *testing.T) {
	w := seeded(t)
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			frames := make(chan frame, 1)
			o := w.options()
			o.Location = time.UTC
			m := New(o)
			tm := teatest.NewTestModel(t, probe{Model: m, frames: frames}, teatest.WithInitialTermSize(size[0], size[1]))
			tm.Send(goldenBatch())
			tm.Type("6")
			waitFor(t, frames, "the Stream pane with the batch", func(f frame) bool {
				return f.active == views.PaneStream && f.status.Rows == 5
			})
			if err := tm.Quit(); err != nil {
				t.Fatal(err)
			}
			final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe).Model
			out := screen(final, w.prefix)
			checkFrame(t, out, size[0], size[1])
			if strings.Contains(final.Render(), "\x1b[2J") || strings.Contains(final.Render(), "\x1b]0;") {
				t.Fatal("a record's value reached the terminal as an escape sequence")
			}
			for _, want := range []string{"sess_golden01", "COMPLETED", "graph-runs reconnecting"} {
				if !strings.Contains(out, want) {
					t.Errorf("frame lacks %q", want)
				}
			}
			golden.RequireEqual(t, out)
		})
	}
}
