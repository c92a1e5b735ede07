//go:build unix

package export

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// markAttr is the extended attribute that marks a .part as opsdeck's, with
// a token only its journal record knows: an inode number can be reused by
// a file made after ours was removed, the token cannot.
const markAttr = "user.opsdeck.export"

// setMark sets token on f; false where the file system keeps no user
// attributes (the record then relies on name, inode and owner).
func setMark(f *os.File, token string) bool {
	return unix.Fsetxattr(int(f.Fd()), markAttr, []byte(token), 0) == nil
}

// marked says whether the file at path (not followed) carries token.
func marked(path, token string) bool {
	buf := make([]byte, 64)
	n, err := unix.Lgetxattr(path, markAttr, buf)
	return err == nil && string(buf[:n]) == token
}

// haveIdentity: files have a device, inode and owner here, so the
// journal can tell them apart.
const haveIdentity = true

// identity is what tells a file recorded in the journal from another that
// took its name since: its device and inode, and its owner.
func identity(fi fs.FileInfo) (dev, ino uint64, uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), int(st.Uid), true
}

// alive says whether a process pid runs (possibly another user's: EPERM).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
