package ddblocal

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// tarballMB is the size of the pinned npm tarball, for the progress line.
const tarballMB = 55

// NpmCacheDir is npm's own cache for the install, inside opsdeck's cache.
func NpmCacheDir(cache string) string { return filepath.Join(cache, "npm") }

// reportDownload says, every second while npm fetches the tarball, how
// much has arrived: npm pack prints nothing until it is done, and the
// bytes it has written to its cache (ours, empty of this package before a
// first install) are the download's progress. On a terminal the line is
// rewritten in place; elsewhere a line every five seconds. The returned
// func stops it and ends the line.
func reportDownload(w io.Writer, npmCache string) (stop func()) {
	if w == nil {
		return func() {}
	}
	tty := isTerminal(w)
	start := time.Now()
	fmt.Fprintf(w, "downloading DynamoDB Local %d MB from npm (once; about 20 s)…", tarballMB)
	if !tty {
		fmt.Fprintln(w)
	}
	base := dirBytes(npmCache)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			got := float64(dirBytes(npmCache)-base) / (1 << 20)
			switch {
			case tty:
				fmt.Fprintf(w, "\rdownloading DynamoDB Local %d MB from npm (once; about 20 s)… %.0f MB", tarballMB, got)
			case n%5 == 0:
				fmt.Fprintf(w, "downloading DynamoDB Local… %.0f of %d MB (%s)\n", got, tarballMB, time.Since(start).Truncate(time.Second))
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		cr := ""
		if tty {
			cr = "\r"
		}
		fmt.Fprintf(w, "%sdownloaded DynamoDB Local in %s%s\n", cr, time.Since(start).Truncate(time.Second), clearLine(tty))
	}
}

// dirBytes is the size of the regular files under dir (0 when absent).
func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// clearLine erases the rest of a rewritten line on a terminal.
func clearLine(tty bool) string {
	if tty {
		return "\x1b[K"
	}
	return ""
}
