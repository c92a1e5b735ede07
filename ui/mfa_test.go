package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/ststest"
	"opsdeck/ui/history"
	"opsdeck/ui/uitest"
)

const (
	mfaRoleARN = "arn:aws:iam::123456789012:role/OnCall"
	mfaSerial  = "arn:aws:iam::123456789012:mfa/alice"
	goodCode   = "482913"
	wrongCode  = "555555"
)

// mfaRig is the console over the seeded world, connected as the profile
// "oncall": a role with mfa_serial assumed from static keys (AWS files in a
// temp dir), STS the recording stand-in, the reads DynamoDB Local's.
type mfaRig struct {
	live    *uitest.Live[Model]
	sts     *ststest.Server
	conn    *data.Conn
	prompts *MFAPrompts
	histAt  string
	debug   *bytes.Buffer
	// accepted counts the console's messages that STS took a code (the
	// live loop's goroutine, the test's, is the only one to touch it).
	accepted int
}

func newMFARig(t *testing.T, lifetimes ...time.Duration) *mfaRig {
	t.Helper()
	w := seeded(t)
	ep := ddblocal.TestEndpoint(t)
	dir := t.TempDir()
	cfg, creds := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	profiles := "[profile base]\nregion = us-east-1\n\n[profile oncall]\nrole_arn = " + mfaRoleARN +
		"\nsource_profile = base\nmfa_serial = " + mfaSerial + "\nregion = us-east-1\n"
	if err := os.WriteFile(cfg, []byte(profiles), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(creds, []byte("[base]\naws_access_key_id = AKIABASESOURCE1\naws_secret_access_key = base-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	for _, v := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		t.Setenv(v, "")
	}
	st := ststest.Start(t)
	st.Set(func(s *ststest.Server) { s.Serial, s.Code, s.Lifetimes = mfaSerial, goodCode, lifetimes })

	r := &mfaRig{sts: st, prompts: &MFAPrompts{}, debug: &bytes.Buffer{}}
	conn, err := data.Connect(context.Background(), data.ConnOptions{Profile: "oncall", Endpoint: ep, MFA: r.prompts, DebugLog: r.debug})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	r.conn = conn
	r.histAt = filepath.Join(dir, "state", "opsdeck", "history")
	hist, lines, err := history.Open(r.histAt)
	if err != nil {
		t.Fatal(err)
	}
	o := w.options()
	o.Store, o.Conn = data.NewStore(conn, w.tables), displayConn(conn)
	o.Timer = uitest.Timer
	o.History, o.HistoryLines = hist, lines
	o.DebugLog = r.debug
	o.MFA = r.prompts
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r.live = uitest.NewLive(ctx, New(o))
	r.live.Seen = func(msg tea.Msg) {
		if _, ok := msg.(mfaAcceptedMsg); ok {
			r.accepted++
		}
	}
	// As main does: the first page's query goes out before the program
	// runs, and its ask for a code waits for the program.
	r.live.Start(120, 32)
	r.prompts.Attach(r.live.Send)
	return r
}

func (r *mfaRig) m() Model { return r.live.Model }

// dialogText is the text inside the dialog's box on the terminal, its
// lines joined: wrapped sentences read whole.
func (r *mfaRig) dialogText(t *testing.T) string {
	t.Helper()
	var parts []string
	for _, row := range terminalRows(t, r.m()) {
		i, j := strings.Index(row, "│ "), strings.LastIndex(row, " │")
		if i >= 0 && j > i {
			parts = append(parts, row[i+len("│ "):j])
		}
	}
	return words(strings.Join(parts, " "))
}

func (r *mfaRig) screen(t *testing.T) string {
	t.Helper()
	return strings.Join(terminalRows(t, r.m()), "\n")
}

// waitAsk waits until the code dialog is open.
func (r *mfaRig) waitAsk(t *testing.T, what string) {
	t.Helper()
	r.live.Until(t, 20*time.Second, what, func() bool { return len(r.m().mfa) > 0 }, func() string { return r.screen(t) })
}

func (r *mfaRig) keys(keys ...string) {
	for _, k := range keys {
		r.live.Update(keyMsg(k))
	}
}

func (r *mfaRig) typeCode(code string) {
	for _, c := range code {
		r.keys(string(c))
	}
}

// waitRows waits until the shown pane has rows and no error.
func (r *mfaRig) waitRows(t *testing.T) {
	t.Helper()
	r.live.Until(t, 20*time.Second, "the first page", func() bool {
		st := r.m().panes[r.m().active].Status()
		return st.Rows > 0 && st.Err == "" && !st.Loading && len(r.m().mfa) == 0
	}, func() string { return r.screen(t) })
}

// At start the code is asked for in a dialog over the panes (naming the
// profile, role and device; typed digits shown as dots, never as digits,
// and not taken as pane keys); a wrong code is refused by STS and the
// dialog says so and asks again; the right one loads the first page. The
// code reaches neither the command history file, nor the messages, nor
// the debug log.
func TestMFADialogAtStartWrongThenRight(t *testing.T) {
	r := newMFARig(t)
	r.waitAsk(t, "the MFA dialog at start")
	screen := r.dialogText(t) + " " + words(r.screen(t))
	for _, want := range []string{"MFA code", "Profile oncall assumes role " + mfaRoleARN, "MFA device " + mfaSerial, "code ······", "esc gives up"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, r.screen(t))
		}
	}
	active := r.m().active
	r.typeCode(wrongCode[:3])
	if screen := r.screen(t); !strings.Contains(screen, "code  ●●●···") || strings.Contains(screen, wrongCode[:3]) {
		t.Errorf("three digits typed: want three dots and no digits:\n%s", screen)
	}
	r.typeCode(wrongCode[3:])
	r.keys("enter")
	r.live.Until(t, 20*time.Second, "the ask after a wrong code", func() bool {
		return len(r.m().mfa) > 0 && r.m().mfa[0].req.Refused != ""
	}, func() string { return r.screen(t) })
	screen = r.dialogText(t)
	if !strings.Contains(screen, "STS refused the last code: MultiFactorAuthentication failed with invalid MFA one time pass code.") || !strings.Contains(screen, "code ······") {
		t.Errorf("after a wrong code the dialog does not say so, empty:\n%s", r.screen(t))
	}
	r.typeCode(goodCode)
	r.keys("enter")
	r.waitRows(t)
	if r.m().active != active {
		t.Errorf("the digits switched panes (%d → %d)", active, r.m().active)
	}
	if strings.Contains(r.screen(t), "MFA code ") && strings.Contains(r.screen(t), "esc gives up") {
		t.Errorf("the dialog is still shown:\n%s", r.screen(t))
	}
	if !strings.Contains(r.m().Flash(), "MFA code accepted for profile oncall") {
		t.Errorf("message %q", r.m().Flash())
	}
	calls := r.sts.Calls()
	if len(calls) != 2 || calls[0].Code != wrongCode || calls[1].Code != goodCode || calls[1].Serial != mfaSerial {
		t.Errorf("STS calls %+v", calls)
	}

	// A command goes to the history file; the codes never do, nor to the
	// messages or the debug log.
	for _, k := range []string{":", "m", "e", "s", "s", "a", "g", "e", "s", "enter"} {
		r.keys(k)
	}
	r.live.Until(t, 10*time.Second, "the history write", func() bool {
		b, _ := os.ReadFile(r.histAt)
		return strings.Contains(string(b), "messages")
	})
	b, _ := os.ReadFile(r.histAt)
	var logged []string
	for _, e := range r.m().msgs.entries {
		logged = append(logged, e.Text)
	}
	for _, code := range []string{wrongCode, goodCode} {
		for where, text := range map[string]string{"history file": string(b), "debug log": r.debug.String(),
			"messages": strings.Join(logged, "\n"), "command history": strings.Join(r.m().history, "\n"), "screen": r.screen(t)} {
			if strings.Contains(text, code) {
				t.Errorf("the code %s reached the %s", code, where)
			}
		}
	}
}

// esc gives up: the console keeps running, the message line and the pane
// say how to be asked again (r). Other reads meanwhile (another pane's
// first page) fail at once without opening the dialog again; r asks again
// and the right code loads.
func TestMFAGiveUpThenRetry(t *testing.T) {
	r := newMFARig(t)
	r.waitAsk(t, "the MFA dialog")
	r.typeCode("12")
	r.keys("esc")
	r.live.Until(t, 20*time.Second, "the pane's error", func() bool {
		return r.m().panes[r.m().active].Status().Err != ""
	}, func() string { return r.screen(t) })
	if r.m().quitting {
		t.Fatal("the console quit")
	}
	screen := words(r.screen(t))
	if !strings.Contains(screen, "no MFA code given for profile oncall: r asks for it again") {
		t.Errorf("the screen does not say how to retry:\n%s", r.screen(t))
	}
	first := r.m().active
	r.keys("2")
	r.live.Until(t, 20*time.Second, "the Runs pane's error", func() bool {
		return r.m().active != first && r.m().panes[r.m().active].Status().Err != ""
	}, func() string { return r.screen(t) })
	if len(r.m().mfa) != 0 {
		t.Fatalf("the dialog opened again without r:\n%s", r.screen(t))
	}
	if got := r.m().panes[r.m().active].Status().Err; !strings.Contains(got, "no MFA code given for profile oncall") {
		t.Errorf("the Runs pane says %q", got)
	}
	if n := len(r.sts.Calls()); n != 0 {
		t.Errorf("STS called %d times", n)
	}
	r.keys("r")
	r.waitAsk(t, "the ask after r")
	r.typeCode(goodCode)
	r.keys("enter")
	r.waitRows(t)
}

// The role's credentials expiring mid-session ask again: the stand-in's
// first credentials live less than the refresh window, so the next read
// (the pane's quota count, or r) needs a new code, and the dialog says
// why.
func TestMFAAskedAgainMidSession(t *testing.T) {
	r := newMFARig(t, 30*time.Second, time.Hour)
	r.waitAsk(t, "the MFA dialog")
	r.typeCode(goodCode)
	r.keys("enter")
	r.live.Until(t, 20*time.Second, "the first page", func() bool {
		return r.m().panes[r.m().active].Status().Rows > 0
	}, func() string { return r.screen(t) })
	if len(r.m().mfa) == 0 {
		r.keys("r")
	}
	r.waitAsk(t, "the ask after expiry")
	if screen := r.dialogText(t); !strings.Contains(screen, "The role's credentials have expired: a new code is needed.") {
		t.Errorf("the dialog does not say the credentials expired:\n%s", r.screen(t))
	}
	r.typeCode(goodCode)
	r.keys("enter")
	r.live.Until(t, 20*time.Second, "the second code accepted", func() bool { return r.accepted == 2 })
	r.waitRows(t)
	// Fresh for an hour: another read asks nothing.
	r.keys("r")
	r.waitRows(t)
	if n := len(r.sts.Calls()); n != 2 {
		t.Errorf("STS calls %d, want 2", n)
	}
}

// A connection closed while its code is asked for (an env switch, the
// console quitting) takes its dialog away.
func TestMFADialogGoesWithItsConnection(t *testing.T) {
	r := newMFARig(t)
	r.waitAsk(t, "the MFA dialog")
	r.conn.Close()
	r.live.Until(t, 20*time.Second, "the dialog to go", func() bool { return len(r.m().mfa) == 0 }, func() string { return r.screen(t) })
}

// Digits only, six at most; a paste's digits are taken.
func TestMFADigits(t *testing.T) {
	for _, c := range []struct{ typed, text, want, note string }{
		{"", "123 456", "123456", ""},
		{"12", "x", "12", "the code is digits only"},
		{"12345", "678", "123456", ""},
	} {
		got, note := mfaDigits(c.typed, c.text)
		if got != c.want || note != c.note {
			t.Errorf("mfaDigits(%q, %q) = %q, %q; want %q, %q", c.typed, c.text, got, note, c.want, c.note)
		}
	}
	m := offline(t, 80, 24)
	reply := make(chan mfaReply, 1)
	nm, _ := m.Update(mfaPromptMsg{id: 1, req: data.MFARequest{Profile: "p", RoleARN: "r", Serial: "s"}, reply: reply})
	nm, _ = nm.Update(tea.PasteMsg{Content: "987 654\n"})
	nm, _ = nm.Update(keyMsg("enter"))
	if got := <-reply; got.code != "987654" || got.err != nil {
		t.Errorf("pasted code sent as %+v", got)
	}
}

// An ask made before the program runs (the first page's query goes out
// first) waits and reaches the program once attached; an ask whose
// connection ends is withdrawn after it, in order.
func TestMFAPromptsQueueUntilAttached(t *testing.T) {
	p := &MFAPrompts{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Code(ctx, data.MFARequest{Profile: "oncall"})
		done <- err
	}()
	// The ask is queued (no program yet): wait until it is, through the
	// lock, not the clock.
	for queued := false; !queued; {
		p.mu.Lock()
		queued = len(p.queue) == 1
		p.mu.Unlock()
		if !queued {
			runtime.Gosched()
		}
	}
	got := make(chan tea.Msg, 4)
	p.Attach(func(msg tea.Msg) { got <- msg })
	ask, ok := (<-got).(mfaPromptMsg)
	if !ok || ask.req.Profile != "oncall" {
		t.Fatalf("first message %+v", ask)
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("Code returned no error after its context ended")
	}
	if w, ok := (<-got).(mfaWithdrawnMsg); !ok || w.id != ask.id {
		t.Fatalf("second message %+v, want the ask withdrawn", w)
	}
}

// The dialog fits any screen: at 80×24 the whole question and the code
// line show; smaller ones draw without panicking and keep the keys hint.
func TestMFADialogSizes(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 10}, {12, 5}, {1, 1}} {
		m := offline(t, size[0], size[1])
		nm, _ := m.Update(mfaPromptMsg{id: 1, req: data.MFARequest{Profile: "oncall", RoleARN: mfaRoleARN, Serial: mfaSerial, Refused: "MultiFactorAuthentication failed"}, reply: make(chan mfaReply, 1)})
		nm, _ = nm.Update(keyMsg("4"))
		rows := terminalRows(t, nm.(Model))
		screen := strings.Join(rows, "\n")
		if size == [2]int{80, 24} {
			for _, want := range []string{"MFA code", "code  ●·····", "STS refused the last code"} {
				if !strings.Contains(screen, want) {
					t.Errorf("80×24 lacks %q:\n%s", want, screen)
				}
			}
		}
		if size[0] < 40 {
			continue
		}
		codeLine := ""
		for _, r := range rows {
			if strings.Contains(r, "code  ") {
				codeLine = r
			}
		}
		if !strings.Contains(codeLine, "●·····") || strings.ContainsAny(codeLine, "0123456789") {
			t.Errorf("%v: the code line %q, want one dot and no digit:\n%s", size, codeLine, screen)
		}
	}
}
