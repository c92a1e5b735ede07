package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/ssostandin"
	"opsdeck/internal/termcells"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/uitest"
)

// ssoConsole is the console over the seeded world, signed in through
// the SSO profile corp-dev (the portal a stand-in, DynamoDB the real
// DynamoDB Local), loaded: it returns the timers armed.
func ssoConsole(t *testing.T, w world, now func() time.Time) (Model, []uitest.TimerMsg) {
	t.Helper()
	conn, err := data.Connect(context.Background(), data.ConnOptions{Profile: "corp-dev", Endpoint: ddblocal.TestEndpoint(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	o := w.options()
	o.Store, o.Conn, o.Theme, o.Timer = data.NewStore(conn, w.tables), conn, themes.Plain(), uitest.Timer
	if now != nil {
		o.Now = now
	}
	m := New(o)
	nm, sized := m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	m, res := uitest.Settle(t, nm.(Model), tea.Batch(sized, m.Init()))
	return m, res.Timers
}

// timersOf are the armed timers whose message has type T.
func timersOf[T any](timers []uitest.TimerMsg) []uitest.TimerMsg {
	var out []uitest.TimerMsg
	for _, tm := range timers {
		if _, ok := tm.Msg.(T); ok {
			out = append(out, tm)
		}
	}
	return out
}

// onScreen is the terminal's rows, joined, with runs of spaces made one.
func onScreen(t *testing.T, m Model) string {
	t.Helper()
	return words(strings.Join(terminalRows(t, m), " "))
}

// An expired SSO token: the pane says what to run, the message line says
// so and that the console will notice; the console reads the CLI's token
// cache every 2 s, and once the test writes a fresh token there (as `aws
// sso login` would) the pane is read again without a key, and the
// message line says so.
func TestSSOFreshTokenReloadsWithoutAKey(t *testing.T) {
	w := seeded(t)
	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	ssostandin.WriteToken(t, cache, "corp", "old", time.Now().Add(-time.Hour))
	m, timers := ssoConsole(t, w, nil)

	st := m.panes[m.active].Status()
	if !strings.HasPrefix(st.Err, "run aws sso login --sso-session corp") {
		t.Fatalf("pane error %q, want the command first", st.Err)
	}
	scr := onScreen(t, m)
	if !strings.Contains(scr, "signed out: run aws sso login --sso-session corp (or :login)") || !strings.Contains(scr, "the console reloads once signed in") {
		t.Fatalf("the screen does not say what to run and that the console will notice:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
	watch := timersOf[ssoWatchMsg](timers)
	if len(watch) != 1 || watch[0].After != ssoWatchEvery {
		t.Fatalf("watch timers %+v, want one of %s", watch, ssoWatchEvery)
	}

	// Still signed out: the watch goes on, nothing is read.
	m, res := uitest.Fire(t, m, watch)
	if n, _ := portal.Calls(); n != 0 {
		t.Fatalf("the portal was asked %d times with an expired token", n)
	}
	watch = timersOf[ssoWatchMsg](res.Timers)
	if len(watch) != 1 || m.panes[m.active].Status().Err == "" {
		t.Fatalf("after a check with no new token: watch %+v, pane %+v", watch, m.panes[m.active].Status())
	}

	ssostandin.WriteToken(t, cache, "corp", "fresh", time.Now().Add(8*time.Hour))
	m, res = uitest.Fire(t, m, watch)
	if st := m.panes[m.active].Status(); st.Err != "" || st.Rows == 0 {
		t.Fatalf("after the fresh token: pane %+v, want it read again", st)
	}
	if _, last := portal.Calls(); last != "fresh" {
		t.Errorf("the portal was given %q, want the fresh token", last)
	}
	if w := timersOf[ssoWatchMsg](res.Timers); len(w) != 0 {
		t.Errorf("the watch goes on after signing in: %+v", w)
	}
	if scr := onScreen(t, m); !strings.Contains(scr, "signed in again (SSO session corp) — reloading") {
		t.Fatalf("the screen does not say it signed in again:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
}

// :login with no token at all: the dialog shows the address, the code and
// the address with the code; the console polls at the interval asked,
// 5 s slower after slow_down; once approved the dialog closes, the cache
// file is written and the pane is read again. esc gives up: no more
// polls.
func TestLoginDialogSignsInAndReloads(t *testing.T) {
	w := seeded(t)
	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	oidc := ssostandin.NewOIDC(t, "pending", "slow_down", "ok")
	m, _ := ssoConsole(t, w, nil)
	if m.panes[m.active].Status().Err == "" {
		t.Fatal("no token, yet the pane loaded")
	}

	login := func(m Model) (Model, []uitest.TimerMsg) {
		m, _ = press(t, m, ":")
		m = typeText(t, m, "login")
		nm, cmd := m.Update(keyMsg("enter"))
		m, res := uitest.Settle(t, nm.(Model), cmd)
		return m, timersOf[loginPollMsg](res.Timers)
	}
	m, polls := login(m)
	if m.Mode() != "dialog" {
		t.Fatalf("mode %s after :login (message %q)", m.Mode(), m.Flash())
	}
	scr := squash(onScreen(t, m))
	for _, want := range []string{"https://device.sso.us-east-1.amazonaws.com/", "code:ABCD-EFGH",
		"https://device.sso.us-east-1.amazonaws.com/?user_code=ABCD-EFGH", "SSOsessioncorp", "esccancels"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, strings.Join(terminalRows(t, m), "\n"))
		}
	}
	var waits []time.Duration
	for len(polls) == 1 {
		waits = append(waits, polls[0].After)
		var res uitest.Result
		m, res = uitest.Fire(t, m, polls)
		polls = timersOf[loginPollMsg](res.Timers)
	}
	if want := []time.Duration{time.Second, time.Second, 6 * time.Second}; !equalDurations(waits, want) {
		t.Errorf("waits before each poll %v, want %v", waits, want)
	}
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "signed in (SSO session corp) — reloading") {
		t.Fatalf("after approval: mode %s, message %q", m.Mode(), m.Flash())
	}
	if st := m.panes[m.active].Status(); st.Err != "" || st.Rows == 0 {
		t.Fatalf("after :login the pane is %+v, want it read again", st)
	}
	if _, last := portal.Calls(); last != "device-token" {
		t.Errorf("portal given %q, want the token :login got", last)
	}
	if fi, err := os.Stat(ssostandin.TokenPath(cache, "corp")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v %v", fi, err)
	}

	// esc cancels: the poll timer that was armed asks nothing more.
	m, polls = login(m)
	before := len(oidc.Calls("/token"))
	m, _ = press(t, m, "esc")
	if m.Mode() != "normal" || m.Flash() != "login cancelled" {
		t.Fatalf("after esc: mode %s, message %q", m.Mode(), m.Flash())
	}
	uitest.Fire(t, m, polls)
	if after := len(oidc.Calls("/token")); after != before {
		t.Errorf("%d CreateToken calls after esc", after-before)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Credentials that expire in under 15 minutes show in the status bar
// ("creds 12m"), as a terminal draws it; farther off, nothing shows. The
// timer armed for the count-down is due when the minutes shown change.
func TestStatusBarShowsCredentialsExpiry(t *testing.T) {
	w := seeded(t)
	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	ssostandin.WriteToken(t, cache, "corp", "good", time.Now().Add(8*time.Hour))

	t.Run("an hour left", func(t *testing.T) {
		portal.Set(func(p *ssostandin.Portal) { p.Lifetime = time.Hour })
		m, timers := ssoConsole(t, w, time.Now)
		if st := m.panes[m.active].Status(); st.Err != "" {
			t.Fatal(st.Err)
		}
		if scr := onScreen(t, m); strings.Contains(scr, "creds ") {
			t.Errorf("an hour left, yet the status bar shows it:\n%s", scr)
		}
		ticks := timersOf[credsTickMsg](timers)
		if len(ticks) != 1 || ticks[0].After < 44*time.Minute || ticks[0].After > 45*time.Minute {
			t.Errorf("expiry timers %+v, want one due 15 minutes before expiry", ticks)
		}
	})
	t.Run("twelve minutes left", func(t *testing.T) {
		portal.Set(func(p *ssostandin.Portal) { p.Lifetime = 12 * time.Minute })
		now := time.Now()
		m, timers := ssoConsole(t, w, func() time.Time { return now })
		// A moment after the portal gave them: under 12 minutes left,
		// which reads "12m" (rounded up: never "0m" for ones that work).
		now = time.Now()
		rows := termcells.Draw(m.Render(), m.width, m.height).Lines()
		bar := rows[len(rows)-2]
		if !strings.Contains(bar, "creds 12m") {
			t.Fatalf("status bar %q, want creds 12m\n%s", bar, strings.Join(rows, "\n"))
		}
		ticks := timersOf[credsTickMsg](timers)
		if len(ticks) != 1 || ticks[0].After > time.Minute {
			t.Errorf("expiry timers %+v, want one within a minute (when 12m becomes 11m)", ticks)
		}
	})
}

// Credentials a few minutes from expiry are renewed on the count-down's
// timer, even with no key pressed; when that fails (the SSO token expired
// meanwhile) the message line says until when they work and what to run,
// and signing in again renews them at once.
func TestFailedRefreshSaysWhatToRun(t *testing.T) {
	w := seeded(t)
	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	portal.Lifetime = 3 * time.Minute
	ssostandin.WriteToken(t, cache, "corp", "good", time.Now().Add(time.Hour))
	m, timers := ssoConsole(t, w, time.Now)
	if text, urgent := m.credsText(); text != "3m" || !urgent {
		t.Fatalf("creds text %q urgent %v, want 3m in the error style", text, urgent)
	}
	n0, _ := portal.Calls()

	ssostandin.WriteToken(t, cache, "corp", "gone", time.Now().Add(-time.Minute))
	m, res := uitest.Fire(t, m, timersOf[credsTickMsg](timers))
	if n, _ := portal.Calls(); n != n0 {
		t.Fatalf("the portal was asked with an expired token (%d calls, %d before)", n, n0)
	}
	scr := onScreen(t, m)
	if !strings.Contains(scr, "the credentials of profile corp-dev expire in 3m and could not be renewed: run aws sso login --sso-session corp") {
		t.Fatalf("the screen does not say the renewal failed and what to run:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
	if st := m.panes[m.active].Status(); st.Err != "" {
		t.Errorf("the pane failed although its credentials still work: %s", st.Err)
	}

	portal.Set(func(p *ssostandin.Portal) { p.Lifetime = time.Hour })
	ssostandin.WriteToken(t, cache, "corp", "again", time.Now().Add(8*time.Hour))
	m, _ = uitest.Fire(t, m, timersOf[ssoWatchMsg](res.Timers))
	if _, last := portal.Calls(); last != "again" {
		t.Fatalf("after signing in again the portal was given %q", last)
	}
	if text, _ := m.credsText(); text != "" || !strings.Contains(m.Flash(), "signed in again") {
		t.Fatalf("after signing in again: creds %q, message %q", text, m.Flash())
	}
}

// A tail waiting for an SSO sign-in says what to run, in our words: the
// title the whole command, the status bar "tail signed out" once for
// every table (its 40 cells would cut the command), the Stream pane's
// status line the whole command once.
func TestTailSignedOutWording(t *testing.T) {
	m := New(Options{Now: func() time.Time { return fixedNow }, Timer: uitest.Timer})
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	m = nm.(Model)
	detail := stream.SignedOut + "run aws sso login --sso-session corp"
	m = batch(t, m, livefeed.BatchMsg{Health: []stream.Health{
		{Table: data.TableSessions, State: stream.StateReconnecting, Detail: detail},
		{Table: data.TableEvents, State: stream.StateReconnecting, Detail: detail},
	}})
	rows := terminalRows(t, m)
	if !strings.Contains(rows[1], "signed out: run aws sso login --sso-session corp") {
		t.Errorf("title %q", rows[1])
	}
	bar := rows[len(rows)-2]
	if !strings.Contains(bar, "tail signed out │") || strings.Count(bar, "signed out") != 1 {
		t.Errorf("status bar %q, want \"tail signed out\" once", bar)
	}
	if got := m.live.streamHealthLine(m.panes[m.active]); got != detail {
		t.Errorf("Stream pane's status line %q, want %q", got, detail)
	}
}
