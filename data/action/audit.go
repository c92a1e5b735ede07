package action

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/privfile"
)

// The audit log answers "who changed this row, when, and under which
// condition" after the fact. One JSON object per line, one line per attempted
// action, whatever its outcome. It holds operator names and item keys, so
// it is private to the user: the file is 0600 and its directory 0700.

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	Time     time.Time      `json:"time"`
	Operator string         `json:"operator"`          // user@host
	Profile  string         `json:"profile,omitempty"` // AWS profile
	Env      string         `json:"env"`
	Endpoint string         `json:"endpoint"`
	Table    string         `json:"table"` // physical table name
	Key      map[string]any `json:"key"`
	Action   Kind           `json:"action"`
	// Step names the step after the write (Spec.Then) this line is about;
	// "" on the write's own line.
	Step      string            `json:"step,omitempty"`
	Target    string            `json:"target,omitempty"`
	Update    string            `json:"update,omitempty"`
	Condition string            `json:"condition,omitempty"`
	Names     map[string]string `json:"names,omitempty"`
	Values    map[string]any    `json:"values,omitempty"`
	// Result is "ok", "ok: <how a lost response was recognised>", "guard
	// failed: <clause>", "unknown: <what>" or "error: <what>" (Result.Outcome).
	Result  string `json:"result"`
	Message string `json:"message,omitempty"`

	// Problem is set, by ReadAudit only, on a line that could not be read
	// as an entry; Raw then holds the line so nothing is hidden.
	Problem string `json:"-"`
	Raw     string `json:"-"`
}

// AuditLog appends entries to one file. It is safe for concurrent use.
type AuditLog struct {
	mu   sync.Mutex
	path string
	f    *os.File
	// write is the one write of a line (f.Write; a test cuts it short).
	write func(f *os.File, b []byte) (int, error)
}

// DefaultAuditPath is $XDG_STATE_HOME/opsdeck/audit.log, or
// ~/.local/state/opsdeck/audit.log when XDG_STATE_HOME is unset or relative
// (the XDG spec says to ignore relative values).
func DefaultAuditPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "opsdeck", "audit.log"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("no home directory for the audit log (set XDG_STATE_HOME): %v", err)
	}
	return filepath.Join(home, ".local", "state", "opsdeck", "audit.log"), nil
}

// OpenAuditLog opens (creating if needed) the log for appending. The log is
// evidence, so it refuses to be redirected: its directory must be a real
// directory owned by the user (created 0700, tightened to 0700 when looser),
// and the file a regular file owned by the user with one link, opened
// without following a symbolic link planted in its place. An existing file
// with looser permissions is tightened to 0600.
func OpenAuditLog(path string) (*AuditLog, error) {
	if err := privfile.CheckDir(filepath.Dir(path), "audit log", true); err != nil {
		return nil, err
	}
	// Read as well as append: Append looks at the last byte before it
	// writes (a line cut short earlier is closed first).
	f, err := privfile.Open(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, "audit log", privfile.Options{OneLink: true})
	if err != nil {
		return nil, err
	}
	return &AuditLog{path: path, f: f, write: (*os.File).Write}, nil
}

// Path is where the log is written.
func (l *AuditLog) Path() string { return l.path }

// Append writes one entry as one whole line and syncs it: an action that
// reached DynamoDB must not lose its record to a crash a moment later.
// Only whole lines stay in the file: a write cut short (a full disk) is
// taken back to where it started and reported, so the next line, once
// there is room, does not glue itself to a fragment; and a fragment left
// by a crash or another process is closed with a newline first.
func (l *AuditLog) Append(e AuditEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	line = append(escapeJSONLine(line), '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("audit log is closed")
	}
	start, open, err := l.tail()
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	if open {
		line = append([]byte{'\n'}, line...)
	}
	// One write per line with O_APPEND keeps lines whole even when two
	// opsdeck processes share the file.
	n, err := l.write(l.f, line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if n > 0 {
			if terr := l.takeBack(start, n, open); terr != nil {
				return fmt.Errorf("audit log: %w; the cut line could not be taken back: %v", err, terr)
			}
		}
		return fmt.Errorf("audit log: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// tail is the file's size and whether its last line is open (no newline
// at the end: a line cut short before this process's time).
func (l *AuditLog) tail() (size int64, open bool, err error) {
	fi, err := l.f.Stat()
	if err != nil {
		return 0, false, err
	}
	if fi.Size() == 0 {
		return 0, false, nil
	}
	last := make([]byte, 1)
	if _, err := l.f.ReadAt(last, fi.Size()-1); err != nil {
		return 0, false, err
	}
	return fi.Size(), last[0] != '\n', nil
}

// takeBack removes the n bytes of a cut write that began at start: the
// file ends on a whole line again (after the newline that closed an open
// line, when one was written). When another process appended meanwhile
// (the file is no longer start+n long) nothing is cut: their line would
// go with ours; the next Append then closes the fragment with a newline,
// and ReadAudit reads the line glued to it on its own.
func (l *AuditLog) takeBack(start int64, n int, open bool) error {
	fi, err := l.f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() != start+int64(n) {
		return fmt.Errorf("the log grew meanwhile (%d bytes, want %d)", fi.Size(), start+int64(n))
	}
	keep := start
	if open {
		keep++ // the newline that closed the earlier fragment stays
	}
	if err := l.f.Truncate(keep); err != nil {
		return err
	}
	return l.f.Sync()
}

// Close closes the file; later appends fail.
func (l *AuditLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// maxAuditLine bounds one line ReadAudit will hold; longer lines are
// reported, clipped, as unreadable rather than stopping the read.
const maxAuditLine = 1 << 20

// ReadAudit returns the last n entries of the log, oldest first (n <= 0: all).
// A missing file is an empty log. Lines that are not entries come back with
// Problem set, so the :audit view shows them instead of hiding them.
func ReadAudit(path string, n int) ([]AuditEntry, error) {
	// Non-blocking: opening a FIFO planted in the log's place for reading
	// would otherwise wait for a writer for ever; only a regular file is
	// read.
	f, err := os.OpenFile(path, os.O_RDONLY|privfile.NonBlock, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("audit log %s is not a regular file", path)
	}

	var out []AuditEntry
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(line) > 0 || tooLong {
			out = append(out, parseAuditLine(line, tooLong)...)
			if n > 0 && len(out) > 2*n {
				// Keep memory bounded on a long log: only the tail matters.
				out = append(out[:0], out[len(out)-n:]...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("audit log: %w", err)
		}
	}
	if n > 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}

// readLine reads one line, keeping at most maxAuditLine bytes of it.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, e := r.ReadLine()
		if len(line)+len(chunk) <= maxAuditLine {
			line = append(line, chunk...)
		} else {
			tooLong = true
		}
		if e != nil {
			return line, tooLong, e
		}
		if !isPrefix {
			return line, tooLong, nil
		}
	}
}

func parseAuditLine(line []byte, tooLong bool) []AuditEntry {
	raw := string(bytes.TrimSpace(line))
	if tooLong {
		return []AuditEntry{{Problem: "line longer than 1 MiB, not read", Raw: clip(raw)}}
	}
	e, err := parseEntry(raw)
	if err == nil {
		return []AuditEntry{e}
	}
	if parts := unglue(raw); parts != nil {
		return parts
	}
	if e.Problem == "" {
		e = AuditEntry{Problem: "not an audit entry: " + err.Error(), Raw: raw}
	}
	return []AuditEntry{e}
}

// parseEntry reads one entry; an entry without its action or result comes
// back with Problem set, and an error.
func parseEntry(raw string) (AuditEntry, error) {
	var e AuditEntry
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		return AuditEntry{}, err
	}
	if e.Result == "" || e.Action == "" {
		e.Problem = "entry lacks its action or result"
		e.Raw = raw
		return e, errors.New(e.Problem)
	}
	return e, nil
}

// entryStart is how every line Append writes begins (Time is the first
// field); inside a JSON string its quotes would be escaped.
const entryStart = `{"time":"`

// unglue reads a line that is a fragment (a line cut short, by a full
// disk or a crash, before this version closed such lines) with whole
// entries appended to it: the fragment is reported, each entry after it
// read on its own. nil when the line holds no whole entry after its start.
func unglue(raw string) []AuditEntry {
	for i := 1; i < len(raw); i++ {
		j := strings.Index(raw[i:], entryStart)
		if j < 0 {
			return nil
		}
		i += j
		rest := unglueTail(raw[i:])
		if rest == nil {
			continue
		}
		head := AuditEntry{Problem: "line cut short (its end was never written); the entry after it is read on its own", Raw: raw[:i]}
		return append([]AuditEntry{head}, rest...)
	}
	return nil
}

// unglueTail reads s as one entry, or as an entry with more glued to it.
func unglueTail(s string) []AuditEntry {
	if e, err := parseEntry(s); err == nil {
		return []AuditEntry{e}
	}
	parts := unglue(s)
	if parts == nil || !strings.HasPrefix(s, entryStart) {
		return nil
	}
	return parts
}

// auditPlain is the one plain converter (data.Plainer) in the audit log's
// form: binaries as "b64:" and base64, a number set's members as their
// text. A line is never refused: a value the converter cannot take (not
// from DynamoDB: deeper than it nests) is written as null.
var auditPlain = data.Plainer{
	Binary:        func(_ []string, b []byte) any { return "b64:" + base64.StdEncoding.EncodeToString(b) },
	NumberSetText: true,
}

func plainMap(m map[string]types.AttributeValue) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k], _ = auditPlain.Value(v)
	}
	return out
}

// String renders an entry on one line for the :audit view.
func (e AuditEntry) String() string {
	if e.Problem != "" {
		return "(" + e.Problem + ") " + clip(e.Raw)
	}
	var b strings.Builder
	b.WriteString(e.Time.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, "  %s  %s  %s/%s  %s  %s", e.Operator, e.Env, e.Table, e.Target, e.Action, e.Result)
	return b.String()
}

// escapeJSONLine rewrites, inside a JSON text, every character a terminal
// would act on that encoding/json leaves raw — DEL, C1 controls, bidi and
// other format characters, the invisible Hangul fillers — as a \uXXXX
// escape (a surrogate pair above U+FFFF). encoding/json already escapes C0
// controls and U+2028/U+2029. Any JSON reader, ReadAudit included, decodes
// the escapes back to the same characters, so nothing is lost; `tail
// audit.log` shows the line in its logical order, on one line.
func escapeJSONLine(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x7f && data.IsUnsafeRune(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r < 0x7f || !data.IsUnsafeRune(r) {
			out = append(out, b[i:i+size]...)
			i += size
			continue
		}
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	return out
}
