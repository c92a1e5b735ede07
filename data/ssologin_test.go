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
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/internal/ssostandin"
)

// The profiles and the home are internal/ssostandin's (corp-dev on the
// sso_session corp, legacy on the old keys), shared with the ui tests.
const ssoProfiles = ssostandin.Profiles

func ssoHome(t *testing.T) string { return ssostandin.Home(t) }

// expiredToken puts in the cache, under the CLI's name for key (the
// session's name, or the legacy start URL), a token that expired in 2020.
func expiredToken(t *testing.T, cache, key string) {
	t.Helper()
	sum := sha1.Sum([]byte(key))
	body := `{"accessToken":"old-token","expiresAt":"2020-01-01T00:00:00Z","region":"us-east-1","startUrl":"https://corp.awsapps.com/start"}`
	if err := os.WriteFile(filepath.Join(cache, hex.EncodeToString(sum[:])+".json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A profile signed in through IAM Identity Center whose token is missing
// or expired says exactly what to run: --sso-session for a profile that
// names one, --profile for the legacy keys. The SDK fails before any
// call goes out, so nothing answers at the endpoint.
func TestSSOTokenExpiredOrMissingSaysWhatToRun(t *testing.T) {
	for _, c := range []struct {
		name, profile, cacheKey, want string
	}{
		{"session, no token", "corp-dev", "", `run aws sso login --sso-session corp: the SSO sign-in of profile corp-dev has expired or is missing`},
		{"session, expired token", "corp-dev", "corp", `run aws sso login --sso-session corp: the SSO sign-in of profile corp-dev has expired or is missing`},
		{"legacy, no token", "legacy", "", `run aws sso login --profile legacy: the SSO sign-in of profile legacy has expired or is missing`},
		{"legacy, expired token", "legacy", "https://legacy.awsapps.com/start", `run aws sso login --profile legacy: the SSO sign-in of profile legacy has expired or is missing`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := ssoHome(t)
			if c.cacheKey != "" {
				expiredToken(t, cache, c.cacheKey)
			}
			conn, err := Connect(context.Background(), ConnOptions{Profile: c.profile, Endpoint: "http://127.0.0.1:9"})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, err = conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{})
			if err == nil {
				t.Fatal("ListTables succeeded without an SSO token")
			}
			t.Logf("SDK: %v", err)
			if got := Describe(err); got != c.want {
				t.Errorf("Describe = %q\nwant        %q\n(error: %v)", got, c.want, err)
			}
		})
	}
}

// The command is quoted for the shell when the name needs it.
func TestSSOLoginCommandQuotes(t *testing.T) {
	e := &SSOLoginError{Profile: "it's mine"}
	if got, want := e.Command(), `aws sso login --profile 'it'\''s mine'`; got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
}

// After `aws sso login` writes a fresh token, the same connection uses it
// on its next call: a failure is not remembered. The Identity Center
// portal is a stand-in that records the token it was given.
func TestSSOFreshTokenPickedUpWithoutRestart(t *testing.T) {
	cache := ssoHome(t)
	var (
		mu  sync.Mutex
		got []string
	)
	portal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("X-Amz-Sso_bearer_token"))
		mu.Unlock()
		fmt.Fprintf(w, `{"roleCredentials":{"accessKeyId":"AKIDSSO","secretAccessKey":"s","sessionToken":"t","expiration":%d}}`, time.Now().Add(time.Hour).UnixMilli())
	}))
	defer portal.Close()
	t.Setenv("AWS_ENDPOINT_URL_SSO", portal.URL)

	conn, err := Connect(context.Background(), ConnOptions{Profile: "corp-dev", Endpoint: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	var sso *SSOLoginError
	if !errors.As(err, &sso) {
		t.Fatalf("first call: %v, want an SSO sign-in error", err)
	}
	sum := sha1.Sum([]byte("corp"))
	fresh := fmt.Sprintf(`{"accessToken":"fresh-token","expiresAt":%q,"region":"us-east-1","startUrl":"https://corp.awsapps.com/start"}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(cache, hex.EncodeToString(sum[:])+".json"), []byte(fresh), 0o600); err != nil {
		t.Fatal(err)
	}
	// Nothing answers at the endpoint: the call fails, but past
	// credentials (once: its retries would only wait).
	_, err = conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	if errors.As(err, &sso) {
		t.Fatalf("second call, after sign-in: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != "fresh-token" {
		t.Fatalf("the portal was given %q, want the fresh token once", got)
	}
}
