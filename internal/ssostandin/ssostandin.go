// Package ssostandin is test support: recording stand-ins for the IAM
// Identity Center portal (GetRoleCredentials) and its OIDC service
// (RegisterClient, StartDeviceAuthorization, CreateToken), which have no
// emulator, and a home with SSO profiles and the CLI's token cache. Tests
// point the SDK at the stand-ins with AWS_ENDPOINT_URL_SSO and
// AWS_ENDPOINT_URL_SSO_OIDC. The opsdeck binary does not link it.
package ssostandin

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Profiles: corp-dev signs in through the sso_session corp; legacy with
// the old sso_start_url keys.
const Profiles = `[profile corp-dev]
sso_session = corp
sso_account_id = 111122223333
sso_role_name = ReadOnly
region = us-east-1

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = us-east-1

[profile legacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = us-east-1
sso_account_id = 111122223333
sso_role_name = ReadOnly
region = us-east-1
`

// Home makes a home directory with Profiles as the AWS config file and an
// empty token cache, points the environment at it (HOME, AWS_CONFIG_FILE)
// and clears what would override the profiles. It returns the cache
// directory.
func Home(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "config")
	if err := os.WriteFile(cfg, []byte(Profiles), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, "none"))
	for _, k := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
		"AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_DYNAMODB_STREAMS",
		"AWS_ENDPOINT_URL_SSO", "AWS_ENDPOINT_URL_SSO_OIDC", "AWS_ENDPOINT_URL_STS"} {
		t.Setenv(k, "")
	}
	cache := filepath.Join(home, ".aws", "sso", "cache")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	return cache
}

// TokenPath is the cache file for key (a session name or a start URL).
func TokenPath(cache, key string) string {
	sum := sha1.Sum([]byte(key))
	return filepath.Join(cache, hex.EncodeToString(sum[:])+".json")
}

// WriteToken writes a token as the CLI would, expiring at exp.
func WriteToken(t testing.TB, cache, key, token string, exp time.Time) {
	t.Helper()
	body := fmt.Sprintf(`{"accessToken":%q,"expiresAt":%q,"region":"us-east-1","startUrl":"https://corp.awsapps.com/start"}`,
		token, exp.UTC().Format(time.RFC3339))
	if err := os.WriteFile(TokenPath(cache, key), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Portal stands in for the Identity Center portal's GetRoleCredentials:
// it hands out role credentials for any token but the refused ones, and
// records the tokens it was given.
type Portal struct {
	URL string

	mu sync.Mutex
	// Tokens are the bearer tokens of every call, in order.
	Tokens []string
	// Refused tokens are answered UnauthorizedException.
	Refused map[string]bool
	// Lifetime is how long the credentials it gives last (1h when 0).
	Lifetime time.Duration
	// AccessKey is the key it gives ("opsdeck" when empty: DynamoDB
	// Local runs -sharedDb, so any key sees the same tables).
	AccessKey string
}

// NewPortal starts a Portal and sets AWS_ENDPOINT_URL_SSO to it.
func NewPortal(t testing.TB) *Portal {
	t.Helper()
	p := &Portal{Refused: map[string]bool{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	t.Setenv("AWS_ENDPOINT_URL_SSO", srv.URL)
	return p
}

// Calls is how many GetRoleCredentials it answered, and the last token.
func (p *Portal) Calls() (int, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.Tokens) == 0 {
		return 0, ""
	}
	return len(p.Tokens), p.Tokens[len(p.Tokens)-1]
}

// Set changes its answers under its lock.
func (p *Portal) Set(f func(p *Portal)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(p)
}

func (p *Portal) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	tok := r.Header.Get("X-Amz-Sso_bearer_token")
	p.mu.Lock()
	p.Tokens = append(p.Tokens, tok)
	refused, life, key := p.Refused[tok], p.Lifetime, p.AccessKey
	p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if refused {
		w.Header().Set("X-Amzn-Errortype", "UnauthorizedException")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"message":"Session token not found or invalid"}`)
		return
	}
	if life == 0 {
		life = time.Hour
	}
	if key == "" {
		key = "opsdeck"
	}
	fmt.Fprintf(w, `{"roleCredentials":{"accessKeyId":%q,"secretAccessKey":"local","sessionToken":"sso-session","expiration":%d}}`,
		key, time.Now().Add(life).UnixMilli())
}

// OIDC stands in for IAM Identity Center's OIDC service: it registers
// clients, starts device authorizations and answers CreateToken from a
// script ("pending", "slow_down", "expired", "denied", "ok"; the last
// entry repeats), recording every request.
type OIDC struct {
	URL string

	mu sync.Mutex
	// Script is CreateToken's answers in order.
	Script []string
	// Interval is the polling interval it asks for, in seconds (1 when 0).
	Interval int
	// Requests are the calls' paths and JSON bodies, in order.
	Requests []Request
	// Issued is the access token of the "ok" answer.
	Issued string
}

// Request is one call to the OIDC stand-in.
type Request struct {
	Path string
	Body map[string]any
}

// NewOIDC starts an OIDC stand-in and sets AWS_ENDPOINT_URL_SSO_OIDC to it.
func NewOIDC(t testing.TB, script ...string) *OIDC {
	t.Helper()
	o := &OIDC{Script: script, Issued: "device-token"}
	srv := httptest.NewServer(o)
	t.Cleanup(srv.Close)
	o.URL = srv.URL
	t.Setenv("AWS_ENDPOINT_URL_SSO_OIDC", srv.URL)
	return o
}

// Calls are the requests made to path so far.
func (o *OIDC) Calls(path string) []Request {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []Request
	for _, r := range o.Requests {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

func (o *OIDC) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	o.mu.Lock()
	o.Requests = append(o.Requests, Request{Path: r.URL.Path, Body: body})
	answer := "ok"
	if r.URL.Path == "/token" && len(o.Script) > 0 {
		answer = o.Script[0]
		if len(o.Script) > 1 {
			o.Script = o.Script[1:]
		}
	}
	interval, issued := o.Interval, o.Issued
	o.mu.Unlock()
	if interval == 0 {
		interval = 1
	}
	w.Header().Set("Content-Type", "application/json")
	fail := func(typ, code string) {
		w.Header().Set("X-Amzn-Errortype", typ)
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":%q,"error_description":"stand-in"}`, code)
	}
	switch r.URL.Path {
	case "/client/register":
		fmt.Fprintf(w, `{"clientId":"client-1","clientSecret":"client-secret-1","clientIdIssuedAt":%d,"clientSecretExpiresAt":%d}`,
			time.Now().Unix(), time.Now().Add(90*24*time.Hour).Unix())
	case "/device_authorization":
		fmt.Fprintf(w, `{"deviceCode":"device-code-1","userCode":"ABCD-EFGH","verificationUri":"https://device.sso.us-east-1.amazonaws.com/","verificationUriComplete":"https://device.sso.us-east-1.amazonaws.com/?user_code=ABCD-EFGH","expiresIn":600,"interval":%d}`, interval)
	case "/token":
		switch answer {
		case "pending":
			fail("AuthorizationPendingException", "authorization_pending")
		case "slow_down":
			fail("SlowDownException", "slow_down")
		case "expired":
			fail("ExpiredTokenException", "expired_token")
		case "denied":
			fail("AccessDeniedException", "access_denied")
		default:
			fmt.Fprintf(w, `{"accessToken":%q,"expiresIn":28800,"refreshToken":"refresh-1","tokenType":"Bearer"}`, issued)
		}
	default:
		http.NotFound(w, r)
	}
}
