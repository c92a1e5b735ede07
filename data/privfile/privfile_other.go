//go:build !unix

package privfile

import "os"

// Elsewhere there is no O_NOFOLLOW or owner to check through os; the
// directory and file checks that os offers still run.
const (
	noFollow = 0
	NonBlock = 0
)

func ownedByUser(os.FileInfo) error { return nil }

func links(os.FileInfo) uint64 { return 1 }
