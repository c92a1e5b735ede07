package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExistsError is the refusal to replace a file that exists.
type ExistsError struct{ Path string }

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s exists: not replaced", e.Path)
}

// File is an export being written: a private temporary file beside the
// destination, which appears under its name only when complete (Commit),
// so a failed or cancelled export never leaves a partial file behind nor
// half-replaces an older one.
type File struct {
	*os.File
	Path      string // the destination, absolute
	overwrite bool
	done      bool
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

// Create starts an export to path (see Resolve). Unless overwrite, an
// existing file (or anything else under that name) is refused at once
// with an *ExistsError, and again at Commit should one appear meanwhile.
// The file is created with mode 0600: an export holds tenant data.
func Create(path string, overwrite bool) (*File, error) {
	abs, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	if !overwrite {
		if _, err := os.Lstat(abs); err == nil {
			return nil, &ExistsError{Path: abs}
		}
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", abs)
	}
	// CreateTemp makes the file 0600.
	f, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*.part")
	if err != nil {
		return nil, err
	}
	return &File{File: f, Path: abs, overwrite: overwrite}, nil
}

// Commit closes the file and gives it its name: replacing what was there
// when overwrite was asked, else only if the name is still free.
func (f *File) Commit() error {
	if f.done {
		return errors.New("export already finished")
	}
	f.done = true
	tmp := f.File.Name()
	defer os.Remove(tmp) // after a link, or a failure
	if err := f.File.Sync(); err != nil {
		f.File.Close()
		return err
	}
	if err := f.File.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	if f.overwrite {
		return os.Rename(tmp, f.Path)
	}
	// A hard link fails if the name was taken meanwhile: no race can
	// make this replace a file the operator did not name for it.
	if err := os.Link(tmp, f.Path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return &ExistsError{Path: f.Path}
		}
		// No hard links on this file system: check, then rename (the
		// check and the rename are not one step there).
		if _, serr := os.Lstat(f.Path); serr == nil {
			return &ExistsError{Path: f.Path}
		}
		return os.Rename(tmp, f.Path)
	}
	return nil
}

// Abort drops the unfinished file.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}
