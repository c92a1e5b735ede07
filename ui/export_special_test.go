//go:build unix

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// :export onto a FIFO, a symbolic link or a directory is refused, overwrite
// or not, with what the name is; nothing is written there or beside it.
func TestExportRefusesSpecialFilesByName(t *testing.T) {
	_, m := listWorld(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.jsonl")
	os.Symlink("/proc/self/fd/1", link)
	sub := filepath.Join(dir, "adir")
	os.Mkdir(sub, 0o700)

	for _, c := range []struct{ path, what string }{
		{fifo, "is a FIFO"},
		{link, "is a symbolic link to /proc/self/fd/1"},
		{sub, "is a directory"},
	} {
		for _, over := range []string{"", " overwrite"} {
			m, _ = runLine(t, m, "export "+c.path+" jsonl"+over)
			want := "not exported: " + c.path + " " + c.what
			if !strings.Contains(m.Flash(), want) {
				t.Fatalf("export onto %s%s: flash %q, want %q", c.path, over, m.Flash(), want)
			}
			// The message line wraps a long message: the frame's words,
			// read in order, hold it.
			if frame := strings.Join(strings.Fields(stripANSI(m.Render())), " "); !strings.Contains(frame, want) {
				t.Errorf("the refusal is not on screen: %q", frame)
			}
		}
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", fi.Mode())
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", fi.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("left in the directory: %v", ents)
	}
}
