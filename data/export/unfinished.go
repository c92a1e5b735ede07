package export

import (
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
	// CreateTemp makes the file 0600.
	tf, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*.part")
	if err != nil {
		return nil, err
	}
	f := &File{File: tf, Path: abs, overwrite: overwrite}
	u.files[f] = struct{}{}
	if u.journal != "" {
		// Without its record a crash would leave the file for good: an
		// export that cannot be recorded is not started.
		rec, err := u.record(tf)
		if err != nil {
			delete(u.files, f)
			tf.Close()
			os.Remove(tf.Name())
			return nil, fmt.Errorf("export journal: %w", err)
		}
		f.record = rec
	}
	return f, nil
}

// record writes the journal's record of tf and returns its path.
func (u *registry) record(tf *os.File) (string, error) {
	fi, err := tf.Stat()
	if err != nil {
		return "", err
	}
	dev, ino, uid, ok := identity(fi)
	if !ok {
		return "", nil // no identity on this system: no record (unfinished_other.go)
	}
	u.seq++
	path := filepath.Join(u.journal, fmt.Sprintf("%d-%d.json", os.Getpid(), u.seq))
	b, _ := json.Marshal(journalRecord{Part: tf.Name(), Dev: dev, Ino: ino, UID: uid, PID: os.Getpid(), Mark: mark(tf)})
	rf, err := privfile.Open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, "export journal", privfile.Options{OneLink: true})
	if err != nil {
		return "", err
	}
	_, werr := rf.Write(append(b, '\n'))
	if err := rf.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		os.Remove(path)
		return "", werr
	}
	return path, nil
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
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
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
		dev != rec.Dev || ino != rec.Ino || uid != rec.UID || uid != os.Getuid() ||
		(rec.Mark != "" && !marked(rec.Part, rec.Mark)) {
		return "", nil // not the file recorded any more: not ours to remove
	}
	if err := os.Remove(rec.Part); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return rec.Part, nil
}
