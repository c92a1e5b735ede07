package action

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"opsdeck/data"
)

func openTestAudit(t *testing.T) *AuditLog {
	t.Helper()
	l, err := OpenAuditLog(filepath.Join(t.TempDir(), "state", "opsdeck", "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestAuditLogRecordsEveryAttempt(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	log := openTestAudit(t)
	w.exec.Audit = log
	w.exec.Env = "staging"

	w.put(data.TableSessions, runningSession("sess_a1"))
	p := w.plan(ReleaseSession, sessionKey("sess_a1"), Options{Operator: Operator{User: "alice@box", Profile: "ops-admin"}})
	if r := w.exec.Execute(w.ctx, p); !r.OK || r.AuditErr != nil {
		t.Fatalf("release: %s / audit: %v", r.Message, r.AuditErr)
	}
	if r := w.exec.Execute(w.ctx, p); r.Refusal == nil || r.AuditErr != nil { // the same plan again: guard fails
		t.Fatalf("second release: %+v", r)
	}
	ro := *w.exec
	roConn := *w.conn
	roConn.ReadOnly = true
	ro.Conn = &roConn
	if r := ro.Execute(w.ctx, p); r.Err != data.ErrReadOnly || r.AuditErr != nil {
		t.Fatalf("read-only: %+v", r)
	}

	fi, err := os.Stat(log.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(filepath.Dir(log.Path()))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("audit dir mode %v, want 0700", di.Mode().Perm())
	}

	raw, _ := os.ReadFile(log.Path())
	all := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	// The release's second step (stop-ecs-task) has a line of its own,
	// after the write's; the write lines are checked here.
	var lines []string
	for i, line := range all {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v", i, err)
		}
		if m["step"] == nil {
			lines = append(lines, line)
		}
	}
	if len(all) != 4 || len(lines) != 3 {
		t.Fatalf("%d lines (%d of writes), want 4 (3):\n%s", len(all), len(lines), raw)
	}
	for i, line := range lines {
		var m map[string]any
		_ = json.Unmarshal([]byte(line), &m)
		for _, f := range []string{"time", "operator", "profile", "env", "endpoint", "table", "key", "action", "condition", "result"} {
			if v, ok := m[f]; !ok || v == "" || v == nil {
				t.Errorf("line %d lacks %q: %s", i, f, line)
			}
		}
	}

	entries := writeLines(t, log.Path())
	wantResults := []string{"ok", "guard failed: status is still RUNNING", "error: " + data.ErrReadOnly.Error()}
	for i, e := range entries {
		if e.Result != wantResults[i] {
			t.Errorf("entry %d result %q, want %q", i, e.Result, wantResults[i])
		}
		if e.Operator != "alice@box" || e.Profile != "ops-admin" || e.Env != "staging" || e.Endpoint != w.conn.Target() ||
			e.Table != w.tables.Name(data.TableSessions) || e.Action != ReleaseSession || e.Target != "sess_a1" ||
			e.Key["sessionId"] != "sess_a1" || !strings.Contains(e.Condition, "#status IN (") || e.Names["#status"] != "status" {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
	// The values logged are the ones sent (endedAt as of the write).
	if got := entries[0].Values[":now"]; got != w.now.UTC().Format("2006-01-02T15:04:05Z07:00") {
		t.Errorf(":now logged as %v", got)
	}

	// Tail: the last one only.
	last, _ := ReadAudit(log.Path(), 1)
	if len(last) != 1 || !strings.HasPrefix(last[0].Result, "error:") {
		t.Errorf("ReadAudit(1) = %+v", last)
	}
}

func TestReadAuditKeepsBadLinesVisible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	good, _ := json.Marshal(AuditEntry{Action: ReleaseSession, Result: "ok", Operator: "a@b"})
	content := string(good) + "\n" + "garbage \x1b[2J not json\n\n" + `{"time":"2026-01-01T00:00:00Z"}` + "\n" +
		`{"action":"retry-event","result":"ok"` /* truncated by a crash, no newline */
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAudit(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d entries, want 4 (blank line skipped): %+v", len(got), got)
	}
	if got[0].Problem != "" || got[0].Operator != "a@b" {
		t.Errorf("good line: %+v", got[0])
	}
	for _, i := range []int{1, 2, 3} {
		if got[i].Problem == "" || got[i].Raw == "" {
			t.Errorf("line %d should be reported with its raw text: %+v", i, got[i])
		}
	}
	if missing, err := ReadAudit(filepath.Join(t.TempDir(), "nope.log"), 10); err != nil || len(missing) != 0 {
		t.Errorf("missing file: %v %v", missing, err)
	}
}

func TestOpenAuditLogTightensPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestDefaultAuditPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/var/tmp/xdg")
	if p, _ := DefaultAuditPath(); p != "/var/tmp/xdg/opsdeck/audit.log" {
		t.Errorf("with XDG_STATE_HOME: %s", p)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"", "relative/dir"} { // relative values are ignored, per the XDG spec
		t.Setenv("XDG_STATE_HOME", v)
		if p, _ := DefaultAuditPath(); p != filepath.Join(home, ".local", "state", "opsdeck", "audit.log") {
			t.Errorf("XDG_STATE_HOME=%q: %s", v, p)
		}
	}
}
