package data

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
	"github.com/aws/aws-sdk-go-v2/service/sso"
	"github.com/aws/aws-sdk-go-v2/service/ssooidc"

	"opsdeck/internal/ssostandin"
)

// pollUntilDone polls a device login the way the console does, without
// waiting (the test is the clock): it returns the intervals asked for
// before each poll.
func pollUntilDone(t *testing.T, d *DeviceLogin) []time.Duration {
	t.Helper()
	var waits []time.Duration
	for i := 0; i < 20; i++ {
		waits = append(waits, d.Interval)
		done, err := d.Poll(context.Background(), time.Now())
		if err != nil {
			t.Fatalf("poll %d: %v", i, err)
		}
		if done {
			return waits
		}
	}
	t.Fatal("never approved")
	return nil
}

// :login's device flow, against stand-ins for the Identity Center OIDC
// service and portal: it registers, shows a code, polls through
// authorization_pending and slow_down (waiting 5 s longer after each
// slow_down), and writes the CLI's cache file — same name, same fields,
// 0600 — which the SDK's own SSO providers then accept: a new connection
// signs in with it, and so does ssocreds built by hand with the SDK's
// token provider.
func TestDeviceLoginWritesTheCacheTheSDKReads(t *testing.T) {
	for _, c := range []struct{ profile, key string }{
		{"corp-dev", "corp"},
		{"legacy", "https://legacy.awsapps.com/start"},
	} {
		t.Run(c.profile, func(t *testing.T) {
			cache := ssostandin.Home(t)
			portal := ssostandin.NewPortal(t)
			oidc := ssostandin.NewOIDC(t, "pending", "slow_down", "pending", "ok")
			conn, err := Connect(context.Background(), ConnOptions{Profile: c.profile, Endpoint: "http://127.0.0.1:9"})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// Nothing in the cache: the connection is signed out.
			if err := conn.RefreshCredentials(context.Background()); !errors.As(err, new(*SSOLoginError)) {
				t.Fatalf("before login: %v, want a sign-in error", err)
			}

			d, err := conn.StartSSOLogin(context.Background(), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if d.UserCode != "ABCD-EFGH" || d.VerificationURI == "" || !strings.Contains(d.VerificationURIComplete, "user_code=ABCD-EFGH") {
				t.Errorf("device login shows code %q at %q / %q", d.UserCode, d.VerificationURI, d.VerificationURIComplete)
			}
			waits := pollUntilDone(t, d)
			want := []time.Duration{time.Second, time.Second, 6 * time.Second, 6 * time.Second}
			if !slicesEqual(waits, want) {
				t.Errorf("waits before each poll = %v, want %v (slow_down adds 5 s)", waits, want)
			}
			reg := oidc.Calls("/client/register")
			if len(reg) != 1 || reg[0].Body["clientType"] != "public" {
				t.Errorf("RegisterClient calls: %+v", reg)
			}
			if scoped := reg[0].Body["scopes"] != nil; scoped != (c.profile == "corp-dev") {
				t.Errorf("RegisterClient scopes = %v for %s (a session's token must be refreshable)", reg[0].Body["scopes"], c.profile)
			}
			auth := oidc.Calls("/device_authorization")
			if len(auth) != 1 || auth[0].Body["startUrl"] == "" || auth[0].Body["clientId"] != "client-1" {
				t.Errorf("StartDeviceAuthorization calls: %+v", auth)
			}
			for _, tok := range oidc.Calls("/token") {
				if tok.Body["grantType"] != deviceGrant || tok.Body["deviceCode"] != "device-code-1" || tok.Body["clientSecret"] != "client-secret-1" {
					t.Errorf("CreateToken body: %v", tok.Body)
				}
			}

			path := ssostandin.TokenPath(cache, c.key)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("cache file mode %v, want 0600", fi.Mode().Perm())
			}
			raw, _ := os.ReadFile(path)
			var fields map[string]any
			if err := json.Unmarshal(raw, &fields); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"accessToken", "expiresAt", "refreshToken", "clientId", "clientSecret", "registrationExpiresAt", "region", "startUrl"} {
				if _, ok := fields[f]; !ok {
					t.Errorf("cache file lacks %s: %s", f, raw)
				}
			}
			if exp, err := time.Parse(time.RFC3339, fields["expiresAt"].(string)); err != nil || exp.Before(time.Now().Add(7*time.Hour)) {
				t.Errorf("expiresAt %v (%v), want RFC 3339 about 8h ahead", fields["expiresAt"], err)
			}

			// The SDK's own providers accept it: the same connection, a
			// new one, and ssocreds built by hand.
			if !conn.FreshSSOToken() {
				t.Error("FreshSSOToken did not see the token :login wrote")
			}
			if err := conn.RefreshCredentials(context.Background()); err != nil {
				t.Fatalf("after login: %v", err)
			}
			again, err := Connect(context.Background(), ConnOptions{Profile: c.profile, Endpoint: "http://127.0.0.1:9"})
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if err := again.RefreshCredentials(context.Background()); err != nil {
				t.Fatalf("a new connection after login: %v", err)
			}
			cfg := aws.Config{Region: "us-east-1"}
			opts := func(o *ssocreds.Options) {}
			if c.profile == "corp-dev" {
				oc := ssooidc.NewFromConfig(cfg, func(o *ssooidc.Options) { o.BaseEndpoint = aws.String(oidc.URL) })
				opts = func(o *ssocreds.Options) { o.SSOTokenProvider = ssocreds.NewSSOTokenProvider(oc, path) }
			}
			sc := sso.NewFromConfig(cfg, func(o *sso.Options) { o.BaseEndpoint = aws.String(portal.URL) })
			p := ssocreds.New(sc, "111122223333", "ReadOnly", c.key, opts)
			if _, err := p.Retrieve(context.Background()); err != nil {
				t.Fatalf("the SDK's ssocreds refuses the cache file: %v", err)
			}
			n, last := portal.Calls()
			if n != 3 || last != "device-token" {
				t.Errorf("portal calls %d, last token %q; want 3 with the token :login got", n, last)
			}
		})
	}
}

func slicesEqual(a, b []time.Duration) bool {
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

// A code refused in the browser, or one that expired, ends the sign-in
// with words; a profile without SSO cannot start one.
func TestDeviceLoginRefusedOrExpired(t *testing.T) {
	for _, c := range []struct{ answer, want string }{
		{"denied", "refused in the browser"},
		{"expired", "code expired"},
	} {
		t.Run(c.answer, func(t *testing.T) {
			ssostandin.Home(t)
			ssostandin.NewOIDC(t, "pending", c.answer)
			conn, err := Connect(context.Background(), ConnOptions{Profile: "corp-dev", Endpoint: "http://127.0.0.1:9"})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			d, err := conn.StartSSOLogin(context.Background(), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if done, err := d.Poll(context.Background(), time.Now()); done || err != nil {
				t.Fatalf("first poll (pending): %v %v", done, err)
			}
			done, err := d.Poll(context.Background(), time.Now())
			if done || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("second poll: done %v, err %v; want %q", done, err, c.want)
			}
		})
	}
	t.Run("past the code's life", func(t *testing.T) {
		ssostandin.Home(t)
		o := ssostandin.NewOIDC(t, "ok")
		conn, err := Connect(context.Background(), ConnOptions{Profile: "corp-dev", Endpoint: "http://127.0.0.1:9"})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		d, err := conn.StartSSOLogin(context.Background(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Poll(context.Background(), d.Expires); err == nil || !strings.Contains(err.Error(), "code expired") {
			t.Fatalf("poll at the code's expiry: %v", err)
		}
		if n := len(o.Calls("/token")); n != 0 {
			t.Errorf("%d CreateToken calls for an expired code", n)
		}
	})
	t.Run("no SSO", func(t *testing.T) {
		ssostandin.Home(t)
		conn, err := ConnectLocal(context.Background(), "http://127.0.0.1:9")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.StartSSOLogin(context.Background(), time.Now()); err == nil || !strings.Contains(err.Error(), "does not sign in with IAM Identity Center") {
			t.Fatalf("login without SSO: %v", err)
		}
	})
}
