package data

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"

	"opsdeck/internal/ssostandin"
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
