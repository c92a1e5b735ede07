package data

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"

	"opsdeck/internal/ssostandin"
	"opsdeck/internal/ststest"
)

// Role credentials that expire within RefreshAhead are renewed on the
// next ask, not once expired; a renewal that fails keeps the old ones
// (they still work), says what to run, and is tried again no more than
// every refreshRetry; a fresh token in the cache ends it at once.
func TestCredentialsRefreshedAheadOfExpiry(t *testing.T) {
	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	portal.Lifetime = 3 * time.Minute // inside RefreshAhead
	ssostandin.WriteToken(t, cache, "corp", "token-1", time.Now().Add(time.Hour))
	conn, err := Connect(context.Background(), ConnOptions{Profile: "corp-dev", Endpoint: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()

	if st := conn.CredentialsState(); st.Known || !st.HasSSO || st.SSO.Name != "corp" {
		t.Fatalf("before any call: %+v", st)
	}
	// The watch is transparent to the SDK's "which provider is this".
	if !aws.IsCredentialsProvider(conn.creds, (*ssocreds.Provider)(nil)) {
		t.Error("the connection's credentials no longer say they are the SDK's SSO provider")
	}
	if err := conn.RefreshCredentials(ctx); err != nil {
		t.Fatal(err)
	}
	st := conn.CredentialsState()
	if !st.CanExpire || time.Until(st.Expires) > 3*time.Minute || time.Until(st.Expires) < 2*time.Minute {
		t.Fatalf("expiry %v, want the portal's (3m ahead)", st.Expires)
	}
	// Within RefreshAhead: the next ask renews them.
	portal.Set(func(p *ssostandin.Portal) { p.Lifetime = time.Hour })
	if err := conn.RefreshCredentials(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := portal.Calls(); n != 2 {
		t.Fatalf("portal calls %d, want 2 (renewed ahead of expiry)", n)
	}
	if st := conn.CredentialsState(); time.Until(st.Expires) < 50*time.Minute {
		t.Fatalf("after renewal the expiry is %v", st.Expires)
	}
	// Far from expiry: cached, nothing asked.
	if err := conn.RefreshCredentials(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := portal.Calls(); n != 2 {
		t.Fatalf("portal calls %d, want still 2", n)
	}

	// Credentials close to expiry again, and the token expired meanwhile.
	conn.watch.mu.Lock()
	conn.watch.last.Expires = time.Now().Add(2 * time.Minute)
	conn.watch.mu.Unlock()
	ssostandin.WriteToken(t, cache, "corp", "token-old", time.Now().Add(-time.Minute))
	err = conn.RefreshCredentials(ctx)
	var sso *SSOLoginError
	if !errors.As(err, &sso) {
		t.Fatalf("renewal with an expired token: %v, want an SSO sign-in error", err)
	}
	if got := Describe(err); !strings.HasPrefix(got, "run aws sso login --sso-session corp") {
		t.Errorf("Describe = %q", got)
	}
	st = conn.CredentialsState()
	if st.RefreshErr == nil || st.SignIn == nil || time.Until(st.Expires) < time.Minute {
		t.Fatalf("after a failed renewal: %+v", st)
	}
	// The old credentials still sign calls; the renewal is not tried
	// again on every one.
	if _, err := conn.watch.Retrieve(ctx); err != nil {
		t.Fatalf("old credentials refused before they expire: %v", err)
	}
	if n, _ := portal.Calls(); n != 2 {
		t.Fatalf("portal calls %d (%v): the expired token reached it, or a retry came too soon", n, portal.Tokens)
	}
	if conn.FreshSSOToken() {
		t.Fatal("FreshSSOToken true with no new token written")
	}
	ssostandin.WriteToken(t, cache, "corp", "token-2", time.Now().Add(time.Hour))
	if !conn.FreshSSOToken() {
		t.Fatal("FreshSSOToken missed the new token")
	}
	if err := conn.RefreshCredentials(ctx); err != nil {
		t.Fatalf("after signing in again: %v", err)
	}
	if n, last := portal.Calls(); n != 3 || last != "token-2" {
		t.Fatalf("portal calls %d, last %q; want the new token at once", n, last)
	}
	if st := conn.CredentialsState(); st.RefreshErr != nil || st.SignIn != nil {
		t.Fatalf("after signing in again: %+v", st)
	}
}

// A token the portal refuses (signed out elsewhere) is a sign-in problem
// too; FreshSSOToken waits for the file to change rather than reloading
// again and again with the token already refused.
func TestRefusedTokenWaitsForANewOne(t *testing.T) {
	cache := ssostandin.Home(t)
	portal := ssostandin.NewPortal(t)
	portal.Refused["revoked"] = true
	ssostandin.WriteToken(t, cache, "corp", "revoked", time.Now().Add(time.Hour))
	conn, err := Connect(context.Background(), ConnOptions{Profile: "corp-dev", Endpoint: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.RefreshCredentials(context.Background()); !errors.As(err, new(*SSOLoginError)) {
		t.Fatalf("refused token: %v", err)
	}
	if conn.FreshSSOToken() {
		t.Fatal("the refused token, unchanged, counted as fresh")
	}
	ssostandin.WriteToken(t, cache, "corp", "new", time.Now().Add(time.Hour))
	if !conn.FreshSSOToken() {
		t.Fatal("the new token did not count")
	}
}

// A role whose source_profile signs in with SSO: the connection's state
// carries the source profile's sign-in problem and session (the console
// watches it and :login signs in there), and a fresh token in that
// session's cache ends it. STS and the portal are stand-ins.
func TestRoleOverSSOSourceIsWatched(t *testing.T) {
	cache := ssostandin.Home(t)
	f, err := os.OpenFile(os.Getenv("AWS_CONFIG_FILE"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n[profile role-dev]\nrole_arn = arn:aws:iam::111122223333:role/OnCall\nsource_profile = corp-dev\nregion = us-east-1\n")
	f.Close()
	portal := ssostandin.NewPortal(t)
	sts := ststest.Start(t)
	ssostandin.WriteToken(t, cache, "corp", "old", time.Now().Add(-time.Hour))
	conn, err := Connect(context.Background(), ConnOptions{Profile: "role-dev", Endpoint: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.RefreshCredentials(context.Background())
	var sso *SSOLoginError
	if !errors.As(err, &sso) || sso.Profile != "corp-dev" || sso.Session != "corp" {
		t.Fatalf("role over an expired SSO source: %v", err)
	}
	st := conn.CredentialsState()
	if st.SignIn == nil || !st.HasSSO || st.SSO.Name != "corp" || st.SSO.Profile != "corp-dev" {
		t.Fatalf("state %+v, want the source profile's sign-in and session", st)
	}
	if conn.watch.ahead {
		t.Error("an assumed role is renewed 5 minutes ahead: rolechain.go renews it a minute ahead (an MFA code is asked then)")
	}
	if conn.FreshSSOToken() {
		t.Fatal("fresh with no new token")
	}
	ssostandin.WriteToken(t, cache, "corp", "fresh", time.Now().Add(time.Hour))
	if !conn.FreshSSOToken() {
		t.Fatal("the source session's new token was not seen")
	}
	if err := conn.RefreshCredentials(context.Background()); err != nil {
		t.Fatalf("after signing in: %v", err)
	}
	if _, last := portal.Calls(); last != "fresh" {
		t.Errorf("portal given %q", last)
	}
	if calls := sts.Calls(); len(calls) != 1 || calls[0].Action != "AssumeRole" || calls[0].SignedWith != "opsdeck" {
		t.Errorf("STS calls %+v, want one AssumeRole signed with the SSO role's key", calls)
	}
}
