// Package history keeps the command line's history across restarts, in
// $XDG_STATE_HOME/opsdeck/history (else ~/.local/state/opsdeck/history).
//
// The file is the operator's own: its directory is created 0700 and must be
// a real directory they own, the file is 0600, and a symbolic link planted
// in its place is refused rather than followed (O_NOFOLLOW), as the audit
// log does. What is written is only what is safe to keep in a file that
// outlives the session: a line with a control or invisible character, or
// one carrying a credential (a token pasted as an id, name=value with a
// credential's name), stays in the session's memory and never reaches the
// disk. The file is bounded: it is rewritten with its newest MaxEntries
// lines once it holds twice that many.
package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"opsdeck/data"
	"opsdeck/data/privfile"
	"opsdeck/data/secret"
)

// what names the file in messages.
const what = "command history"

const (
	// MaxEntries is how many lines the history keeps.
	MaxEntries = 500
	// MaxLineBytes is the longest line kept (the command line's limit).
	MaxLineBytes = 512
	// maxReadBytes bounds what Open reads: a history of MaxEntries lines
	// at most twice over; a larger file is read from its end.
	maxReadBytes = 2 * MaxEntries * (MaxLineBytes + 1)
)

// DefaultPath is $XDG_STATE_HOME/opsdeck/history, else
// ~/.local/state/opsdeck/history.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "opsdeck", "history"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("no home directory for the command history (set XDG_STATE_HOME)")
	}
	return filepath.Join(home, ".local", "state", "opsdeck", "history"), nil
}

// Keep reports whether line may be written to the history file: not empty,
// not longer than MaxLineBytes, valid UTF-8 without control or invisible
// characters (a line read back must never be a terminal instruction), and
// carrying nothing the secret masker would hide.
func Keep(line string) bool {
	if strings.TrimSpace(line) == "" || len(line) > MaxLineBytes || !utf8.ValidString(line) {
		return false
	}
	for _, r := range line {
		if data.IsUnsafeRune(r) {
			return false
		}
	}
	_, masked := secret.Text(line)
	return !masked
}

// File is an open history file. Append is safe for concurrent use.
type File struct {
	path string

	mu    sync.Mutex
	lines int // lines in the file, as far as this process knows
}

// Path is where the history is kept.
func (f *File) Path() string { return f.path }

// Open reads the history at path, oldest first. A missing file is an empty
// history (it is created on the first Append). When err is not nil the
// message says what is wrong in words; f is nil when the file cannot be
// used at all (a symbolic link, someone else's, unreadable) — the console
// then runs with a history of this session only — and not nil when only
// some lines were unreadable (they were skipped).
func Open(path string) (f *File, lines []string, err error) {
	raw, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	lines, bad := parse(raw)
	f = &File{path: path, lines: len(lines) + bad}
	if bad > 0 {
		return f, lines, fmt.Errorf("command history %s: %d unreadable %s skipped", path, bad, plural(bad, "line", "lines"))
	}
	return f, lines, nil
}

// readFile reads the file's last maxReadBytes without following a symbolic
// link. A missing file or directory reads as empty.
func readFile(path string) ([]byte, error) {
	if err := privfile.CheckDir(filepath.Dir(path), what, false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	fh, err := privfile.Open(path, os.O_RDONLY, what, privfile.Options{})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("command history %s: %w", path, err)
	}
	if size := fi.Size(); size > maxReadBytes {
		if _, err := fh.Seek(size-maxReadBytes, io.SeekStart); err != nil {
			return nil, fmt.Errorf("command history %s: %w", path, err)
		}
		b, err := io.ReadAll(io.LimitReader(fh, maxReadBytes))
		if err != nil {
			return nil, fmt.Errorf("command history %s cannot be read: %w", path, err)
		}
		// The read began inside a line: drop its end.
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
		return b, nil
	}
	b, err := io.ReadAll(io.LimitReader(fh, maxReadBytes))
	if err != nil {
		return nil, fmt.Errorf("command history %s cannot be read: %w", path, err)
	}
	return b, nil
}

// parse splits the file into lines, skipping (and counting) the ones Keep
// refuses: a file edited by hand, or by someone else, gives back nothing
// that would not have been written. Only the newest MaxEntries are kept.
func parse(b []byte) (lines []string, bad int) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxReadBytes+1)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			continue
		}
		if !Keep(line) {
			bad++
			continue
		}
		lines = append(lines, line)
	}
	if len(lines) > MaxEntries {
		lines = lines[len(lines)-MaxEntries:]
	}
	return lines, bad
}

// Append adds line to the file, unless Keep refuses it (then it does
// nothing and says nothing: the line stays in the session's memory only).
// Once the file holds 2×MaxEntries lines it is rewritten with the newest
// MaxEntries.
func (f *File) Append(line string) error {
	if f == nil || !Keep(line) {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := privfile.CheckDir(filepath.Dir(f.path), what, true); err != nil {
		return err
	}
	fh, err := privfile.Open(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, what, privfile.Options{})
	if err != nil {
		return err
	}
	// One write per line with O_APPEND: two consoles sharing the file
	// interleave whole lines.
	_, err = fh.Write([]byte(line + "\n"))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("command history %s: %w", f.path, err)
	}
	f.lines++
	if f.lines >= 2*MaxEntries {
		return f.compact()
	}
	return nil
}

// compact rewrites the file with its newest MaxEntries lines: a new file
// beside it, renamed over it (rename replaces a link, never follows it).
func (f *File) compact() error {
	raw, err := readFile(f.path)
	if err != nil {
		return err
	}
	lines, _ := parse(raw)
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".history-*")
	if err != nil {
		return fmt.Errorf("command history: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	_, err = tmp.WriteString(b.String())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.path)
	}
	if err != nil {
		return fmt.Errorf("command history %s: %w", f.path, err)
	}
	f.lines = len(lines)
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
