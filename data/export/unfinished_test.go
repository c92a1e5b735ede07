//go:build unix

package export

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fresh gives the test the process's registry as a new console has it,
// and puts it back after (Abandon closes it for good).
func fresh(t *testing.T) {
	t.Helper()
	reset := func() {
		unfinished.mu.Lock()
		unfinished.closed, unfinished.journal = false, ""
		unfinished.files = map[*File]struct{}{}
		unfinished.mu.Unlock()
	}
	reset()
	t.Cleanup(reset)
}

func parts(t *testing.T, dir string) []string {
	t.Helper()
	got, _ := filepath.Glob(filepath.Join(dir, ".*.part"))
	return got
}

// Quitting (main calls Abandon at the end, and on SIGTERM / SIGHUP / SIGINT)
// removes an export mid-way, with its journal record; the step still
// writing it then fails and writes nothing under the name.
func TestAbandonRemovesUnfinishedExports(t *testing.T) {
	fresh(t)
	dir, journal := t.TempDir(), t.TempDir()
	if _, err := Track(journal); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "q.jsonl")
	f, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"signingKey":"unmasked"}` + "\n")
	if len(parts(t, dir)) != 1 {
		t.Fatalf("no .part while writing: %v", parts(t, dir))
	}
	if recs, _ := os.ReadDir(journal); len(recs) != 1 {
		t.Fatalf("journal holds %d records, want 1", len(recs))
	}

	removed := Abandon()
	if len(removed) != 1 || removed[0] != f.File.Name() {
		t.Fatalf("Abandon removed %v, want %s", removed, f.File.Name())
	}
	if p := parts(t, dir); len(p) > 0 {
		t.Fatalf("left behind: %v", p)
	}
	if recs, _ := os.ReadDir(journal); len(recs) != 0 {
		t.Fatalf("journal still holds %v", recs)
	}
	f.WriteString("more\n") // the step goes on a moment
	if err := f.Commit(); !errors.Is(err, ErrAbandoned) {
		t.Fatalf("Commit after Abandon: %v, want ErrAbandoned", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s exists after an abandoned export: %v", path, err)
	}
	if _, err := Create(filepath.Join(dir, "later.jsonl"), false); !errors.Is(err, ErrAbandoned) {
		t.Fatalf("Create after Abandon: %v, want ErrAbandoned", err)
	}
	if p := parts(t, dir); len(p) > 0 {
		t.Fatalf("left behind: %v", p)
	}
}

// A committed or aborted export leaves no journal record.
func TestJournalRecordOnlyWhileUnfinished(t *testing.T) {
	fresh(t)
	dir, journal := t.TempDir(), t.TempDir()
	if _, err := Track(journal); err != nil {
		t.Fatal(err)
	}
	f, _ := Create(filepath.Join(dir, "a.jsonl"), false)
	f.WriteString("{}\n")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	g, _ := Create(filepath.Join(dir, "b.jsonl"), false)
	g.Abort()
	if recs, _ := os.ReadDir(journal); len(recs) != 0 {
		t.Fatalf("journal holds %v after commit and abort", recs)
	}
	if fi, err := os.Stat(filepath.Join(journal)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("journal directory: %v %v, want 0700", fi, err)
	}
}

// helperEnv makes the test binary a console that starts an export and
// waits, to be killed.
const helperEnv = "OPSDECK_EXPORT_HELPER"

func TestHelperExportThenWait(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("helper process only")
	}
	journal, path, _ := strings.Cut(spec, "|")
	if _, err := Track(journal); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	f, err := Create(path, false)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	f.WriteString(`{"signingKey":"unmasked"}` + "\n")
	fmt.Println("part", f.File.Name())
	bufio.NewReader(os.Stdin).ReadString('\n') // until killed
	os.Exit(0)
}

// startHelper runs a console (the test binary) that exports to path and
// waits, and returns it with its .part.
func startHelper(t *testing.T, journal, path string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperExportThenWait$")
	cmd.Env = append(os.Environ(), helperEnv+"="+journal+"|"+path)
	stdin, _ := cmd.StdinPipe()
	t.Cleanup(func() { stdin.Close() })
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	part, ok := strings.CutPrefix(strings.TrimSpace(line), "part ")
	if err != nil || !ok {
		t.Fatalf("helper: %q %v", line, err)
	}
	return cmd, part
}

// A console killed outright (kill -9) mid-export leaves its .part; the
// next start removes it — but not while that console still runs, and never
// a file that only looks like ours.
func TestNextStartRemovesPartOfKilledConsole(t *testing.T) {
	fresh(t)
	dir, journal := t.TempDir(), t.TempDir()
	cmd, part := startHelper(t, journal, filepath.Join(dir, "q.jsonl"))

	// Another console starting now leaves a running console's export be.
	if removed, err := Track(journal); err != nil || len(removed) > 0 {
		t.Fatalf("Track while its console runs: removed %v, %v", removed, err)
	}
	if _, err := os.Lstat(part); err != nil {
		t.Fatalf("a running console's export was removed: %v", err)
	}

	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Lstat(part); err != nil {
		t.Fatalf("after kill -9 the .part should still be there (nothing ran): %v", err)
	}
	// Not ours, though named like ours: a file no record names.
	decoy := filepath.Join(dir, ".other.jsonl.123.part")
	os.WriteFile(decoy, []byte("theirs"), 0o600)

	removed, err := Track(journal)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != part {
		t.Fatalf("next start removed %v, want [%s]", removed, part)
	}
	if _, err := os.Lstat(part); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s still there after the next start: %v", part, err)
	}
	if b, err := os.ReadFile(decoy); err != nil || string(b) != "theirs" {
		t.Fatalf("a file no record names was touched: %q %v", b, err)
	}
	if recs, _ := os.ReadDir(journal); len(recs) != 0 {
		t.Fatalf("journal still holds %v", recs)
	}
}

// A record whose file has since been replaced by another under the same
// name (another inode) removes nothing; nor does one naming a symbolic
// link, or a name not of our pattern.
func TestNextStartLeavesFilesThatAreNotTheRecordedOne(t *testing.T) {
	fresh(t)
	dir, journal := t.TempDir(), t.TempDir()
	cmd, part := startHelper(t, journal, filepath.Join(dir, "q.jsonl"))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// Replaced by a file of someone's with the same name (the old inode
	// kept alive elsewhere, so the new file cannot reuse its number).
	os.Link(part, filepath.Join(t.TempDir(), "old"))
	os.Remove(part)
	os.WriteFile(part, []byte("someone's"), 0o600)

	cmd2, part2 := startHelper(t, journal, filepath.Join(dir, "r.jsonl"))
	cmd2.Process.Signal(syscall.SIGKILL)
	cmd2.Wait()
	// Replaced by a symbolic link to a file elsewhere.
	elsewhere := filepath.Join(t.TempDir(), "keep")
	os.WriteFile(elsewhere, []byte("keep"), 0o600)
	os.Remove(part2)
	os.Symlink(elsewhere, part2)

	removed, err := Track(journal)
	if err != nil || len(removed) > 0 {
		t.Fatalf("removed %v (%v), want nothing", removed, err)
	}
	if b, _ := os.ReadFile(part); string(b) != "someone's" {
		t.Fatalf("the file that took the name was touched: %q", b)
	}
	if fi, err := os.Lstat(part2); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link that took the name was touched: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(elsewhere); string(b) != "keep" {
		t.Fatalf("the link's target was touched: %q", b)
	}
	if recs, _ := os.ReadDir(journal); len(recs) != 0 {
		t.Fatalf("stale records kept: %v", recs)
	}
}

// Where the file system keeps extended attributes, a file that took the
// name of a killed console's .part is left even when it got the very
// inode number back (file systems reuse them at once): only the file with
// the recorded token is removed.
func TestNextStartNeedsTheMarkWhereKept(t *testing.T) {
	fresh(t)
	dir, journal := t.TempDir(), t.TempDir()
	probe, _ := os.Create(filepath.Join(dir, "probe"))
	kept := setMark(probe, newToken())
	probe.Close()
	os.Remove(probe.Name())
	if !kept {
		t.Skipf("the file system under %s keeps no user extended attributes: name, inode and owner decide alone", dir)
	}
	cmd, part := startHelper(t, journal, filepath.Join(dir, "q.jsonl"))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before, _ := os.Lstat(part)
	os.Remove(part)
	os.WriteFile(part, []byte("someone's"), 0o600)
	after, _ := os.Lstat(part)
	t.Logf("inode reused: %v", os.SameFile(before, after))

	if removed, err := Track(journal); err != nil || len(removed) > 0 {
		t.Fatalf("removed %v (%v), want nothing", removed, err)
	}
	if b, _ := os.ReadFile(part); string(b) != "someone's" {
		t.Fatalf("the file that took the name was touched: %q", b)
	}
}

// A console killed between writing an export's record and completing it
// (the file made, nothing in it yet) leaves a record without an inode: the
// next start removes the file only if it is empty or carries the mark.
func TestNextStartHandlesARecordNotYetCompleted(t *testing.T) {
	fresh(t)
	dir, journal := t.TempDir(), t.TempDir()
	gonePID := exec.Command("true")
	if err := gonePID.Run(); err != nil {
		t.Fatal(err)
	}
	pid := gonePID.Process.Pid
	plant := func(n int, content string, marked bool) string {
		part := filepath.Join(dir, fmt.Sprintf(".q%d.jsonl.%d.part", n, 1000+n))
		f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(content)
		rec := journalRecord{Part: part, UID: os.Getuid(), PID: pid, Mark: newToken()}
		if marked && !setMark(f, rec.Mark) {
			t.Skip("no user extended attributes here")
		}
		f.Close()
		if err := writeRecord(filepath.Join(journal, fmt.Sprintf("%d-%d.json", pid, n)), rec, false); err != nil {
			t.Fatal(err)
		}
		return part
	}
	empty := plant(1, "", false)
	full := plant(2, "someone's data", false)
	ours := plant(3, `{"signingKey":"x"}`, true)

	removed, err := Track(journal)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, " ") != empty+" "+ours && strings.Join(removed, " ") != ours+" "+empty {
		t.Fatalf("removed %v, want %s and %s", removed, empty, ours)
	}
	if b, err := os.ReadFile(full); err != nil || string(b) != "someone's data" {
		t.Fatalf("an unmarked file with data was touched: %q %v", b, err)
	}
}
