// Package privfile opens the files opsdeck keeps about its operator — the
// audit log, the command history — so that nobody else can read them and
// nothing planted in their place redirects them: the directory must be a
// real directory the operator owns (created 0700, tightened to 0700), and
// the file a regular file they own, 0600, opened without following a
// symbolic link and without blocking on a FIFO. Every message names the
// file by what it is ("audit log", "command history").
package privfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CheckDir refuses a directory that is a symbolic link, not a directory,
// or someone else's, and tightens its mode to 0700; with create it makes it
// (0700) first. A missing directory (without create) is an error that
// wraps fs.ErrNotExist.
func CheckDir(dir, what string, create bool) error {
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s directory %s is a symbolic link; opsdeck will not follow it (remove it, or set XDG_STATE_HOME)", what, dir)
	case !fi.IsDir():
		return fmt.Errorf("%s directory %s is not a directory", what, dir)
	}
	if err := ownedByUser(fi); err != nil {
		return fmt.Errorf("%s directory %s: %w", what, dir, err)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("%s directory %s is open to others and cannot be restricted: %w", what, dir, err)
		}
	}
	return nil
}

// Options say what Open demands beyond the defaults.
type Options struct {
	// OneLink refuses a file with more than one hard link: a link planted
	// in the directory would send what is written to another file too.
	OneLink bool
}

// Open opens path with flag (os.O_CREATE makes it 0600) without following
// a symbolic link or blocking on a FIFO, checks that what was opened is a
// regular file of the operator's, and restricts it to 0600. A missing file
// (without os.O_CREATE) is an error that wraps fs.ErrNotExist.
func Open(path string, flag int, what string, o Options) (*os.File, error) {
	f, err := os.OpenFile(path, flag|noFollow|NonBlock, 0o600)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s %s is a symbolic link; opsdeck will not follow it (remove it)", what, path)
		} else if lerr == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s %s is not a regular file", what, path)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s %s is not a regular file", what, path)
	}
	if err == nil {
		if oerr := ownedByUser(fi); oerr != nil {
			err = fmt.Errorf("%s %s: %w", what, path, oerr)
		}
	}
	if err == nil && o.OneLink && links(fi) > 1 {
		err = fmt.Errorf("%s %s has %d hard links; opsdeck writes only to a file of its own", what, path, links(fi))
	}
	if err == nil && fi.Mode().Perm()&0o077 != 0 {
		if cerr := f.Chmod(0o600); cerr != nil {
			err = fmt.Errorf("%s %s is readable by others and cannot be restricted: %w", what, path, cerr)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
