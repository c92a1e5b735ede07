//go:build linux

package action

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func entry(target, msg string) AuditEntry {
	return AuditEntry{Time: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), Operator: "alice@box", Env: "prod",
		Table: "sessions", Target: target, Action: ReleaseSession, Result: "ok", Message: msg}
}

// wholeEntries reads the log and asserts it holds exactly these targets,
// each a whole entry, and that the file ends on a newline.
func wholeEntries(t *testing.T, path string, targets ...string) {
	t.Helper()
	got, err := ReadAudit(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, e := range got {
		if e.Problem != "" {
			t.Errorf("a broken line in the log: (%s) %.80s", e.Problem, e.Raw)
			continue
		}
		seen = append(seen, e.Target)
	}
	if strings.Join(seen, ",") != strings.Join(targets, ",") {
		t.Fatalf("entries %q, want %q", seen, targets)
	}
	if b, _ := os.ReadFile(path); len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("the log ends inside a line: …%q", b[max(len(b)-40, 0):])
	}
}

// A write the file system cuts short (here injected: it runs everywhere)
// is taken back, and reported; the next line, once there is room, is whole
// and on its own line.
func TestAuditShortWriteLeavesOnlyWholeLines(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
	}{{"ENOSPC", syscall.ENOSPC}, {"short, no error", nil}} {
		t.Run(c.name, func(t *testing.T) {
			l := openTestAudit(t)
			if err := l.Append(entry("sess_1", "")); err != nil {
				t.Fatal(err)
			}
			l.write = func(f *os.File, b []byte) (int, error) {
				n, _ := f.Write(b[:1403])
				return n, c.err
			}
			err := l.Append(entry("sess_2", strings.Repeat("x", 3000)))
			if err == nil || (c.err != nil && !errors.Is(err, c.err)) || !strings.HasPrefix(err.Error(), "audit log: ") {
				t.Fatalf("cut write: %v, want it reported", err)
			}
			wholeEntries(t, l.Path(), "sess_1")

			l.write = (*os.File).Write // room again
			if err := l.Append(entry("sess_3", "")); err != nil {
				t.Fatal(err)
			}
			wholeEntries(t, l.Path(), "sess_1", "sess_3")
		})
	}
}

// A line left open before (a crash mid-write, an older version on a full
// disk) is closed before the next line: the fragment is reported, the new
// entry read whole.
func TestAuditClosesALineLeftOpen(t *testing.T) {
	l := openTestAudit(t)
	l.Append(entry("sess_1", ""))
	f, _ := os.OpenFile(l.Path(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026-11-27T12:00:00Z","operator":"alice@box","env":"pr`)
	f.Close()
	if err := l.Append(entry("sess_3", "")); err != nil {
		t.Fatal(err)
	}
	got, _ := ReadAudit(l.Path(), 0)
	if len(got) != 3 || got[0].Target != "sess_1" || got[1].Problem == "" || got[2].Target != "sess_3" || got[2].Problem != "" {
		t.Fatalf("read back %+v", got)
	}
}

// A log written before lines were kept whole: a fragment with the next
// entry glued to it, on one line. The reader reports the fragment and
// reads the entry; the lines after it are read as ever.
func TestReadAuditUngluesAFragmentFromTheNextEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	line := func(e AuditEntry) string {
		l := openTestAudit(t)
		l.Append(e)
		b, _ := os.ReadFile(l.Path())
		return string(b)
	}
	first, second, third := line(entry("sess_1", "")), line(entry("sess_2", `with {"time":"inside"} a message`)), line(entry("sess_3", ""))
	fragment := second[:len(second)/2]
	glued := first + fragment + second + third
	// And a fragment glued to a fragment glued to an entry.
	glued += fragment + fragment + third
	if err := os.WriteFile(path, []byte(glued), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAudit(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var shape []string
	for _, e := range got {
		if e.Problem != "" {
			if !strings.Contains(e.Problem, "cut short") || !strings.HasPrefix(e.Raw, `{"time":"`) {
				t.Errorf("fragment reported as %q: %.60q", e.Problem, e.Raw)
			}
			shape = append(shape, "broken")
			continue
		}
		shape = append(shape, e.Target)
	}
	want := "sess_1 broken sess_2 sess_3 broken broken sess_3"
	if strings.Join(shape, " ") != want {
		t.Fatalf("read %q, want %q", strings.Join(shape, " "), want)
	}
	if got[2].Message != `with {"time":"inside"} a message` {
		t.Errorf("sess_2 read as %+v", got[2])
	}
}

// The same on a real full file system: a small tmpfs, filled. Needs
// mount (root, or a user namespace); skipped, with the reason, where the
// machine refuses it — the injected short write above runs everywhere.
func TestAuditOnAFullFileSystem(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the full-disk variant is skipped; TestAuditShortWriteLeavesOnlyWholeLines injects the short write", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	l, err := OpenAuditLog(filepath.Join(dir, "opsdeck", "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Append(entry("sess_1", "")); err != nil {
		t.Fatal(err)
	}
	// Fill the rest of the file system.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	page := make([]byte, 4096)
	for {
		if _, err := filler.Write(page); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	filler.Close()
	before, _ := os.Stat(l.Path())

	// Bigger than what is left in the log's last page: the kernel writes
	// part of it, then refuses the rest.
	err = l.Append(entry("sess_2", strings.Repeat("x", 8000)))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("append on a full file system: %v, want ENOSPC", err)
	}
	if after, _ := os.Stat(l.Path()); after.Size() != before.Size() {
		t.Fatalf("the log holds %d bytes after the failed append, %d before", after.Size(), before.Size())
	}
	wholeEntries(t, l.Path(), "sess_1")

	os.Remove(filler.Name()) // space freed
	if err := l.Append(entry("sess_3", "")); err != nil {
		t.Fatal(err)
	}
	wholeEntries(t, l.Path(), "sess_1", "sess_3")
}
