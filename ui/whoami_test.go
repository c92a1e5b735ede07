package ui

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/uitest"
)

// whoamiSTS stands in for STS (which has no emulator): it answers
// GetCallerIdentity, or refuses when denied, and counts the calls.
type whoamiSTS struct {
	mu     sync.Mutex
	calls  int
	denied bool
}

func (s *whoamiSTS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	s.calls++
	denied := s.denied
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml")
	if denied {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `<ErrorResponse><Error><Type>Sender</Type><Code>ExpiredToken</Code><Message>The security token included in the request is expired</Message></Error><RequestId>1</RequestId></ErrorResponse>`)
		return
	}
	io.WriteString(w, `<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:sts::123456789012:assumed-role/OnCall/alice</Arn><UserId>AROAOPSDECKEXAMPLE1:alice</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`)
}

// whoamiConsole is the console, with no database, connected with the
// profile "oncall" (static keys in temp AWS files, or none when profile
// is ""), STS reached through AWS_ENDPOINT_URL_STS.
func whoamiConsole(t *testing.T, profile string) (Model, *whoamiSTS) {
	t.Helper()
	dir := t.TempDir()
	cfg, creds := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	if err := os.WriteFile(cfg, []byte("[profile oncall]\nregion = eu-west-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(creds, []byte("[oncall]\naws_access_key_id = AKIAOPSDECKPROFILE1\naws_secret_access_key = s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	for _, v := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		t.Setenv(v, "")
	}
	s := &whoamiSTS{}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_STS", srv.URL)
	conn, err := data.Connect(context.Background(), data.ConnOptions{Endpoint: "http://127.0.0.1:1", Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Conn: conn, Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
		Timer: uitest.Timer, Env: "dev"})
	nm, cmd := m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m, _ = settle(t, nm.(Model), cmd)
	return m, s
}

// :whoami shows, on the terminal, the identity STS gave, the profile,
// region and endpoint, where the credentials came from and that they do
// not expire.
func TestWhoAmIShowsTheIdentity(t *testing.T) {
	m, s := whoamiConsole(t, "oncall")
	m, _ = runLine(t, m, "whoami")
	screen := strings.Join(terminalRows(t, m), "\n")
	for _, want := range []string{
		"Who am I",
		"account      123456789012",
		"arn          arn:aws:sts::123456789012:assumed-role/OnCall/alice",
		"user id      AROAOPSDECKEXAMPLE1:alice",
		"profile      oncall",
		"region       eu-west-1",
		"endpoint     http://127.0.0.1:1",
		"credentials  shared credentials file " + os.Getenv("AWS_SHARED_CREDENTIALS_FILE"),
		"expires      does not expire",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	if s.calls != 1 {
		t.Errorf("STS was asked %d times, want 1", s.calls)
	}
	m, _ = press(t, m, "esc")
	if strings.Contains(strings.Join(terminalRows(t, m), "\n"), "Who am I") {
		t.Error("esc did not close the dialog")
	}
}

// On DynamoDB Local with no profile there is no AWS identity, and the
// dialog says so plainly without asking STS.
func TestWhoAmIOnDynamoDBLocal(t *testing.T) {
	m, s := whoamiConsole(t, "")
	m, _ = runLine(t, m, "whoami")
	screen := words(strings.Join(terminalRows(t, m), "\n"))
	if !strings.Contains(screen, "DynamoDB Local with dummy credentials: no AWS identity") {
		t.Errorf("the screen does not say there is no identity:\n%s", screen)
	}
	if s.calls != 0 {
		t.Errorf("STS was asked %d times on DynamoDB Local", s.calls)
	}
}

// A refusal is one clear line on the message line, and no dialog.
func TestWhoAmIErrorIsOneLine(t *testing.T) {
	m, s := whoamiConsole(t, "oncall")
	s.denied = true
	m, _ = runLine(t, m, "whoami")
	if m.mode == modeDialog {
		t.Fatal("a dialog opened for a refused call")
	}
	if !m.cmdErr || strings.Contains(m.flash, "\n") || !strings.Contains(m.flash, "whoami: STS GetCallerIdentity") || !strings.Contains(m.flash, "ExpiredToken") {
		t.Errorf("message %q (error %v): want one line naming STS and the refusal", m.flash, m.cmdErr)
	}
	screen := words(strings.Join(terminalRows(t, m), "\n"))
	if !strings.Contains(screen, "whoami: STS GetCallerIdentity") {
		t.Errorf("the terminal does not show the error:\n%s", screen)
	}
}

// Time left is to the minute, rounded up.
func TestMinutesText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "1m", 42 * time.Minute: "42m", 3*time.Hour + 5*time.Minute: "3h05m",
	} {
		if got := minutesText(d); got != want {
			t.Errorf("minutesText(%v) = %q, want %q", d, got, want)
		}
	}
}

// Credentials that expire say when, and how long is left; past it, that
// they have expired.
func TestWhoAmIExpiry(t *testing.T) {
	at := fixedNow.Add(42 * time.Minute)
	id := data.Identity{Account: "1", CanExpire: true, Expires: at, Source: "SSOProvider"}
	got := map[string]string{}
	for _, f := range whoamiFields(id, fixedNow, time.UTC) {
		got[f[0]] = f[1]
	}
	if want := at.UTC().Format("2006-01-02 15:04:05 MST") + " (in 42m)"; got["expires"] != want {
		t.Errorf("expires %q, want %q", got["expires"], want)
	}
	id.Expires = fixedNow.Add(-time.Second)
	for _, f := range whoamiFields(id, fixedNow, time.UTC) {
		if f[0] == "expires" && !strings.HasSuffix(f[1], "(expired)") {
			t.Errorf("expires %q after the fact", f[1])
		}
	}
}
