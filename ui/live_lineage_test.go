package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/uitest"
)

// TestLineageInHealthLine: rollovers and splits reported by the reader
// show in the status bar of a service pane (a running total) and in the
// Stream pane's health line with the latest one's time and table, and a
// later report replaces the counts rather than adding to them.
func TestLineageInHealthLine(t *testing.T) {
	m := New(Options{Now: func() time.Time { return fixedNow }, Location: time.UTC, Timer: uitest.Timer})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	m = nm.(Model)
	at := time.Date(2026, 11, 23, 14, 5, 9, 0, time.UTC)
	batch := livefeed.BatchMsg{
		Health: []stream.Health{{Table: data.TableSessions, State: stream.StateLive}, {Table: data.TableEvents, State: stream.StateLive}},
		Lineage: []stream.Lineage{
			{Table: data.TableSessions, Rollovers: 2, Last: at.Add(-time.Minute), Open: 1},
			{Table: data.TableEvents, Rollovers: 1, Splits: 1, Last: at, Open: 2},
		},
	}
	nm, _ = m.Update(batch)
	m = nm.(Model)
	status := func(m Model) string {
		lines := strings.Split(stripANSI(m.Render()), "\n")
		return lines[len(lines)-2]
	}
	if got := status(m); !strings.Contains(got, "2 live rolled 3 split 1") {
		t.Errorf("service pane status bar %q, want the tail's totals %q", got, "2 live rolled 3 split 1")
	}
	m, _ = press(t, m, "6")
	if got := status(m); !strings.Contains(got, "rolled 3 split 1, last 14:05:09 events") {
		t.Errorf("Stream pane status bar %q, want %q", got, "rolled 3 split 1, last 14:05:09 events")
	}
	nm, _ = m.Update(livefeed.BatchMsg{Lineage: []stream.Lineage{{Table: data.TableSessions, Rollovers: 3, Last: at.Add(time.Minute)}}})
	m = nm.(Model)
	if got := status(m); !strings.Contains(got, "rolled 4 split 1, last 14:06:09 sessions") {
		t.Errorf("after a third sessions rollover, Stream pane status bar %q, want %q", got, "rolled 4 split 1, last 14:06:09 sessions")
	}
	// Narrowed to one table, the pane counts that table's.
	m, _ = runLine(t, m, "stream events")
	if got := status(m); !strings.Contains(got, "rolled 1 split 1, last 14:05:09 ·") {
		t.Errorf("Stream pane narrowed to events: status bar %q, want %q", got, "rolled 1 split 1, last 14:05:09 ·")
	}
}
