package data

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// stsStandIn answers GetCallerIdentity as STS does, recording the key
// each request was signed with and the action it asked for. STS has no
// emulator; the SDK reaches this through AWS_ENDPOINT_URL_STS.
type stsStandIn struct {
	mu      sync.Mutex
	keys    []string
	actions []string
	status  int // 0: answer the identity
}

const standInIdentity = `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:sts::123456789012:assumed-role/OnCall/alice</Arn>
    <UserId>AROAOPSDECKEXAMPLE1:alice</UserId>
    <Account>123456789012</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>`

const standInDenied = `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error>
  <RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId>
</ErrorResponse>`

func (s *stsStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	form, _ := url.ParseQuery(string(body))
	key := "(unsigned)"
	if m := credentialRE.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		key = m[1]
	}
	s.mu.Lock()
	s.keys, s.actions = append(s.keys, key), append(s.actions, form.Get("Action"))
	status := s.status
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml")
	if status != 0 {
		w.WriteHeader(status)
		io.WriteString(w, standInDenied)
		return
	}
	io.WriteString(w, standInIdentity)
}

// stsFixture writes a profile "oncall" with static keys and a profile
// "helper" whose credential_process returns expiring keys, and points
// STS at a recording stand-in.
func stsFixture(t *testing.T) *stsStandIn {
	awsFiles(t)
	dir := t.TempDir()
	helper := filepath.Join(dir, "helper.sh")
	script := "#!/bin/sh\necho '{\"Version\":1,\"AccessKeyId\":\"AKIAOPSDECKHELPER1\",\"SecretAccessKey\":\"s\",\"SessionToken\":\"t\",\"Expiration\":\"2031-01-02T03:04:05Z\"}'\n"
	if err := os.WriteFile(helper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(os.Getenv("AWS_CONFIG_FILE"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("[profile helper]\nregion = eu-west-1\ncredential_process = " + helper + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := &stsStandIn{}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_STS", srv.URL)
	return s
}

// :whoami's data: STS is asked with the profile's own keys, through
// AWS_ENDPOINT_URL_STS (never the DynamoDB endpoint), and the identity,
// profile, region, endpoint and the credentials' source come back.
func TestWhoAmIAsksSTSWithTheProfile(t *testing.T) {
	s := stsFixture(t)
	ctx := context.Background()
	const ddb = "http://127.0.0.1:1" // never called: WhoAmI asks STS only
	conn, err := Connect(ctx, ConnOptions{Endpoint: ddb, Profile: "oncall"})
	if err != nil {
		t.Fatal(err)
	}
	id, err := conn.WhoAmI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.keys) != 1 || s.keys[0] != "AKIAOPSDECKPROFILE1" || s.actions[0] != "GetCallerIdentity" {
		t.Fatalf("stand-in saw keys %v actions %v, want one GetCallerIdentity signed with AKIAOPSDECKPROFILE1", s.keys, s.actions)
	}
	if id.Local || id.Account != "123456789012" || id.ARN != "arn:aws:sts::123456789012:assumed-role/OnCall/alice" ||
		id.UserID != "AROAOPSDECKEXAMPLE1:alice" {
		t.Errorf("identity %+v", id)
	}
	if id.Profile != "oncall" || id.Region != "eu-west-1" || id.Endpoint != ddb {
		t.Errorf("profile %q region %q endpoint %q", id.Profile, id.Region, id.Endpoint)
	}
	if !strings.Contains(id.Source, "SharedConfigCredentials") || id.CanExpire {
		t.Errorf("static keys: source %q can expire %v", id.Source, id.CanExpire)
	}
}

// Credentials that expire say when.
func TestWhoAmISaysWhenCredentialsExpire(t *testing.T) {
	s := stsFixture(t)
	ctx := context.Background()
	conn, err := Connect(ctx, ConnOptions{Endpoint: "http://127.0.0.1:1", Profile: "helper"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	id, err := conn.WhoAmI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	if !id.CanExpire || !id.Expires.Equal(want) || id.Source == "" {
		t.Errorf("source %q can expire %v expires %v, want %v", id.Source, id.CanExpire, id.Expires, want)
	}
	if len(s.keys) != 1 || s.keys[0] != "AKIAOPSDECKHELPER1" {
		t.Errorf("stand-in saw keys %v", s.keys)
	}
}

// DynamoDB Local with no profile has the dummy keys: no AWS identity,
// and STS is not asked.
func TestWhoAmIOnDynamoDBLocalAsksNothing(t *testing.T) {
	s := stsFixture(t)
	conn, err := Connect(context.Background(), ConnOptions{Endpoint: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	id, err := conn.WhoAmI(context.Background())
	if err != nil || !id.Local || id.Account != "" {
		t.Errorf("WhoAmI = %+v, %v; want Local", id, err)
	}
	if len(s.keys) != 0 {
		t.Errorf("STS was asked %d times", len(s.keys))
	}
}

// A refusal from STS is one line that names STS and says why.
func TestWhoAmIErrorIsOneLine(t *testing.T) {
	s := stsFixture(t)
	s.status = http.StatusForbidden
	conn, err := Connect(context.Background(), ConnOptions{Endpoint: "http://127.0.0.1:1", Profile: "oncall"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.WhoAmI(context.Background())
	if err == nil {
		t.Fatal("WhoAmI succeeded against a refusing STS")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "STS GetCallerIdentity") || !strings.Contains(msg, "InvalidClientTokenId") {
		t.Errorf("error %q: want one line naming STS and the code", msg)
	}
}
