package console

import (
	"os"
	"testing"
)

// noTmux ends a test that reads the screen through tmux on a machine
// without it: a skip where tmux is optional, a failure under make test
// (OPSDECK_REQUIRE_TMUX=1, after make test-deps installed it), so the
// terminal tests are never lost quietly.
func noTmux(t *testing.T, err error) {
	t.Helper()
	if os.Getenv("OPSDECK_REQUIRE_TMUX") == "" {
		t.Skipf("no tmux (set OPSDECK_REQUIRE_TMUX=1 to fail instead; make test does): %v", err)
	}
	t.Fatalf("needs tmux: %v", err)
}
