package data

// The IAM Identity Center token cache that `aws sso login` writes, read
// and written the same way: ~/.aws/sso/cache/<sha1 of the key>.json,
// where the key is the sso_session's name, or the start URL for a
// profile with the legacy sso_start_url keys.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
)

// SSOSession is how a profile signs in with IAM Identity Center.
type SSOSession struct {
	Profile  string // "default" for the default profile
	Name     string // the sso_session; "" for the legacy keys
	StartURL string
	Region   string // sso_region: where the portal and its OIDC service are
}

// CacheKey is what the cache file is named after.
func (s SSOSession) CacheKey() string {
	if s.Name != "" {
		return s.Name
	}
	return s.StartURL
}

// CachePath is the token file the CLI (and the SDK) use for s, under the
// home directory as it is now.
func (s SSOSession) CachePath() (string, error) {
	return ssocreds.StandardCachedTokenFilepath(s.CacheKey())
}

// Label names s for the operator: "SSO session corp", or "SSO of profile
// dev" for the legacy keys.
func (s SSOSession) Label() string {
	if s.Name != "" {
		return "SSO session " + s.Name
	}
	return "SSO of profile " + s.Profile
}

// loadSSOSession reads how profile signs in with IAM Identity Center; ok
// is false when it does not (or the files cannot be read). Only the
// profile's own sso keys count: a role whose source_profile uses SSO
// signs in through that other profile.
func loadSSOSession(ctx context.Context, profile string) (SSOSession, bool) {
	if profile == "" {
		profile = "default"
	}
	sc, err := config.LoadSharedConfigProfile(ctx, profile, sharedFiles)
	if err != nil {
		return SSOSession{}, false
	}
	s := SSOSession{Profile: profile}
	switch {
	case sc.SSOSessionName != "" && sc.SSOSession != nil:
		s.Name, s.StartURL, s.Region = sc.SSOSessionName, sc.SSOSession.SSOStartURL, sc.SSOSession.SSORegion
	case sc.SSOStartURL != "":
		s.StartURL, s.Region = sc.SSOStartURL, sc.SSORegion
	default:
		return SSOSession{}, false
	}
	return s, true
}

// SSOToken is one cache file, with the CLI's field names.
type SSOToken struct {
	AccessToken           string    `json:"accessToken"`
	ExpiresAt             time.Time `json:"expiresAt"`
	RefreshToken          string    `json:"refreshToken,omitempty"`
	ClientID              string    `json:"clientId,omitempty"`
	ClientSecret          string    `json:"clientSecret,omitempty"`
	RegistrationExpiresAt time.Time `json:"registrationExpiresAt,omitzero"`
	Region                string    `json:"region,omitempty"`
	StartURL              string    `json:"startUrl,omitempty"`
}

// tokenMargin: a token that expires within it is as good as expired (the
// SDK's own token provider tries to refresh it then).
const tokenMargin = time.Minute

// Valid says whether t can still sign calls in at now.
func (t SSOToken) Valid(now time.Time) bool {
	return t.AccessToken != "" && t.ExpiresAt.After(now.Add(tokenMargin))
}

// ReadSSOToken reads a cache file. Times are RFC 3339, as the CLI writes
// them.
func ReadSSOToken(path string) (SSOToken, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return SSOToken{}, err
	}
	var t SSOToken
	if err := json.Unmarshal(b, &t); err != nil {
		return SSOToken{}, fmt.Errorf("SSO token cache %s: %w", Escape(path), err)
	}
	return t, nil
}

// WriteSSOToken writes t where the CLI would, 0600 in a 0700 directory,
// whole or not at all: a console that dies mid-write leaves the old file
// (the SDK and the CLI read it concurrently).
func WriteSSOToken(path string, t SSOToken) error {
	t.ExpiresAt = t.ExpiresAt.UTC().Truncate(time.Second)
	t.RegistrationExpiresAt = t.RegistrationExpiresAt.UTC().Truncate(time.Second)
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".opsdeck-token-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	// CreateTemp makes the file 0600 already; say so, whatever the umask.
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// fileStamp tells one version of a file from another without reading it.
type fileStamp struct {
	mod  time.Time
	size int64
	ok   bool
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{mod: fi.ModTime(), size: fi.Size(), ok: true}
}

var errNoSSO = errors.New("this profile does not sign in with IAM Identity Center (no sso_session or sso_start_url)")
