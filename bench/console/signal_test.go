//go:build linux

package console

import (
	"testing"
	"time"
)

// SIGTERM (kill, a closing session) ends the console cleanly and at once,
// whenever it comes. The program library's own handler used to race
// opsdeck's: when opsdeck's won, the library's blocked send hung the exit
// for good, about one time in three. Needs no database: the endpoint
// refuses, so the first page fails and the stream reader keeps retrying.
func TestSIGTERMEndsTheConsole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ops, _ := binaries(t)
	for i := 0; i < 10; i++ {
		c := launch(t, ops, "--endpoint-url", "http://127.0.0.1:1")
		if _, err := c.until(tabBar, time.Minute, "tab bar"); err != nil {
			t.Fatal(err)
		}
		c.stop() // SIGTERM; a hang fails the test with the goroutines
		if t.Failed() {
			return
		}
		if c.exitErr != nil {
			t.Fatalf("run %d: exit after SIGTERM: %v", i, c.exitErr)
		}
	}
}
