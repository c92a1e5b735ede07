package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ExistsError is the refusal to replace a file that exists.
type ExistsError struct{ Path string }

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s exists: not replaced", e.Path)
}

// NotRegularError is the refusal to write over anything but a regular
// file: a FIFO, a symbolic link, a device, a directory, a socket. Renaming
// an export over one would turn /dev/null (as root), a pipe another
// program reads or a link to a file elsewhere into a file of tenant data;
// overwrite does not change that.
type NotRegularError struct {
	Path string
	What string // "a FIFO", "a symbolic link to /proc/self/fd/1", …
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s: an export is written only to a regular file or a new name", e.Path, e.What)
}

// File is an export being written: a private temporary file beside the
// destination, which appears under its name only when complete (Commit),
// so a failed or cancelled export never leaves a partial file behind nor
// half-replaces an older one. Until then it is on the process's list of
// unfinished exports (unfinished.go), which quitting, a signal or the
// next start clears.
type File struct {
	*os.File
	Path      string // the destination, absolute
	overwrite bool
	done      bool
	record    string // its journal record, "" without one
}

// Resolve makes a path absolute, expanding a leading ~/.
func Resolve(path string) (string, error) {
	if path == "" {
		return "", errors.New("no file name")
	}
	if path == "~" || strings.HasPrefix(path, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		path = filepath.Join(home, path[1:])
	}
	return filepath.Abs(path)
}

// checkTarget says whether an export may be given the name abs: a free
// name always, a regular file only with overwrite (else *ExistsError),
// anything else never (*NotRegularError, whatever overwrite says).
func checkTarget(abs string, overwrite bool) error {
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: abs, What: kindOf(abs, fi)}
	}
	if !overwrite {
		return &ExistsError{Path: abs}
	}
	return nil
}

// kindOf names what a non-regular file is, for the refusal.
func kindOf(path string, fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		if to, err := os.Readlink(path); err == nil {
			return "a symbolic link to " + to
		}
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Create starts an export to path (see Resolve). A name that is not a
// regular file is refused at once (*NotRegularError); unless overwrite, so
// is an existing file (*ExistsError). Both are checked again at Commit,
// should something appear meanwhile. The file is created with mode 0600:
// an export holds tenant data.
func Create(path string, overwrite bool) (*File, error) {
	abs, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	// Checked before anything is created beside it.
	if err := checkTarget(abs, overwrite); err != nil {
		return nil, err
	}
	return unfinished.create(abs, overwrite)
}

// Commit closes the file and gives it its name: replacing a regular file
// that was there when overwrite was asked, else only if the name is still
// free. An export abandoned meanwhile (the console quitting) is gone and
// is not committed.
func (f *File) Commit() error {
	return unfinished.finish(f, func(tmp string) error {
		if err := f.File.Sync(); err != nil {
			return err
		}
		if err := f.File.Close(); err != nil {
			return err
		}
		if err := os.Chmod(tmp, 0o600); err != nil {
			return err
		}
		if err := checkTarget(f.Path, f.overwrite); err != nil {
			return err
		}
		if f.overwrite {
			// Checked just above: what is replaced is a regular file or
			// nothing (a special file planted in this instant would be
			// replaced; nothing closes that window short of not replacing).
			return os.Rename(tmp, f.Path)
		}
		// A hard link fails if the name was taken meanwhile: no race can
		// make this replace a file the operator did not name for it.
		if err := os.Link(tmp, f.Path); err != nil {
			if errors.Is(err, os.ErrExist) {
				return taken(f.Path)
			}
			// No hard links on this file system: check, then rename (the
			// check and the rename are not one step there).
			if _, serr := os.Lstat(f.Path); serr == nil {
				return taken(f.Path)
			}
			return os.Rename(tmp, f.Path)
		}
		return nil
	})
}

// taken is the refusal for a name found taken: what is there now.
func taken(abs string) error {
	if err := checkTarget(abs, false); err != nil {
		return err
	}
	return &ExistsError{Path: abs} // gone again since: taken all the same
}

// Abort drops the unfinished file.
func (f *File) Abort() {
	unfinished.finish(f, nil)
}
