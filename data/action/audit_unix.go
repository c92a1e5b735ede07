//go:build unix

package action

import (
	"fmt"
	"os"
	"syscall"
)

// O_NOFOLLOW makes opening a symbolic link fail; O_NONBLOCK keeps a FIFO
// planted in the log's place from blocking the open (it has no effect on a
// regular file, which is all that is accepted afterwards).
const (
	noFollow = syscall.O_NOFOLLOW
	noBlock  = syscall.O_NONBLOCK
)

// ownedByUser refuses a file or directory another user owns: they could
// read the log, or swap it.
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
