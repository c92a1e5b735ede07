package data

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfilesAndUnknownProfile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	creds := filepath.Join(dir, "credentials")
	os.WriteFile(cfg, []byte("[default]\nregion = us-east-1\n[profile ops]\nregion = eu-west-1\n[sso-session corp]\nsso_region = us-east-1\n[profile ro]\n"), 0o600)
	os.WriteFile(creds, []byte("[ops]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = x\n[ci]\naws_access_key_id = A\naws_secret_access_key = y\n"), 0o600)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	t.Setenv("AWS_PROFILE", "")

	if got := strings.Join(Profiles(), ","); got != "ci,default,ops,ro" {
		t.Fatalf("Profiles = %s", got)
	}

	// No call is made: the profile is looked up while the clients are built.
	_, err := Connect(context.Background(), ConnOptions{Profile: "nope", Endpoint: "http://127.0.0.1:1"})
	var up *UnknownProfileError
	if !errors.As(err, &up) || up.Profile != "nope" {
		t.Fatalf("unknown profile: %v", err)
	}
	if !strings.Contains(err.Error(), `unknown AWS profile "nope"`) || !strings.Contains(err.Error(), cfg) {
		t.Errorf("message: %v", err)
	}
	c, err := Connect(context.Background(), ConnOptions{Profile: "ops", Endpoint: "http://127.0.0.1:1"})
	if err != nil || c.Profile != "ops" {
		t.Fatalf("known profile: %+v %v", c, err)
	}
}
