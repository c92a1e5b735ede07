package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/ui/history"
	"opsdeck/ui/session"
)

// TestHistorySurvivesARestart: commands run in one console are recalled
// with ↑ in the next; a line with a credential or a control sequence ran
// (and is recalled in the session that typed it) but never reached the file.
func TestHistorySurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "opsdeck", "history")
	f, lines, err := history.Open(path)
	if err != nil || len(lines) != 0 {
		t.Fatal(lines, err)
	}
	m := bare(t, Options{Env: "dev", History: f, HistoryLines: lines})
	// Commands that read nothing (this console has no database).
	secretLine := "env token=s3cr3tvalue123"
	for _, l := range []string{"stream graph-runs", "stream sessions", secretLine, "stream \x1b[2Jx"} {
		m, _ = runLine(t, m, l)
	}
	m, _ = press(t, m, ":", "up")
	if m.input.Value() != "stream \x1b[2Jx" {
		t.Fatalf("this session's last line: %q", m.input.Value())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "stream graph-runs\nstream sessions\n" {
		t.Fatalf("history file holds %q", b)
	}

	// The restart.
	f2, lines2, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m2 := bare(t, Options{Env: "dev", History: f2, HistoryLines: lines2})
	m2, _ = press(t, m2, ":", "up")
	if m2.input.Value() != "stream sessions" {
		t.Fatalf("↑ after restart gives %q", m2.input.Value())
	}
	m2, _ = press(t, m2, "up")
	if m2.input.Value() != "stream graph-runs" {
		t.Fatalf("↑↑ after restart gives %q", m2.input.Value())
	}
}

// A history file that cannot be used is said at start; the console runs
// with this session's history.
func TestUnusableHistoryIsSaidAndTheConsoleStarts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history")
	os.Symlink(filepath.Join(dir, "elsewhere"), path)
	f, lines, err := history.Open(path)
	if err == nil || f != nil {
		t.Fatal("a symlink was accepted")
	}
	m := bare(t, Options{Env: "dev", History: f, HistoryLines: lines, HistoryErr: err})
	if !strings.Contains(m.Flash(), "symbolic link") || !strings.Contains(stripANSI(m.Render()), "symbolic link") {
		t.Fatalf("the problem is not on screen: %q", m.Flash())
	}
	m, _ = runLine(t, m, "stream events")
	m, _ = press(t, m, ":", "up")
	if m.input.Value() != "stream events" {
		t.Fatalf("session history: %q", m.input.Value())
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Fatal("the link's target was created")
	}
}

// A write that fails is said once, then the file is left alone.
func TestHistoryWriteFailureIsSaidOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "opsdeck", "history")
	f, _, _ := history.Open(path)
	m := bare(t, Options{Env: "dev", History: f})
	// The directory becomes a file: every later write fails.
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.RemoveAll(filepath.Dir(path))
	os.WriteFile(filepath.Dir(path), nil, 0o600)
	m, _ = runLine(t, m, "stream events")
	if !strings.Contains(m.Flash(), "history kept for this session only") {
		t.Fatalf("flash %q", m.Flash())
	}
	m, _ = runLine(t, m, "stream")
	if strings.Contains(m.Flash(), "history") {
		t.Fatalf("said again: %q", m.Flash())
	}
}

// Completion offers ids the console has read in any pane (a user whose
// runs were listed, a track of sandboxes seen), for commands of another
// pane too; an id that carries a token is never offered.
func TestCompletionOffersSeenIDsButNoToken(t *testing.T) {
	w := newActWorld(t)
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	w.session("sess-seen-1", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.session(jwt, "RUNNING", "READY", fixedNow.Add(-2*time.Hour))
	w.sandbox("sb-seen", time.Hour)
	ctx := context.Background()
	places := &testPlaces{life: ctx, places: map[string]testPlace{"dev": {endpoint: ddblocal.TestEndpoint(t), tables: w.tables, noTail: true}}}
	defer places.closeAll()
	s, err := places.Open(ctx, session.Target{Env: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	o := w.options()
	o.Session = s
	m := start(t, o, 120, 40) // Sessions of the tenant's project: both sessions read
	m, _ = press(t, m, "5")   // Sandboxes of the tenant's track
	if m.slotOf(m.Active()).Status().Rows != 1 {
		t.Fatal("the sandbox was not listed")
	}
	m, _ = press(t, m, "1")

	got := complete("session sess-seen", m.completionIDs, m.completionOptIDs)
	if len(got) != 1 || got[0] != "session sess-seen-1" {
		t.Fatalf(":session completion %q", got)
	}
	if got := complete("session eyJ", m.completionIDs, m.completionOptIDs); len(got) != 0 {
		t.Fatalf("a token id was offered: %q", got)
	}
	for _, c := range complete("session ", m.completionIDs, m.completionOptIDs) {
		if strings.Contains(c, "eyJ") {
			t.Fatalf("a token id was offered: %q", c)
		}
	}
	// From the Sessions pane, the sandboxes' track (seen in pane 5) and
	// the project (seen here) complete.
	got = complete("sandboxes track="+w.tenant[:4], m.completionIDs, m.completionOptIDs)
	if len(got) != 1 || got[0] != "sandboxes track="+w.tenant {
		t.Fatalf("track completion %q", got)
	}
	got = complete("sandboxes key="+w.tenant[:4], m.completionIDs, m.completionOptIDs)
	if len(got) != 1 || got[0] != "sandboxes key="+w.tenant+"sb-seen" {
		t.Fatalf("key completion %q", got)
	}
	got = complete("consumers "+w.tenant[:4], m.completionIDs, m.completionOptIDs)
	if len(got) != 0 {
		t.Fatalf(":consumers offers an id never seen as a consumer: %q", got)
	}
	got = complete("sessions "+w.tenant[:4], m.completionIDs, m.completionOptIDs)
	if len(got) != 1 || got[0] != "sessions "+w.tenant {
		t.Fatalf("project completion %q", got)
	}
}

// `:apikey` takes a raw API key in place of its hash: neither ↑ nor the
// history file ever gives the key back, only the hash it was looked up by.
func TestHistoryKeepsAnAPIKeysHashNotTheKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	f, _, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := bare(t, Options{Env: "dev", History: f})
	const raw = "ak_live_Zq81pLmN04rT"
	if cmd := m.remember("apikey " + raw); cmd != nil {
		cmd()
	}
	hash, _ := data.APIKeyLookup(raw)
	want := "apikey " + hash.PKValue
	if got := m.history[len(m.history)-1]; got != want {
		t.Fatalf("history keeps %q, want %q", got, want)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), raw) || string(b) != want+"\n" {
		t.Fatalf("history file holds %q", b)
	}
	// A hash typed as such is kept as typed.
	if got := historyForm(want); got != want {
		t.Fatalf("historyForm(%q) = %q", want, got)
	}
}
