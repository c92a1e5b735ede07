package screen

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// In tmux, which measures rune by rune, a row with emoji in their emoji
// presentation (`☂️`, `⚠️`) and a keycap (`1️⃣`) keeps every column under its
// header: the console's layout gives each two cells, tmux draws each in one,
// and the screen writes their text form padded to two (issue 23: the row's
// later columns shifted one cell left per emoji). The frame is drawn by a
// copy of this test binary inside a private tmux server.

const tmuxHelperEnv = "OPSDECK_SCREEN_TMUX_HELPER"

var emojiRows = [][]string{{"NAME", "STATUS", "NOTE", "END"}, {"☂️ rain", "1️⃣ first", "⚠️ warn", "|"}, {"plain", "second", "ok", "|"}}

func emojiFrame(w, h int) string {
	var lines []string
	for _, r := range emojiRows {
		var b strings.Builder
		for _, c := range r {
			b.WriteString(c + strings.Repeat(" ", max(0, 12-ansi.StringWidth(c))))
		}
		lines = append(lines, b.String()+strings.Repeat(" ", max(0, w-ansi.StringWidth(b.String()))))
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// TestTmuxHelperDrawsTheEmojiFrame is the program the tmux test runs.
func TestTmuxHelperDrawsTheEmojiFrame(t *testing.T) {
	if os.Getenv(tmuxHelperEnv) == "" {
		t.Skip("run by TestEmojiRowStaysAlignedInTmux inside tmux")
	}
	s := newScreen(Options{Out: os.Stdout, Width: 60, Height: 4, Profile: colorprofile.ANSI256, Env: os.Environ()})
	s.Show(emojiFrame(60, 4), "")
	s.draw()
}

func TestEmojiRowStaysAlignedInTmux(t *testing.T) {
	if os.Getenv(tmuxHelperEnv) != "" {
		t.Skip("the helper's own run")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		noTmux(t, err)
	}
	sock := fmt.Sprintf("opsdeck-screen-test-%d", os.Getpid())
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return string(out), err
	}
	defer tmux("kill-server")
	// The helper draws, then the pane's shell says so (wait-for) and holds
	// the pane open (cat reads the pane's input until the server goes).
	cmd := fmt.Sprintf("%s=1 %q -test.run '^TestTmuxHelperDrawsTheEmojiFrame$' >/dev/tty; tmux -L %s wait-for -S drawn; exec cat", tmuxHelperEnv, os.Args[0], sock)
	if out, err := tmux("new-session", "-d", "-s", "emoji", "-x", "60", "-y", "4", "sh", "-c", cmd); err != nil {
		t.Fatalf("tmux new-session: %v %s", err, out)
	}
	if out, err := tmux("wait-for", "drawn"); err != nil {
		t.Fatalf("tmux wait-for: %v %s", err, out)
	}
	shown, err := tmux("capture-pane", "-p", "-t", "emoji")
	if err != nil {
		t.Fatalf("capture-pane: %v %s", err, shown)
	}
	lines := strings.Split(shown, "\n")
	// tmux's columns: widths added rune by rune.
	col := func(line, sub string) int {
		i := strings.Index(line, sub)
		if i < 0 {
			return -1
		}
		return ansi.WcWidth.StringWidth(line[:i])
	}
	if len(lines) < 3 {
		t.Fatalf("tmux shows %q", shown)
	}
	want := col(lines[0], "END")
	for _, l := range lines[1:3] {
		if got := col(l, "|"); got != want {
			t.Errorf("in tmux the row %q has its last column at %d, its header at %d\nscreen:\n%s", l, got, want, shown)
		}
	}
}
