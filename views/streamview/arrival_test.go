package streamview

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/internal/termcells"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// TestRowsInArrivalOrderWithTheirArrivalTime: records of several tables
// come through different shards, each stamped by DynamoDB Streams with
// its creation time rounded to the minute, so a later batch can carry an
// earlier minute. The list keeps them in the order they arrived, newest
// at the bottom, and says when each arrived — read from a terminal
// emulator, the ARRIVED column never goes back in time from top to bottom
// and shows no fake whole-minute times; the comparison gives the record's
// own time as a minute.
func TestRowsInArrivalOrderWithTheirArrivalTime(t *testing.T) {
	arrivals := []time.Time{
		t0.Add(4*time.Minute + 3*time.Second),
		t0.Add(4*time.Minute + 9*time.Second),
		t0.Add(4*time.Minute + 17*time.Second),
	}
	n := 0
	clock := func() time.Time { n++; return arrivals[n-1] }
	m := New(Options{Theme: themes.Dark(), Keys: keymap.Default(), Location: time.UTC, Summary: testSummary, Now: clock})
	m.SetSize(100, 12)
	minute := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	// Sessions' shard is read first, in the minute 12:04; the sandboxes
	// shard answers later with records of 12:03 and 12:04; events last.
	s1 := insert("sess-1", "RUNNING", 0)
	s1.ApproxTime = minute(4)
	sb := stream.Record{Table: data.TableSandboxes, EventName: "MODIFY", ApproxTime: minute(3),
		Keys: img("PK", "SBX#1", "SK", "META"), Old: img("PK", "SBX#1", "SK", "META", "status", "available"),
		New: img("PK", "SBX#1", "SK", "META", "status", "allocated")}
	ev := stream.Record{Table: data.TableEvents, EventName: "INSERT", ApproxTime: minute(3),
		Keys: img("user_id", "u-1", "timestamp#event_id", "t#1"), New: img("user_id", "u-1", "timestamp#event_id", "t#1")}
	m.Append([]stream.Record{s1})
	m.Append([]stream.Record{sb})
	m.Append([]stream.Record{ev})

	scr := termcells.Draw(m.View(), 100, 12)
	header := scr.Line(1)
	x := strings.Index(header, "ARRIVED")
	if x < 0 {
		t.Fatalf("no ARRIVED column:\n%s", scr)
	}
	want := []struct{ table, at string }{{"sessions", "12:04:03"}, {"sandboxes", "12:04:09"}, {"events", "12:04:17"}}
	for i, w := range want {
		line := scr.Line(2 + i)
		if !strings.Contains(line, w.table) || strings.TrimSpace(scr.Span(2+i, x, x+8)) != w.at {
			t.Fatalf("row %d reads %q, want %s arrived at %s (arrival order):\n%s", i, line, w.table, w.at, scr)
		}
	}
	if strings.Contains(scr.String(), "12:03:00") || strings.Contains(scr.String(), "12:04:00") {
		t.Fatalf("a minute-rounded stream time shown as exact:\n%s", scr)
	}

	press(m, "k", "enter") // the sandboxes record's comparison
	title := termcells.Draw(m.View(), 100, 12).Line(0)
	for _, part := range []string{"arrived 12:04:09", "created in the minute 12:03"} {
		if !strings.Contains(title, part) {
			t.Fatalf("comparison title %q lacks %q", title, part)
		}
	}
}
