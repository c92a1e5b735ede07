package action

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// Audit lines are read with tail and less: no character in them may reorder
// the line, break it, or reach the terminal as a control. Values are kept
// exactly (JSON \u escapes decode back to the same text).
func TestAuditLinesCarryNoRawBidiOrSeparators(t *testing.T) {
	l := openTestAudit(t)
	hostile := "sess_\u202eevil\u2066x\u2069 \u2028next\u2029 \u200bzw \u0085nel \u009bcsi \x7fdel \U000E0041tag \x1b[2J"
	if err := l.Append(AuditEntry{Time: time.Now(), Operator: "a@b", Action: ReleaseSession, Target: hostile,
		Key: map[string]any{"sessionId": hostile}, Result: "ok", Message: "released " + hostile}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSuffix(string(raw), "\n")
	if strings.Count(string(raw), "\n") != 1 {
		t.Fatalf("not one line: %q", raw)
	}
	for _, r := range line {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0x202e || r == 0x2066 || r == 0x2069 || r == 0x200b || r == 0xE0041 {
			t.Errorf("raw %U in the audit line %q", r, line)
		}
	}
	for _, esc := range []string{`\u202e`, `\u2028`, `\u0085`, `\u007f`, `\udb40\udc41`} {
		if !strings.Contains(line, esc) {
			t.Errorf("%s missing from %q", esc, line)
		}
	}
	entries, err := ReadAudit(l.Path(), 0)
	if err != nil || len(entries) != 1 || entries[0].Target != hostile || entries[0].Key["sessionId"] != hostile {
		t.Errorf("the value did not come back unchanged: %+v %v", entries, err)
	}
}

// The log is evidence: it is not written through a symbolic link or into
// a FIFO or a hard link planted in its place, and its directory is 0700.
func TestAuditLogRefusesToBeRedirected(t *testing.T) {
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// A symbolic link where the file goes.
	dir := filepath.Join(base, "state", "opsdeck")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "audit.log")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAuditLog(filepath.Join(dir, "audit.log")); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("symlinked file: %v", err)
	}

	// A symbolic link where the directory goes.
	real := filepath.Join(base, "elsewhere")
	if err := os.MkdirAll(real, 0o700); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(base, "state2", "opsdeck")
	_ = os.MkdirAll(filepath.Dir(linked), 0o700)
	if err := os.Symlink(real, linked); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAuditLog(filepath.Join(linked, "audit.log")); err == nil || !strings.Contains(err.Error(), "directory") || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlinked directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(real, "audit.log")); err == nil {
		t.Errorf("the log was created through the directory link")
	}

	// A FIFO: opening it for writing must not block, and it is refused.
	fifoDir := filepath.Join(base, "state3", "opsdeck")
	_ = os.MkdirAll(fifoDir, 0o700)
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "audit.log"), 0o600); err == nil {
		done := make(chan error, 1)
		go func() { _, err := OpenAuditLog(filepath.Join(fifoDir, "audit.log")); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("fifo: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("opening a FIFO as the audit log blocked")
		}
		// Reading it (:audit) must not wait for a writer either.
		go func() { _, err := ReadAudit(filepath.Join(fifoDir, "audit.log"), 10); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("reading a fifo: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("reading a FIFO as the audit log blocked")
		}
	}

	// A hard link to another file.
	hardDir := filepath.Join(base, "state4", "opsdeck")
	_ = os.MkdirAll(hardDir, 0o700)
	if err := os.Link(victim, filepath.Join(hardDir, "audit.log")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAuditLog(filepath.Join(hardDir, "audit.log")); err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("hard link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the victim file was written: %q", b)
	}

	// An existing directory open to others is tightened to 0700.
	loose := filepath.Join(base, "state5", "opsdeck")
	if err := os.MkdirAll(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(loose, 0o755)
	l, err := OpenAuditLog(filepath.Join(loose, "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if fi, _ := os.Stat(loose); fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", fi.Mode().Perm())
	}
}

// A password in the endpoint URL never reaches the audit log.
func TestAuditLogNamesTheEndpointWithoutItsPassword(t *testing.T) {
	w := newWorld(t, data.TableSessions)
	w.put(data.TableSessions, runningSession("sess_pw"))
	ep := strings.Replace(ddblocal.TestEndpoint(t), "://", "://opsuser:hunter2@", 1)
	conn, err := data.Connect(w.ctx, data.ConnOptions{Endpoint: ep, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	audit := openTestAudit(t)
	exec := &Executor{Conn: conn, Tables: w.tables, Audit: audit, Env: "dev"}
	if r := exec.Execute(w.ctx, w.plan(ReleaseSession, sessionKey("sess_pw"), Options{})); !r.OK {
		t.Fatalf("release: %s", r.Message)
	}
	raw, _ := os.ReadFile(audit.Path())
	if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "opsuser") || !strings.Contains(string(raw), `"endpoint":"http://***@127.0.0.1:`) {
		t.Errorf("audit line: %s", raw)
	}
}
