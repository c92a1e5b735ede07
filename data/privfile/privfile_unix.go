//go:build unix

package privfile

import (
	"fmt"
	"os"
	"syscall"
)

// O_NOFOLLOW makes opening a symbolic link fail; O_NONBLOCK (NonBlock:
// also for readers of such a file) keeps a FIFO planted in the file's place
// from blocking the open (regular files, all that is accepted afterwards,
// ignore it).
const (
	noFollow = syscall.O_NOFOLLOW
	NonBlock = syscall.O_NONBLOCK
)

// ownedByUser refuses a file or directory another user owns.
func ownedByUser(fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("owned by uid %d, not by you (uid %d)", st.Uid, uid)
	}
	return nil
}

func links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
