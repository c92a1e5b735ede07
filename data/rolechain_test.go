package data

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/demo/ddblocal"
	"opsdeck/internal/ststest"
)

const (
	mfaRole   = "arn:aws:iam::123456789012:role/OnCall"
	mfaDevice = "arn:aws:iam::123456789012:mfa/alice"
)

// roleFiles writes the AWS files of a temp home: config holds the
// profiles given (plus "base" with static keys in the credentials file),
// and points the SDK at them alone.
func roleFiles(t *testing.T, profiles string) string {
	t.Helper()
	dir := t.TempDir()
	cfg, creds := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	if err := os.WriteFile(cfg, []byte("[profile base]\nregion = us-east-1\n\n"+profiles), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(creds, []byte("[base]\naws_access_key_id = AKIABASESOURCE1\naws_secret_access_key = base-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", dir)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_DYNAMODB_STREAMS"} {
		t.Setenv(k, "")
	}
	return dir
}

const mfaProfile = `[profile oncall]
role_arn = ` + mfaRole + `
source_profile = base
mfa_serial = ` + mfaDevice + `
region = us-east-1
`

// asked is one Code call of fakePrompt: the request and where to answer.
type asked struct {
	req    MFARequest
	answer chan<- promptAnswer
}

type promptAnswer struct {
	code string
	err  error
}

// fakePrompt hands every ask to the test through asks and waits for the
// test's answer, or for ctx to end, as the console's prompt does.
type fakePrompt struct {
	asks chan asked

	mu       sync.Mutex
	accepted []MFARequest
}

func newFakePrompt() *fakePrompt { return &fakePrompt{asks: make(chan asked)} }

func (f *fakePrompt) Code(ctx context.Context, req MFARequest) (string, error) {
	ans := make(chan promptAnswer, 1)
	select {
	case f.asks <- asked{req, ans}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	select {
	case a := <-ans:
		return a.code, a.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (f *fakePrompt) Accepted(req MFARequest, _ time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.accepted = append(f.accepted, req)
}

func (f *fakePrompt) acceptedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.accepted)
}

// next waits for the next ask (bounded, so a missing ask fails rather
// than hangs the test).
func (f *fakePrompt) next(t *testing.T) asked {
	t.Helper()
	select {
	case a := <-f.asks:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no MFA code was asked for")
		return asked{}
	}
}

// listTables runs one call in the background: its error arrives on the
// channel.
func listTables(conn *Conn) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{Limit: awsInt32(1)})
		done <- err
	}()
	return done
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the call did not return")
		return nil
	}
}

// A role with mfa_serial asks for the code (profile, role and device
// named); STS refuses a wrong one and the operator is asked again, told
// why; the right one gives the role's keys, which sign the read of the
// real DynamoDB Local. STS saw the device and each code, signed with the
// source profile's keys.
func TestMFARoleAsksAgainAfterAWrongCode(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	roleFiles(t, mfaProfile)
	st := ststest.Start(t)
	st.Set(func(s *ststest.Server) { s.Serial, s.Code = mfaDevice, "123456" })
	prompt := newFakePrompt()
	rec := &signedAs{}
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: ep, MFA: prompt, HTTPClient: &http.Client{Transport: rec}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	done := listTables(conn)

	a := prompt.next(t)
	if a.req.Profile != "oncall" || a.req.RoleARN != mfaRole || a.req.Serial != mfaDevice || a.req.Refused != "" || a.req.Again {
		t.Errorf("first ask: %+v", a.req)
	}
	a.answer <- promptAnswer{code: "000000"}
	a = prompt.next(t)
	if !strings.Contains(a.req.Refused, "MultiFactorAuthentication failed") || a.req.Again {
		t.Errorf("after a wrong code: %+v, want STS's refusal", a.req)
	}
	a.answer <- promptAnswer{code: "123456"}
	if err := wait(t, done); err != nil {
		t.Fatalf("the read with the role's credentials: %v", err)
	}
	calls := st.Calls()
	if len(calls) != 2 {
		t.Fatalf("STS calls: %+v, want two AssumeRole", calls)
	}
	for i, want := range []string{"000000", "123456"} {
		c := calls[i]
		if c.Action != "AssumeRole" || c.RoleARN != mfaRole || c.Serial != mfaDevice || c.Code != want || c.SignedWith != "AKIABASESOURCE1" {
			t.Errorf("STS call %d: %+v", i, c)
		}
	}
	rec.mu.Lock()
	keys := append([]string(nil), rec.keys...)
	rec.mu.Unlock()
	if len(keys) == 0 || keys[len(keys)-1] != calls[1].IssuedKey {
		t.Errorf("DynamoDB was signed with %v, want the role's key %s", keys, calls[1].IssuedKey)
	}
	if prompt.acceptedCount() != 1 {
		t.Errorf("Accepted told %d times, want 1", prompt.acceptedCount())
	}

	// Cached: the next read asks nothing.
	if err := wait(t, listTables(conn)); err != nil {
		t.Fatal(err)
	}
	if n := len(st.Calls()); n != 2 {
		t.Errorf("a second read called STS (%d calls)", n)
	}
}

// Giving up fails the call with an MFAError that says how to be asked
// again, and the next call (r) asks again rather than remembering it.
func TestMFAGiveUpSaysHowToRetry(t *testing.T) {
	roleFiles(t, mfaProfile)
	st := ststest.Start(t)
	st.Set(func(s *ststest.Server) { s.Serial, s.Code = mfaDevice, "123456" })
	prompt := newFakePrompt()
	// Never reached: the credentials fail first.
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: "http://127.0.0.1:9", MFA: prompt})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	done := listTables(conn)
	prompt.next(t).answer <- promptAnswer{err: ErrMFAGivenUp}
	err = wait(t, done)
	var mfa *MFAError
	if !errors.As(err, &mfa) {
		t.Fatalf("after giving up: %v, want an MFAError", err)
	}
	if got, want := Describe(err), `no MFA code given for profile oncall: r asks for it again`; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if n := len(st.Calls()); n != 0 {
		t.Errorf("STS was called %d times without a code", n)
	}
	done = listTables(conn)
	a := prompt.next(t)
	if a.req.Refused != "" {
		t.Errorf("the ask after giving up: %+v", a.req)
	}
	a.answer <- promptAnswer{err: ErrMFAGivenUp}
	wait(t, done)
}

// The role's credentials expiring mid-session ask for a code again (Again
// set); fresh ones do not. The stand-in's first answer lives less than the
// refresh window, so it is stale at once: no clock is waited on.
func TestMFAAskedAgainWhenTheRoleExpires(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	roleFiles(t, mfaProfile)
	st := ststest.Start(t)
	st.Set(func(s *ststest.Server) {
		s.Serial, s.Code = mfaDevice, "123456"
		s.Lifetimes = []time.Duration{roleExpiryWindow / 2, time.Hour}
	})
	prompt := newFakePrompt()
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: ep, MFA: prompt})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	done := listTables(conn)
	a := prompt.next(t)
	a.answer <- promptAnswer{code: "123456"}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	done = listTables(conn)
	a = prompt.next(t)
	if !a.req.Again || a.req.Refused != "" {
		t.Errorf("the ask after expiry: %+v, want Again", a.req)
	}
	a.answer <- promptAnswer{code: "123456"}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, listTables(conn)); err != nil {
		t.Fatal(err)
	}
	if n := len(st.Calls()); n != 2 {
		t.Errorf("STS calls %d, want 2 (fresh credentials are kept)", n)
	}
}

// Closing the connection while the code is asked for ends the ask (the
// prompt's context) and fails the call saying so.
func TestMFAAskEndsWithTheConnection(t *testing.T) {
	roleFiles(t, mfaProfile)
	ststest.Start(t)
	prompt := newFakePrompt()
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: "http://127.0.0.1:9", MFA: prompt})
	if err != nil {
		t.Fatal(err)
	}
	done := listTables(conn)
	prompt.next(t) // asked, never answered
	conn.Close()
	err = wait(t, done)
	var mfa *MFAError
	if !errors.As(err, &mfa) || !strings.Contains(err.Error(), "connection was closed") {
		t.Errorf("after Close: %v", err)
	}
}

// With no prompter (a command without the console) the role fails at the
// call, not at Connect, saying no one can be asked.
func TestMFAWithoutPrompter(t *testing.T) {
	roleFiles(t, mfaProfile)
	ststest.Start(t)
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatalf("Connect: %v (an MFA role must load)", err)
	}
	defer conn.Close()
	err = wait(t, listTables(conn))
	if !strings.Contains(Describe(err), "no MFA code for profile oncall: no one to ask") {
		t.Errorf("Describe = %q", Describe(err))
	}
}

// A role whose source profile runs a credential_process: the helper runs
// away from the terminal (its stdin is not ours, its stderr is heard, not
// written to ours), its keys sign AssumeRole, and the role's keys read
// the real DynamoDB Local. A helper that fails is named with its last
// stderr line, and runs again on the next call (r), which then succeeds.
func TestRoleOverCredentialProcessSource(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	dir := t.TempDir()
	helper, count := filepath.Join(dir, "helper.sh"), filepath.Join(dir, "runs")
	script := fmt.Sprintf(`#!/bin/sh
IFS= read -r line; rc=$?
echo run >> %s
printf 'stdin=[%%s] rc=%%s\n' "$line" "$rc" >&2
if [ "$(wc -l < %s)" -eq 1 ]; then printf '\033]0;pwned\007token expired: run helper login\n' >&2; exit 3; fi
printf '{"Version":1,"AccessKeyId":"AKIDSOURCEHELPER","SecretAccessKey":"helper-secret"}\n'
`, count, count)
	if err := os.WriteFile(helper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	roleFiles(t, fmt.Sprintf(`[profile vault]
credential_process = %s --token s3cr3t
region = us-east-1

[profile oncall]
role_arn = %s
source_profile = vault
region = us-east-1
`, helper, mfaRole))
	st := ststest.Start(t)
	ourStderr := swapStdio(t)
	var heard outputs
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: ep, OnCredentialProcess: heard.add})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	err = wait(t, listTables(conn))
	want := fmt.Sprintf(`credential_process of profile "vault" (%s) failed: exit status 3: \x1b]0;pwned\x07token expired: run helper login`, helper)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("first call: %v\nwant it to contain %s", err, want)
	}
	if strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("the helper's arguments are shown: %v", err)
	}
	if err := wait(t, listTables(conn)); err != nil {
		t.Fatalf("second call (the helper now gives keys): %v", err)
	}
	if b, _ := os.ReadFile(count); strings.Count(string(b), "run") != 2 {
		t.Errorf("the helper ran %d times, want 2 (a failure is not cached)", strings.Count(string(b), "run"))
	}
	calls := st.Calls()
	if len(calls) != 1 || calls[0].SignedWith != "AKIDSOURCEHELPER" || calls[0].RoleARN != mfaRole || calls[0].Serial != "" {
		t.Errorf("STS calls %+v, want one AssumeRole signed with the helper's keys", calls)
	}
	if s := ourStderr(); s != "" {
		t.Errorf("the helper wrote to our stderr: %q", s)
	}
	got := heard.all()
	if len(got) != 2 || got[0].Err == nil || got[0].Profile != "vault" || !strings.Contains(got[1].Stderr, "stdin=[] rc=1") {
		t.Errorf("OnCredentialProcess heard %+v", got)
	}
}

// A role whose source profile signs in with SSO: the portal's keys sign
// AssumeRole; an expired token says what to run, naming the source
// profile.
func TestRoleOverSSOSource(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	home := roleFiles(t, ssoProfiles+`
[profile oncall]
role_arn = `+mfaRole+`
source_profile = corp-dev
region = us-east-1
`)
	st := ststest.Start(t)
	portal := ssoPortal(t)
	t.Setenv("AWS_ENDPOINT_URL_SSO", portal)
	t.Setenv("AWS_ENDPOINT_URL_SSO_OIDC", "")
	cache := filepath.Join(home, ".aws", "sso", "cache")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	expiredToken(t, cache, "corp")
	conn, err := Connect(context.Background(), ConnOptions{Profile: "oncall", Endpoint: ep})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = wait(t, listTables(conn))
	if got := Describe(err); !strings.HasPrefix(got, "run aws sso login --sso-session corp") {
		t.Errorf("expired SSO source: %q", got)
	}
	freshToken(t, cache, "corp")
	if err := wait(t, listTables(conn)); err != nil {
		t.Fatalf("after sign-in: %v", err)
	}
	calls := st.Calls()
	if len(calls) != 1 || calls[0].SignedWith != "AKIDSSO" {
		t.Errorf("STS calls %+v, want AssumeRole signed with the portal's keys", calls)
	}
}

// ssoPortal stands in for the Identity Center portal: it answers
// GetRoleCredentials with the keys AKIDSSO.
func ssoPortal(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"roleCredentials":{"accessKeyId":"AKIDSSO","secretAccessKey":"s","sessionToken":"t","expiration":%d}}`, time.Now().Add(time.Hour).UnixMilli())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// freshToken puts a token valid for an hour in the cache under key.
func freshToken(t *testing.T, cache, key string) {
	t.Helper()
	sum := sha1.Sum([]byte(key))
	body := fmt.Sprintf(`{"accessToken":"fresh-token","expiresAt":%q,"region":"us-east-1","startUrl":"https://corp.awsapps.com/start"}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(cache, hex.EncodeToString(sum[:])+".json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A role over a credential_source is the SDK's: it asks the same
// prompter (so it loads rather than failing at Connect), signs AssumeRole
// with the environment's keys, and makes one attempt: a refused code is
// the call's error, and the next call asks again.
func TestMFARoleOverCredentialSource(t *testing.T) {
	roleFiles(t, `[profile envrole]
role_arn = `+mfaRole+`
credential_source = Environment
mfa_serial = `+mfaDevice+`
region = us-east-1
`)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAFROMENV00001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret")
	st := ststest.Start(t)
	st.Set(func(s *ststest.Server) { s.Serial, s.Code = mfaDevice, "123456" })
	prompt := newFakePrompt()
	conn, err := Connect(context.Background(), ConnOptions{Profile: "envrole", Endpoint: "http://127.0.0.1:9", MFA: prompt})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer conn.Close()
	done := listTables(conn)
	a := prompt.next(t)
	if a.req.Profile != "envrole" || a.req.RoleARN != mfaRole || a.req.Serial != mfaDevice {
		t.Errorf("ask %+v", a.req)
	}
	a.answer <- promptAnswer{code: "000000"}
	if err := wait(t, done); err == nil || !strings.Contains(err.Error(), "MultiFactorAuthentication failed") {
		t.Errorf("a refused code: %v", err)
	}
	done = listTables(conn)
	prompt.next(t).answer <- promptAnswer{code: "123456"}
	wait(t, done) // nothing answers at the endpoint: only STS matters here
	calls := st.Calls()
	if len(calls) != 2 || calls[1].Code != "123456" || calls[1].SignedWith != "AKIAFROMENV00001" || calls[1].IssuedKey == "" {
		t.Errorf("STS calls %+v", calls)
	}
}
