package data

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/demo/ddblocal"
)

// signedAs records, from each request's SigV4 Authorization header, the
// access key id and the region it was signed for, then forwards the
// request to the real server.
type signedAs struct {
	mu            sync.Mutex
	keys, regions []string
}

var credentialRE = regexp.MustCompile(`Credential=([^/]+)/[^/]+/([^/]+)/`)

func (s *signedAs) RoundTrip(req *http.Request) (*http.Response, error) {
	m := credentialRE.FindStringSubmatch(req.Header.Get("Authorization"))
	s.mu.Lock()
	if m != nil {
		s.keys, s.regions = append(s.keys, m[1]), append(s.regions, m[2])
	} else {
		s.keys, s.regions = append(s.keys, "(unsigned)"), append(s.regions, "")
	}
	s.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// awsFiles writes a config and a credentials file with one profile whose
// static keys and region are distinctive, and points the SDK at them.
func awsFiles(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	creds := filepath.Join(dir, "credentials")
	if err := os.WriteFile(cfg, []byte("[profile oncall]\nregion = eu-west-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(creds, []byte("[oncall]\naws_access_key_id = AKIAOPSDECKPROFILE1\naws_secret_access_key = profile-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	for _, v := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
		"AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB",
		"AWS_ENDPOINT_URL_DYNAMODB_STREAMS"} {
		t.Setenv(v, "")
	}
}

// An explicit profile (--profile or AWS_PROFILE) is honoured against
// DynamoDB Local: its keys sign the requests and its region is used. Only
// with no profile does loopback fall back to the dummy keys.
func TestProfileIsHonouredOnLoopback(t *testing.T) {
	awsFiles(t)
	ep := ddblocal.TestEndpoint(t)
	ctx := context.Background()
	for _, c := range []struct {
		name, flag, env, wantKey, wantRegion string
	}{
		{"--profile", "oncall", "", "AKIAOPSDECKPROFILE1", "eu-west-1"},
		{"AWS_PROFILE", "", "oncall", "AKIAOPSDECKPROFILE1", "eu-west-1"},
		{"no profile", "", "", "opsdeck", "us-east-1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("AWS_PROFILE", c.env)
			rec := &signedAs{}
			conn, err := Connect(ctx, ConnOptions{Endpoint: ep, Profile: c.flag, HTTPClient: &http.Client{Transport: rec}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.DB.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
				t.Fatal(Describe(err))
			}
			if len(rec.keys) != 1 || rec.keys[0] != c.wantKey || rec.regions[0] != c.wantRegion {
				t.Errorf("signed with %v in %v, want %s in %s", rec.keys, rec.regions, c.wantKey, c.wantRegion)
			}
			if conn.Region != c.wantRegion || conn.Profile != firstNonEmpty(c.flag, c.env) {
				t.Errorf("Conn says profile %q region %q", conn.Profile, conn.Region)
			}
		})
	}
	// A profile that does not exist is an error naming it, on loopback as
	// anywhere: never a silent fall back to the dummy keys.
	if _, err := Connect(ctx, ConnOptions{Endpoint: ep, Profile: "nosuch"}); err == nil {
		t.Error("Connect with an unknown profile succeeded")
	}
}
