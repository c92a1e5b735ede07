package export

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"opsdeck/data/privfile"
)

// An export is written to a temporary ".NAME.NNN.part" beside its name, and
// with `reveal` that file holds unmasked secrets. A cancelled export drops
// it; so must a console that ends mid-export: quitting and the signals
// that end it (Abandon, called by main) remove every unfinished file of
// the process, and a console killed outright (kill -9, a crash, the power)
// leaves a record in a journal directory, from which the next start
// removes the file (Track). The journal is what makes the next start safe:
// it removes only a file it recorded, by its name, its device and inode
// and its owner, and never one of a console still running.

// ErrAbandoned is Commit's answer for an export dropped by Abandon.
var ErrAbandoned = errors.New("export abandoned: the console is quitting; no file written")

// unfinished is this process's list of exports not yet committed or
// aborted. Its lock orders a Commit against Abandon: an export is either
// wholly under its name or gone.
var unfinished = &registry{files: map[*File]struct{}{}}

type registry struct {
	mu      sync.Mutex
	files   map[*File]struct{}
	journal string // directory of the records; "" keeps none
	closed  bool   // Abandon ran: no export starts any more
	seq     int
}

// journalRecord is what the journal keeps of one unfinished export.
type journalRecord struct {
	Part string `json:"part"` // the temporary file, absolute
	Dev  uint64 `json:"dev"`
	Ino  uint64 `json:"ino"`
	UID  int    `json:"uid"`
	PID  int    `json:"pid"` // the console writing it
	// Mark is the token set on the file (markAttr), "" where the file
	// system keeps none.
	Mark string `json:"mark,omitempty"`
}

// partName is the temporary file's name as Create makes it.
var partName = regexp.MustCompile(`^\..+\.[0-9]+\.part$`)

func (u *registry) create(abs string, overwrite bool) (*File, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed {
		return nil, ErrAbandoned
	}
	journal := u.journal != "" && haveIdentity
	for range 100 {
		part := filepath.Join(filepath.Dir(abs), "."+filepath.Base(abs)+"."+randomDigits()+".part")
		rec := journalRecord{Part: part, UID: os.Getuid(), PID: os.Getpid(), Mark: newToken()}
		// The record comes first: a console killed at any instant after
		// this leaves a file the next start can find. Until it is
		// completed below (inode, mark) it names an empty file.
		var recPath string
		if journal {
			u.seq++
			recPath = filepath.Join(u.journal, fmt.Sprintf("%d-%d.json", os.Getpid(), u.seq))
			if err := writeRecord(recPath, rec, false); err != nil {
				return nil, fmt.Errorf("export journal: %w", err)
			}
		}
		tf, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			if recPath != "" {
				os.Remove(recPath)
			}
			if errors.Is(err, fs.ErrExist) {
				continue // that name is taken: another
			}
			return nil, err
		}
		f := &File{File: tf, Path: abs, overwrite: overwrite, record: recPath}
		if journal {
			// Without its whole record a crash would leave the file for
			// good: an export that cannot be recorded is not started.
			if err := completeRecord(recPath, tf, rec); err != nil {
				tf.Close()
				os.Remove(part)
				os.Remove(recPath)
				return nil, fmt.Errorf("export journal: %w", err)
			}
		}
		u.files[f] = struct{}{}
		return f, nil
	}
	return nil, errors.New("no free name for the export's temporary file")
}

// completeRecord adds the file's identity (device, inode) to its record,
// and keeps the mark only if the file system took it.
func completeRecord(recPath string, tf *os.File, rec journalRecord) error {
	if !setMark(tf, rec.Mark) {
		rec.Mark = ""
	}
	fi, err := tf.Stat()
	if err != nil {
		return err
	}
	rec.Dev, rec.Ino, rec.UID, _ = identity(fi)
	return writeRecord(recPath, rec, true)
}

// writeRecord writes a record whole: a new one in place (O_EXCL), a
// completed one beside it and renamed over it, so a crash never leaves
// half a record.
func writeRecord(path string, rec journalRecord, replace bool) error {
	b, _ := json.Marshal(rec)
	name := path
	if replace {
		name = path + ".new"
		os.Remove(name)
	}
	rf, err := privfile.Open(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, "export journal", privfile.Options{OneLink: true})
	if err != nil {
		return err
	}
	_, werr := rf.Write(append(b, '\n'))
	if err := rf.Close(); werr == nil {
		werr = err
	}
	if werr == nil && replace {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
	}
	return werr
}

// randomDigits is the unpredictable part of a temporary file's name.
func randomDigits() string {
	var b [4]byte
	rand.Read(b[:])
	return strconv.FormatUint(uint64(binary.BigEndian.Uint32(b[:])), 10)
}

// newToken is a mark's value: known only to the journal and the file.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// finish ends f: committed by commit (given the temporary file's name),
// or dropped when commit is nil. The temporary file and its record go
// either way.
func (u *registry) finish(f *File, commit func(tmp string) error) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if f.done {
		if commit != nil {
			return errors.New("export already finished")
		}
		return nil
	}
	f.done = true
	if _, live := u.files[f]; !live {
		// Abandon removed the file and its record already.
		f.File.Close()
		return ErrAbandoned
	}
	delete(u.files, f)
	tmp := f.File.Name()
	var err error
	if commit != nil {
		err = commit(tmp)
	}
	f.File.Close()
	os.Remove(tmp) // after a link, a failure or an abort (a rename moved it)
	if f.record != "" {
		os.Remove(f.record)
	}
	return err
}

// Abandon removes every unfinished export of this process and refuses new
// ones: the console is ending. A step still writing one then fails, and
// its Commit answers ErrAbandoned. It returns the files removed.
func Abandon() []string {
	u := unfinished
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed = true
	var removed []string
	for f := range u.files {
		delete(u.files, f)
		f.File.Close()
		if os.Remove(f.File.Name()) == nil {
			removed = append(removed, f.File.Name())
		}
		if f.record != "" {
			os.Remove(f.record)
		}
	}
	return removed
}

// Track keeps the journal of unfinished exports in dir (created 0700, the
// operator's) from now on, and removes what an earlier console left there:
// each recorded file still carrying its recorded name pattern, device,
// inode, owner and mark, whose console no longer runs. A record whose file is
// gone or is no longer that file is dropped, the file left alone. It
// returns the files removed.
func Track(dir string) (removed []string, err error) {
	if err := privfile.CheckDir(dir, "export journal", true); err != nil {
		return nil, err
	}
	u := unfinished
	u.mu.Lock()
	u.journal = dir
	u.mu.Unlock()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("export journal: %w", err)
	}
	var problems []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if base, ok := strings.CutSuffix(e.Name(), ".json.new"); ok {
			// A completed record a crash kept from its rename: the record
			// it was to replace names the same file.
			if pid, _ := strconv.Atoi(strings.SplitN(base, "-", 2)[0]); pid > 0 && pid != os.Getpid() && !alive(pid) {
				os.Remove(path)
			}
			continue
		}
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		part, err := sweepRecord(path)
		if part != "" {
			removed = append(removed, part)
		}
		if err != nil {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return removed, fmt.Errorf("export journal: %s", strings.Join(problems, "; "))
	}
	return removed, nil
}

// sweepRecord handles one record of the journal: it removes the file it
// names when that is safe, and the record unless its console still runs.
func sweepRecord(path string) (removed string, err error) {
	pid, _ := strconv.Atoi(strings.SplitN(filepath.Base(path), "-", 2)[0])
	if pid == os.Getpid() || (pid > 0 && alive(pid)) {
		return "", nil // a console running now: its export is its own
	}
	f, err := privfile.Open(path, os.O_RDONLY, "export journal record", privfile.Options{})
	if err != nil {
		return "", err
	}
	var rec journalRecord
	derr := json.NewDecoder(f).Decode(&rec)
	f.Close()
	if derr != nil || rec.PID != pid {
		// Not a record this code wrote: left for a person to look at.
		return "", fmt.Errorf("%s is not an export record", path)
	}
	defer os.Remove(path)
	fi, err := os.Lstat(rec.Part)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	dev, ino, uid, ok := identity(fi)
	if !ok || !fi.Mode().IsRegular() || !filepath.IsAbs(rec.Part) || !partName.MatchString(filepath.Base(rec.Part)) ||
		uid != rec.UID || uid != os.Getuid() {
		return "", nil // not the file recorded any more: not ours to remove
	}
	if rec.Ino == 0 {
		// The console died between writing the record and completing it:
		// the file was made (O_EXCL, under this random name) but nothing
		// written to it yet. Ours if it carries the mark; else only an
		// empty file is removed.
		if !marked(rec.Part, rec.Mark) && fi.Size() != 0 {
			return "", nil
		}
	} else if dev != rec.Dev || ino != rec.Ino || (rec.Mark != "" && !marked(rec.Part, rec.Mark)) {
		return "", nil
	}
	if err := os.Remove(rec.Part); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return rec.Part, nil
}
