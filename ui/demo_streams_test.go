package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// The demo creates its tables with exactly the documents' streams by
// default (wallcrawler-sessions NEW_AND_OLD_IMAGES, the events table
// NEW_IMAGE, no other) and with a stream on every table under
// `--demo-streams all`. In both, every pane's title must say what the
// table it shows really has — "live" where a stream is read, "polling
// every …" where none exists — and the status bar must count them, against
// tables created by the demo's own CreateTables in DynamoDB Local.
func TestEveryPaneSaysLiveOrPollingForTheDemosStreams(t *testing.T) {
	panes := []struct {
		key   string
		id    views.PaneID
		table data.TableID
	}{
		{"1", views.PaneSessions, data.TableSessions},
		{"2", views.PaneRuns, data.TableGraphRuns},
		{"3", views.PaneInbox, data.TableEvents},
		{"4", views.PaneDelegations, data.TableDelegations},
		{"5", views.PaneSandboxes, data.TableSandboxes},
	}
	for _, all := range []bool{false, true} {
		name := "documents"
		if all {
			name = "all"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			w := dbtest.New(t, dbtest.Options{Tag: "tds", StreamsOnAll: all})
			conn, tables := w.Conn, w.Tables
			streamed := 0
			for _, s := range data.Schemas() {
				if s.Stream != data.StreamNone || all {
					streamed++
				}
			}
			if !all && streamed != 2 {
				t.Fatalf("the documents give %d tables a stream; want 2 (wallcrawler-sessions, the events table)", streamed)
			}
			feed := livefeed.New(ctx, livefeed.Options{})
			t.Cleanup(feed.Close)
			go stream.New(conn, tables, stream.Options{}).Run(ctx, feed)
			frames := make(chan frame, 1)
			m := New(Options{
				Store: data.NewStore(conn, tables), Conn: displayConn(conn), Tables: tables, Env: "dev",
				Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
				Feed: feed, FallbackInterval: 5 * time.Second,
				// Every pane shows a scope (the panes without one show no
				// table, so no live state either).
				Scopes: Scopes{ProjectID: "proj_a", UserID: "12345", InboxUser: "user-1", Audience: "did:web:a",
					SandboxStatus: "available"},
			})
			tm := teatest.NewTestModel(t, probe{Model: m, frames: frames}, teatest.WithInitialTermSize(160, 30))
			t.Cleanup(func() { _ = tm.Quit() })

			for _, p := range panes {
				sc, _ := data.Schema(p.table)
				want := "polling every 5s"
				if all || sc.Stream != data.StreamNone {
					want = "live"
				}
				tm.Type(p.key)
				waitFor(t, frames, "pane "+p.key+" ("+string(p.table)+") to say "+want, func(f frame) bool {
					title := titleOf(f)
					if f.active != p.id || !title.contains(want) {
						return false
					}
					// "live" must not be a polling pane's "live (slow)"
					// or a stream-off fallback either.
					return want != "live" || !title.contains("polling")
				})
			}
			summary := "polling"
			waitFor(t, frames, "the status bar to count the polled tables", func(f frame) bool {
				scr := stripANSI(f.screen)
				if all {
					return strings.Contains(scr, "tail ") && !strings.Contains(scr, summary)
				}
				return strings.Contains(scr, "8 polling")
			})
		})
	}
}
