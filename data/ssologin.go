package data

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
	"github.com/aws/smithy-go"
)

// SSO sign-in: a profile whose credentials come from IAM Identity Center
// reads its token from the cache `aws sso login` writes. When that token
// is missing, expired or refused, the SDK's errors ("failed to read cached
// SSO token file, open …", "the SSO session has expired or is invalid")
// do not say what to do. SSOLoginError does: the exact command, which
// depends on whether the profile names an sso_session.

// SSOLoginError is a profile's SSO token that is missing, expired or
// refused.
type SSOLoginError struct {
	Profile string // escaped; "default" for the default profile
	Session string // the profile's sso_session, escaped; "" for legacy sso_start_url keys
	// from is the watch that met it (credwatch.go): the one that reads
	// the profile's token cache.
	from *credWatch
	Err  error
}

func (e *SSOLoginError) Error() string {
	return fmt.Sprintf("SSO sign-in of profile %q expired or missing: %v", e.Profile, e.Err)
}

func (e *SSOLoginError) Unwrap() error { return e.Err }

// Command is what the operator runs to sign in again (or :login). A new
// token in the CLI's cache is read on the next call: no restart is
// needed, and the console watches the cache for one (credwatch.go).
func (e *SSOLoginError) Command() string {
	if e.Session != "" {
		return "aws sso login --sso-session " + shellWord(e.Session)
	}
	return "aws sso login --profile " + shellWord(e.Profile)
}

// shellWord is s quoted for a POSIX shell when it needs to be.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ssoTokenProblem says whether err, from the SSO credentials provider,
// means the token must be renewed (rather than, say, the portal being
// unreachable).
func ssoTokenProblem(err error) bool {
	var invalid *ssocreds.InvalidTokenError
	if errors.As(err, &invalid) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "UnauthorizedException" {
		return true // the portal refused the token (signed out, revoked)
	}
	// The sso_session path returns the token provider's errors unwrapped.
	return strings.Contains(err.Error(), "cached SSO token")
}

// sharedFiles points LoadSharedConfigProfile at the files as they are
// now: alone it would use the defaults computed when the program started.
func sharedFiles(o *config.LoadSharedConfigOptions) {
	if f := os.Getenv("AWS_CONFIG_FILE"); f != "" {
		o.ConfigFiles = []string{f}
	}
	if f := os.Getenv("AWS_SHARED_CREDENTIALS_FILE"); f != "" {
		o.CredentialsFiles = []string{f}
	}
}
