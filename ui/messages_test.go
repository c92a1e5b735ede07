package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/internal/termcells"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/uitest"
)

// terminalRows draws the model's frame into a real terminal emulator of
// its size and returns what the terminal shows, row by row.
func terminalRows(t *testing.T, m Model) []string {
	t.Helper()
	return termcells.Draw(m.Render(), m.width, m.height).Lines()
}

// words is s with its runs of spaces made one, for reading text wrapped
// over lines.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// squash is s without any white space: text wrapped at a hyphen reads
// the same as the text.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// offline is the console with no database, at w×h, with timers the test
// fires.
func offline(t *testing.T, w, h int) Model {
	t.Helper()
	m := New(Options{Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
		Timer: uitest.Timer, Env: "dev"})
	nm, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m, _ = settle(t, nm.(Model), cmd)
	return m
}

// A release's result names the session and the ECS task it stopped: the
// whole text, as long as it is, can be read on the terminal at 160×48 and
// at 80×24, beside the env; the status bar's parts that yield to it come
// back when it expires.
func TestMessageIsReadWhole(t *testing.T) {
	const msg = "released sess_CMdknWmQ2Vz6t1 ✓ · ECS task arn:aws:ecs:us-east-1:418295036614:task/wallcrawler-browsers/0f1e2d3c4b5a69788796a5b4c3d2e1f0 stopped (StopTask answered 12:03:04)"
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		m := offline(t, size[0], size[1])
		m.setFlash(msg, false)
		rows := terminalRows(t, m)
		bottom := strings.Join(rows[len(rows)-4:], "\n")
		if !strings.Contains(squash(bottom), squash(msg)) {
			t.Errorf("%dx%d: the message is not whole on the terminal:\n%s", size[0], size[1], bottom)
		}
		if !strings.Contains(bottom, "env dev │ released") {
			t.Errorf("%dx%d: the env gave way to a message:\n%s", size[0], size[1], bottom)
		}
		if !strings.HasPrefix(rows[0], " 1 Sess") || !strings.HasPrefix(rows[1], "Sessions") {
			t.Errorf("%dx%d: the message pushed the tab bar or title away:\n%s\n%s", size[0], size[1], rows[0], rows[1])
		}
		t.Logf("%dx%d:\n%s", size[0], size[1], bottom)
	}
}

// ctrl+c with nothing to cancel, and :env with no name: short answers are
// shown whole on the footer, the status bar untouched; the answer expires
// through its timer (never the wall clock), and :messages still has both,
// in full, with their times.
func TestMessagesExpireAndAreListed(t *testing.T) {
	m := offline(t, 160, 48)
	nm, cmd := m.Update(keyMsg("ctrl+c"))
	m, res := uitest.Settle(t, nm.(Model), cmd)
	rows := terminalRows(t, m)
	if got := rows[47]; !strings.Contains(got, "nothing to cancel (q quits)") {
		t.Fatalf("footer: %q", got)
	}
	if got := rows[46]; !strings.Contains(got, "│ at -") {
		t.Fatalf("a one-line message took the status bar: %q", got)
	}
	var expiry []uitest.TimerMsg
	for _, tm := range res.Timers {
		if _, ok := tm.Msg.(messageExpiredMsg); ok {
			expiry = append(expiry, tm)
		}
	}
	if len(expiry) != 1 || expiry[0].After != messageFor {
		t.Fatalf("expiry timers armed: %+v", res.Timers)
	}

	// A newer message is not cut short by the older one's timer.
	m, _ = runLine(t, m, "env")
	envAnswer := m.Flash()
	if envAnswer == "" || !strings.Contains(words(strings.Join(terminalRows(t, m)[46:], " ")), words(envAnswer)) {
		t.Fatalf(":env's answer %q not whole on screen:\n%s", envAnswer, strings.Join(terminalRows(t, m)[46:], "\n"))
	}
	m, _ = uitest.Fire(t, m, expiry)
	if m.Flash() != envAnswer {
		t.Fatalf("the first message's timer took the second off: %q", m.Flash())
	}

	// Its own timer does.
	nm, cmd = m.Update(keyMsg("ctrl+c"))
	m, res = uitest.Settle(t, nm.(Model), cmd)
	for _, tm := range res.Timers {
		if _, ok := tm.Msg.(messageExpiredMsg); ok {
			m, _ = uitest.Fire(t, m, []uitest.TimerMsg{tm})
		}
	}
	if m.Flash() != "" {
		t.Fatalf("expired, still shown: %q", m.Flash())
	}
	if got := terminalRows(t, m)[47]; strings.Contains(got, "nothing to cancel") || !strings.Contains(got, "? help") {
		t.Fatalf("after expiry the footer is not the key hints: %q", got)
	}

	m, _ = runLine(t, m, "messages")
	if m.Mode() != "dialog" {
		t.Fatalf(":messages did not open (mode %s, %q)", m.Mode(), m.Flash())
	}
	list := words(strings.Join(terminalRows(t, m), "\n"))
	stamp := fixedNow.Local().Format("15:04:05")
	for _, want := range []string{"3 messages", stamp + " nothing to cancel (q quits)", words(envAnswer)} {
		if !strings.Contains(list, want) {
			t.Errorf(":messages lacks %q:\n%s", want, strings.Join(terminalRows(t, m), "\n"))
		}
	}
	m, _ = press(t, m, "esc")
	if m.Mode() != "normal" {
		t.Fatalf("esc left :messages open (%s)", m.Mode())
	}
}

// :messages scrolls: forty messages at 80×24, the newest in view when it
// opens, the oldest reached with g.
func TestMessagesListScrolls(t *testing.T) {
	m := offline(t, 80, 24)
	for i := range 40 {
		m.setFlash("message number "+strconv.Itoa(i)+" of the session", i%3 == 0)
	}
	m, _ = runLine(t, m, "messages")
	screen := words(strings.Join(terminalRows(t, m), "\n"))
	if !strings.Contains(screen, "message number 39 of") || strings.Contains(screen, "message number 0 of") {
		t.Fatalf("opened away from the newest:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
	m, _ = press(t, m, "g")
	screen = words(strings.Join(terminalRows(t, m), "\n"))
	if !strings.Contains(screen, "message number 0 of") {
		t.Fatalf("g did not reach the oldest:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
}

// An SDK error is shown as the SDK wrote it: its words are not a secret.
func TestErrorMessageNotMaskedAsSecret(t *testing.T) {
	m := offline(t, 160, 48)
	const sdk = "connect dev: get credentials: failed to refresh cached credentials, no EC2 IMDS role found"
	m.setFlash(sdk, true)
	if got := strings.Join(terminalRows(t, m)[46:], " "); !strings.Contains(got, sdk) {
		t.Fatalf("the error is not shown as written:\n%s", got)
	}
	m.setFlash("connect dev: token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl rejected", true)
	if got := strings.Join(terminalRows(t, m)[46:], " "); strings.Contains(got, "eyJhbGci") {
		t.Fatalf("a token in an error is shown:\n%s", got)
	}
}

// A message longer than the lines it may take ends "… (:messages)", and
// the list has it whole.
func TestOverlongMessagePointsToTheList(t *testing.T) {
	m := offline(t, 80, 24)
	long := strings.Repeat("the task still runs: stop it by hand with the command given ", 12) + "END"
	m.setFlash(long, true)
	rows := terminalRows(t, m)
	if !strings.HasSuffix(strings.TrimRight(rows[23], " "), "… (:messages)") {
		t.Fatalf("the cut is not marked:\n%s", strings.Join(rows[16:], "\n"))
	}
	if !strings.HasPrefix(rows[0], " 1 Sess") || !strings.HasPrefix(rows[1], "Sessions") || !strings.Contains(rows[18], "env dev │ the task") {
		t.Fatalf("the message took more than its lines:\n%s", strings.Join(rows, "\n"))
	}
	m, _ = runLine(t, m, "messages")
	for range 5 {
		m, _ = press(t, m, "G")
	}
	if got := squash(strings.ReplaceAll(strings.Join(terminalRows(t, m), ""), "│", "")); !strings.Contains(got, "givenEND") {
		t.Fatalf(":messages does not have the end of it:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
}
