package history

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tempPath(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "state", "opsdeck", "history")
}

func TestRestartGivesBackTheLinesInOrder(t *testing.T) {
	path := tempPath(t)
	f, lines, err := Open(path)
	if err != nil || len(lines) != 0 || f == nil {
		t.Fatalf("fresh history: %v %q %v", f, lines, err)
	}
	for _, l := range []string{"sessions proj_1", "runs u-7", `inbox "user with space" type=order.`} {
		if err := f.Append(l); err != nil {
			t.Fatal(err)
		}
	}
	_, lines, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sessions proj_1", "runs u-7", `inbox "user with space" type=order.`}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("after restart: %q, want %q", lines, want)
	}
}

func TestModes(t *testing.T) {
	path := tempPath(t)
	f, _, _ := Open(path)
	if err := f.Append("q"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, want 0700", di.Mode().Perm())
	}
}

func TestLooseModesAreTightened(t *testing.T) {
	path := tempPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("runs u-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Dir(path), 0o755)
	os.Chmod(path, 0o644)
	f, lines, err := Open(path)
	if err != nil || len(lines) != 1 {
		t.Fatalf("open: %q %v", lines, err)
	}
	if err := f.Append("runs u-2"); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	di, _ := os.Stat(filepath.Dir(path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("modes file %v dir %v, want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
}

func TestSymlinkIsRefusedNotFollowed(t *testing.T) {
	path := tempPath(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte("runs planted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	f, lines, err := Open(path)
	if err == nil || f != nil || len(lines) != 0 {
		t.Fatalf("a symlinked history was used: %v %q %v", f, lines, err)
	}
	if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("message does not say why: %v", err)
	}
	// A File made before the link was planted refuses to write through it.
	g := &File{path: path}
	if err := g.Append("runs u-9"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("append through a symlink: %v", err)
	}
	b, _ := os.ReadFile(target)
	if string(b) != "runs planted\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
}

func TestSymlinkedDirectoryIsRefused(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	os.MkdirAll(real, 0o700)
	os.WriteFile(filepath.Join(real, "history"), []byte("runs x\n"), 0o600)
	link := filepath.Join(root, "opsdeck")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	f, _, err := Open(filepath.Join(link, "history"))
	if err == nil || f != nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("symlinked directory: %v %v", f, err)
	}
}

func TestKeepRefusesControlsAndSecrets(t *testing.T) {
	for _, tc := range []struct {
		line string
		keep bool
	}{
		{"sessions proj_1", true},
		{"sandboxes track=net-101", true},
		{"session sess-\x1b[2Jgone", false}, // an escape sequence
		{"runs u-1\x07", false},             // BEL
		{"run r\u202e-1", false},            // bidi override
		{"run r\u200b-1", false},            // zero-width space
		{"runs \xff\xfe", false},            // invalid UTF-8
		{"", false},
		{"   ", false},
		{"session " + strings.Repeat("a", MaxLineBytes), false},
		// A JWT pasted as an id, a bearer token, credentials in a URL,
		// name=value with a credential's name.
		{"session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", false},
		{"inbox Bearer abcdefghijklmnopqrstuvwxyz0123456789", false},
		{"sessions https://user:hunter2@example.com/x", false},
		{"inbox u-1 token=s3cr3tvalue123", false},
	} {
		if got := Keep(tc.line); got != tc.keep {
			t.Errorf("Keep(%q) = %v, want %v", tc.line, got, tc.keep)
		}
	}
}

func TestRefusedLinesNeverReachTheFile(t *testing.T) {
	path := tempPath(t)
	f, _, _ := Open(path)
	secretLine := "inbox u-1 token=s3cr3tvalue123"
	for _, l := range []string{"runs u-1", secretLine, "session a\x1b]52;c;aGk=\x07", "runs u-2"} {
		if err := f.Append(l); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "runs u-1\nruns u-2\n" {
		t.Fatalf("file holds %q", b)
	}
}

func TestCorruptFileStillOpens(t *testing.T) {
	path := tempPath(t)
	os.MkdirAll(filepath.Dir(path), 0o700)
	content := "runs u-1\n\x00\x01binary junk\xff\nsession \x1b[31mred\nruns u-2\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, lines, err := Open(path)
	if f == nil {
		t.Fatalf("a partly corrupt file made the history unusable: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "2 unreadable lines skipped") {
		t.Errorf("message: %v", err)
	}
	if strings.Join(lines, "|") != "runs u-1|runs u-2" {
		t.Fatalf("lines %q", lines)
	}
	if err := f.Append("runs u-3"); err != nil {
		t.Fatal(err)
	}
}

func TestUnreadableFileSaysSo(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any file")
	}
	path := tempPath(t)
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("runs u-1\n"), 0o600)
	os.Chmod(path, 0o200) // write-only
	defer os.Chmod(path, 0o600)
	f, lines, err := Open(path)
	if err == nil || f != nil || len(lines) != 0 {
		t.Fatalf("unreadable: %v %q %v", f, lines, err)
	}
	if !strings.Contains(err.Error(), "command history") {
		t.Errorf("message does not name the history: %v", err)
	}
}

func TestDirectoryInPlaceOfFile(t *testing.T) {
	path := tempPath(t)
	os.MkdirAll(path, 0o700)
	f, _, err := Open(path)
	if err == nil || f != nil {
		t.Fatalf("a directory was taken for the history: %v", err)
	}
}

func TestBoundedSize(t *testing.T) {
	path := tempPath(t)
	f, _, _ := Open(path)
	n := 2*MaxEntries + 7
	for i := 0; i < n; i++ {
		if err := f.Append(fmt.Sprintf("runs u-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	inFile := strings.Count(string(b), "\n")
	if inFile >= 2*MaxEntries {
		t.Fatalf("file holds %d lines after %d appends, want under %d", inFile, n, 2*MaxEntries)
	}
	_, lines, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != MaxEntries {
		t.Fatalf("restart gives %d lines, want %d", len(lines), MaxEntries)
	}
	if lines[len(lines)-1] != fmt.Sprintf("runs u-%d", n-1) || lines[0] != fmt.Sprintf("runs u-%d", n-MaxEntries) {
		t.Fatalf("kept %q … %q", lines[0], lines[len(lines)-1])
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("compacted file mode %v", fi.Mode().Perm())
	}
}

func TestHugeFileIsReadFromItsEnd(t *testing.T) {
	path := tempPath(t)
	os.MkdirAll(filepath.Dir(path), 0o700)
	var b strings.Builder
	for i := 0; b.Len() < 4*maxReadBytes; i++ {
		fmt.Fprintf(&b, "runs user-%07d\n", i)
	}
	b.WriteString("runs last\n")
	os.WriteFile(path, []byte(b.String()), 0o600)
	_, lines, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != MaxEntries || lines[len(lines)-1] != "runs last" {
		t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	if p, _ := DefaultPath(); p != "/x/state/opsdeck/history" {
		t.Errorf("XDG: %s", p)
	}
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/op")
	if p, _ := DefaultPath(); p != "/home/op/.local/state/opsdeck/history" {
		t.Errorf("fallback: %s", p)
	}
}
