package ui

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/views"
)

// TestPollingFallbackWithSeedStreams runs the whole live tail — the real
// stream reader, the feed and the program — against tables created with
// exactly the seeds' stream settings, where the sandbox pool has no stream.
// The Sandboxes pane must say it is polling, and a write to the table must
// appear in it (and a row that left the scope disappear) through polling
// alone, without the list being reloaded from scratch.
func TestPollingFallbackWithSeedStreams(t *testing.T) {
	if sc, _ := data.Schema(data.TableSandboxes); sc.Stream != data.StreamNone {
		t.Fatalf("the seed gives sandboxes a stream (%s); this test needs a table without one", sc.Stream)
	}
	r := newPollRig(t, "pl")
	put := func(id, name, status string) {
		t.Helper()
		it := sandbox(id, name, status)
		it["deletion_retry_count"] = n("0")
		r.putSandbox(t, it)
	}
	put("poll-a", "poll-sbx-a", "available")
	put("poll-b", "poll-sbx-b", "available")
	tm, frames := r.start(t, 100*time.Millisecond)
	tm.Type("5")
	waitFor(t, frames, "the Sandboxes pane to list both sandboxes, say polling, and the status bar to count the states", func(f frame) bool {
		return f.active == views.PaneSandboxes && f.status.Rows == 2 && titleOf(f).contains("polling every") &&
			strings.Contains(stripANSI(f.screen), "tail 1 live 1 polling")
	})

	// A new sandbox in scope and one that leaves it: no stream record will
	// ever say so, only polling can find out.
	put("poll-c", "poll-sbx-c", "available")
	put("poll-a", "poll-sbx-a", "allocated")
	waitFor(t, frames, "polling to add poll-sbx-c and drop poll-sbx-a", func(f frame) bool {
		scr := stripANSI(f.screen)
		return f.status.Rows == 2 && strings.Contains(scr, "poll-sbx-c") &&
			strings.Contains(scr, "poll-sbx-b") && !strings.Contains(scr, "poll-sbx-a")
	})
}

type line string

func (l line) contains(s string) bool { return strings.Contains(string(l), s) }

// titleOf is the frame's pane-title line.
func titleOf(f frame) line {
	ls := strings.SplitN(stripANSI(f.screen), "\n", 3)
	if len(ls) < 2 {
		return ""
	}
	return line(ls[1])
}
