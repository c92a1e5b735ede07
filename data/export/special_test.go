//go:build unix

package export

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// refused asserts that an export to path is refused, overwrite or not,
// with a message naming what is there, and that nothing was written
// beside it.
func refused(t *testing.T, path, what string) {
	t.Helper()
	for _, over := range []bool{false, true} {
		f, err := Create(path, over)
		if err == nil {
			f.Abort()
			t.Fatalf("Create(%s, overwrite=%v) accepted", path, over)
		}
		var nr *NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), what) {
			t.Fatalf("Create(%s, overwrite=%v): %v, want a refusal saying %q", path, over, err, what)
		}
	}
	if parts, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".*.part")); len(parts) > 0 {
		t.Fatalf("left beside %s: %v", path, parts)
	}
}

func sameFile(t *testing.T, path string, before os.FileInfo) {
	t.Helper()
	after, err := os.Lstat(path)
	if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
		t.Fatalf("%s was touched: before %v, after %v (%v)", path, before.Mode(), after, err)
	}
}

func TestExportRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(fifo)
	refused(t, fifo, "is a FIFO")
	sameFile(t, fifo, fi)

	target := filepath.Join(dir, "target.jsonl")
	os.WriteFile(target, []byte("theirs"), 0o644)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Lstat(link)
	refused(t, link, "is a symbolic link to "+target)
	sameFile(t, link, fi)
	if b, _ := os.ReadFile(target); string(b) != "theirs" {
		t.Fatalf("the link's target changed: %q", b)
	}

	stdout := filepath.Join(dir, "stdout.jsonl")
	os.Symlink("/proc/self/fd/1", stdout)
	refused(t, stdout, "is a symbolic link to /proc/self/fd/1")

	sub := filepath.Join(dir, "adir")
	os.Mkdir(sub, 0o700)
	refused(t, sub, "is a directory")

	// A device: first one of the test's own (as root), so that a
	// regression fails here rather than replacing the machine's /dev/null.
	own := filepath.Join(dir, "null")
	if err := syscall.Mknod(own, syscall.S_IFCHR|0o600, 1<<8|3); err == nil {
		fi, _ = os.Lstat(own)
		refused(t, own, "is a character device")
		sameFile(t, own, fi)
	} else {
		t.Logf("mknod: %v (not root): the own device variant is skipped; /dev/null is checked alone", err)
	}
	if t.Failed() {
		return
	}
	fi, err := os.Lstat("/dev/null")
	if err != nil {
		t.Skipf("no /dev/null: %v", err)
	}
	refused(t, "/dev/null", "is a character device")
	sameFile(t, "/dev/null", fi)
}

// A special file put in the name's place while the export runs is not
// replaced at Commit either, overwrite or not.
func TestCommitRefusesSpecialFileAppearedMeanwhile(t *testing.T) {
	for _, over := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.jsonl")
		f, err := Create(path, over)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("{}\n")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		err = f.Commit()
		if !errors.As(err, new(*NotRegularError)) {
			t.Fatalf("overwrite=%v: Commit onto a FIFO: %v, want *NotRegularError", over, err)
		}
		if fi, _ := os.Lstat(path); fi.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("overwrite=%v: the FIFO was replaced: %v", over, fi.Mode())
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Fatalf("overwrite=%v: left in the directory: %v", over, ents)
		}
	}
}
