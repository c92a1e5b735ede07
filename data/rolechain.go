package data

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/processcreds"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
)

// A profile that assumes a role from a source_profile is resolved here
// rather than by the SDK, for two reasons:
//   - a source profile's credential_process must run the way credproc.go
//     runs a helper (away from the terminal, stderr kept, killed with the
//     connection); the SDK would run it with our terminal;
//   - a role with mfa_serial asks the operator for the one-time code
//     through ConnOptions.MFA, and asks again when STS refuses the code,
//     which the SDK's provider cannot (it makes one attempt).
// The chain is walked as the SDK walks it (config.SharedConfig.Source):
// static keys and credential_process are built here, anything else (SSO,
// credential_source, web identity) is the SDK's own provider for that
// profile, an SSO token problem said as SSOLoginError.

// MFARequest is one ask for a role's one-time code. Every field is
// escaped: it is safe to show as is.
type MFARequest struct {
	Profile string // the profile that names the role ("default" for none)
	RoleARN string
	Serial  string // mfa_serial: the device's ARN
	// Refused is STS's refusal of the code given just before ("" the
	// first time): the operator is asked again.
	Refused string
	// Again: the role's credentials were had before in this connection and
	// have expired.
	Again bool
}

// MFAPrompter asks the operator for one-time codes (ConnOptions.MFA).
// Code runs on the goroutine that needs credentials and blocks until the
// operator answers, gives up (an error) or ctx ends (the connection was
// closed). Accepted is told when STS took a code; it must not block.
type MFAPrompter interface {
	Code(ctx context.Context, req MFARequest) (string, error)
	Accepted(req MFARequest, expires time.Time)
}

// ErrMFAGivenUp is what a prompter returns when the operator gave up.
var ErrMFAGivenUp = errors.New("no code given")

// MFAError: a role's credentials could not be had for want of its
// one-time code (the operator gave up, no one could be asked, or the
// connection closed while asking).
type MFAError struct {
	Profile, RoleARN string // escaped
	Err              error
}

func (e *MFAError) Error() string {
	return fmt.Sprintf("MFA code for role %s of profile %q: %v", e.RoleARN, e.Profile, e.Err)
}

func (e *MFAError) Unwrap() error { return e.Err }

// roleExpiryWindow is how long before an assumed role's credentials
// expire they are refreshed (a role with MFA asks for a new code then):
// a call made just before the expiry must not be signed with keys that
// expire on the way.
const roleExpiryWindow = time.Minute

// chain builds providers for one connection.
type chain struct {
	cfg  aws.Config      // as LoadDefaultConfig made it: region, logger, config sources
	life context.Context // cancelled by Conn.Close
	o    ConnOptions
	log  logging.Logger
}

// useOwnCredentials replaces the provider the SDK picked for profile
// when the profile runs a credential_process or assumes a role from a
// source_profile (see above). Any other credentials are left alone.
func useOwnCredentials(ctx, life context.Context, cfg *aws.Config, profile string, o ConnOptions, log logging.Logger) {
	if cfg.Credentials == nil {
		return
	}
	process := aws.IsCredentialsProvider(cfg.Credentials, (*processcreds.Provider)(nil))
	role := aws.IsCredentialsProvider(cfg.Credentials, (*stscreds.AssumeRoleProvider)(nil))
	if !process && !role {
		return
	}
	name := profile
	if name == "" {
		name = "default"
	}
	// The files as LoadDefaultConfig found them: LoadSharedConfigProfile
	// alone would use the defaults computed when the program started.
	sc, err := config.LoadSharedConfigProfile(ctx, name, sharedFiles)
	if err == nil && process && sc.CredentialProcess == "" {
		err = errors.New("no credential_process found in the profile")
	}
	if err != nil {
		if process {
			// Never fall back to the SDK's runner, which hands the helper
			// our terminal.
			msg := fmt.Sprintf("credential_process of profile %q: %s", Escape(name), Escape(err.Error()))
			cfg.Credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return aws.Credentials{}, errors.New(msg)
			})
		}
		return
	}
	if role && (sc.RoleARN == "" || sc.Source == nil) {
		// A role over credential_source or web identity: the SDK's, with
		// the MFA prompt it was given (sdkTokenProvider).
		return
	}
	c := &chain{cfg: *cfg, life: life, o: o, log: log}
	p, err := c.provider(ctx, sc)
	if err != nil {
		msg := fmt.Sprintf("credentials of profile %q: %s", Escape(name), Escape(err.Error()))
		p = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{}, errors.New(msg)
		})
	}
	cfg.Credentials = p
}

// provider is the credentials of sc, its source's first.
func (c *chain) provider(ctx context.Context, sc config.SharedConfig) (aws.CredentialsProvider, error) {
	var base aws.CredentialsProvider
	switch {
	case sc.Source != nil:
		src, err := c.provider(ctx, *sc.Source)
		if err != nil {
			return nil, err
		}
		base = src
	case sc.Credentials.HasKeys():
		base = credentials.StaticCredentialsProvider{Value: sc.Credentials}
	case sc.CredentialProcess != "":
		base = c.helper(sc.Profile, sc.CredentialProcess)
	default:
		// SSO, credential_source, web identity: the SDK's provider for
		// that profile, its own role included.
		return c.sdkProvider(ctx, sc.Profile)
	}
	if sc.RoleARN == "" {
		return base, nil
	}
	return c.assumeRole(sc, base), nil
}

// helper is profile's credential_process run as credproc.go says.
func (c *chain) helper(profile, command string) aws.CredentialsProvider {
	h := &helperCredentials{profile: profile, command: command, life: c.life, notify: c.o.OnCredentialProcess, log: c.log}
	h.inner = processcreds.NewProviderCommand(processcreds.NewCommandBuilderFunc(h.newCommand))
	return aws.NewCredentialsCache(h)
}

// sdkProvider is the SDK's credentials for profile.
func (c *chain) sdkProvider(ctx context.Context, profile string) (aws.CredentialsProvider, error) {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(c.cfg.Region), config.WithLogger(c.log),
		config.WithSharedConfigProfile(profile), sdkTokenProvider(c.life, profile, c.o.MFA))
	if err != nil {
		return nil, err
	}
	watchCredentials(ctx, &cfg, profile)
	if cfg.Credentials == nil {
		return nil, errors.New("no credentials for source profile " + profile)
	}
	return cfg.Credentials, nil
}

// assumeRole assumes sc's role with base's credentials.
func (c *chain) assumeRole(sc config.SharedConfig, base aws.CredentialsProvider) aws.CredentialsProvider {
	stsCfg := c.cfg.Copy()
	stsCfg.Credentials = base
	client := sts.NewFromConfig(stsCfg)
	r := &roleProvider{life: c.life, prompt: c.o.MFA,
		req: MFARequest{Profile: Escape(sc.Profile), RoleARN: Escape(sc.RoleARN), Serial: Escape(sc.MFASerial)}}
	r.inner = stscreds.NewAssumeRoleProvider(client, sc.RoleARN, func(o *stscreds.AssumeRoleOptions) {
		o.RoleSessionName = sc.RoleSessionName
		// As the SDK does: a duration of 15 minutes or less is STS's default.
		if d := sc.RoleDurationSeconds; d != nil && *d/time.Minute > 15 {
			o.Duration = *d
		}
		if sc.ExternalID != "" {
			o.ExternalID = aws.String(sc.ExternalID)
		}
		if sc.MFASerial != "" {
			o.SerialNumber = aws.String(sc.MFASerial)
			o.TokenProvider = r.token
		}
	})
	return aws.NewCredentialsCache(r, func(o *aws.CredentialsCacheOptions) { o.ExpiryWindow = roleExpiryWindow })
}

// roleProvider assumes one role. With mfa_serial it asks for the code
// (token, called by the SDK's provider from Retrieve, on the same
// goroutine), and again while STS refuses it. The cache above runs one
// Retrieve at a time, so its fields need no lock.
type roleProvider struct {
	inner  aws.CredentialsProvider
	life   context.Context
	prompt MFAPrompter
	req    MFARequest

	had     bool   // credentials were had once: a later ask is Again
	refused string // STS's refusal of the last code, for the next ask
}

func (r *roleProvider) Retrieve(ctx context.Context) (aws.Credentials, error) {
	// The cache gives a context that never ends (one caller giving up must
	// not fail the others); the connection's end does stop the call.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(r.life, cancel)
	defer stop()
	r.refused = ""
	for {
		creds, err := r.inner.Retrieve(ctx)
		if err == nil {
			if r.req.Serial != "" && r.prompt != nil {
				r.prompt.Accepted(r.req, creds.Expires)
			}
			r.had = true
			return creds, nil
		}
		var mfa *MFAError
		if r.req.Serial == "" || errors.As(err, &mfa) || !mfaRefused(err) || r.life.Err() != nil {
			return creds, err
		}
		r.refused = mfaRefusal(err)
	}
}

// token asks the operator for the code.
func (r *roleProvider) token() (string, error) {
	if r.prompt == nil {
		return "", &MFAError{Profile: r.req.Profile, RoleARN: r.req.RoleARN, Err: errors.New("no one to ask for it here (the console asks; this command cannot)")}
	}
	req := r.req
	req.Refused, req.Again = r.refused, r.had
	code, err := r.prompt.Code(r.life, req)
	if err != nil {
		if r.life.Err() != nil {
			err = errors.New("the connection was closed while asking")
		}
		return "", &MFAError{Profile: r.req.Profile, RoleARN: r.req.RoleARN, Err: err}
	}
	return code, nil
}

// sdkTokenProvider gives the SDK's own assume-role providers (a role
// over credential_source, or one a source profile's SDK chain assumes) a
// way to ask for a code: without one LoadDefaultConfig refuses a profile
// with mfa_serial. They make one attempt: a refused code is an error.
func sdkTokenProvider(life context.Context, profile string, prompt MFAPrompter) config.LoadOptionsFunc {
	if profile == "" {
		profile = "default"
	}
	req := MFARequest{Profile: Escape(profile)}
	return config.WithAssumeRoleCredentialOptions(func(o *stscreds.AssumeRoleOptions) {
		req := req
		req.RoleARN = Escape(o.RoleARN)
		if o.SerialNumber != nil {
			req.Serial = Escape(*o.SerialNumber)
		}
		o.TokenProvider = func() (string, error) {
			if prompt == nil {
				return "", &MFAError{Profile: req.Profile, RoleARN: req.RoleARN, Err: errors.New("no one to ask for it here")}
			}
			code, err := prompt.Code(life, req)
			if err != nil {
				return "", &MFAError{Profile: req.Profile, RoleARN: req.RoleARN, Err: err}
			}
			return code, nil
		}
	})
}

// mfaRefused says whether STS refused the one-time code (rather than the
// role itself): AccessDenied, "MultiFactorAuthentication failed …".
func mfaRefused(err error) bool {
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "AccessDenied" {
		return false
	}
	msg := strings.ToLower(api.ErrorMessage())
	return strings.Contains(msg, "multifactorauthentication") || strings.Contains(msg, "mfa")
}

// mfaRefusal is STS's words for a refused code, one line, inert.
func mfaRefusal(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return Escape(oneLine(api.ErrorMessage()))
	}
	return Escape(oneLine(err.Error()))
}
