package data

// :login — the IAM Identity Center device-code sign-in, as `aws sso login`
// runs it: register a client, start a device authorization (a code the
// operator approves in a browser), then ask for the token at the interval
// the service gave, more slowly when it says slow_down, until approved,
// refused or expired. The token is written to the CLI's cache, where the
// SDK (and the CLI) read it.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssooidc"
	oidctypes "github.com/aws/aws-sdk-go-v2/service/ssooidc/types"
	"github.com/aws/smithy-go"
)

// deviceGrant is OAuth's device-code grant type (RFC 8628).
const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

// slowDownStep is how much longer to wait after each slow_down (RFC 8628
// §3.5).
const slowDownStep = 5 * time.Second

// DeviceLogin is one sign-in under way. Its fields are as the service
// gave them, escaped.
type DeviceLogin struct {
	Session SSOSession
	// UserCode is what the operator checks in the browser; the URL asks
	// for it, the complete URL carries it.
	UserCode, VerificationURI, VerificationURIComplete string
	// Expires is when the code stops being accepted.
	Expires time.Time
	// Interval is how long to wait before the next Poll; slow_down makes
	// it longer.
	Interval time.Duration

	client                 *ssooidc.Client
	clientID, clientSecret string
	registrationExpires    time.Time
	deviceCode             string
	path                   string
}

// newOIDC is the SSO-OIDC client for the session's region, with the SDK's
// endpoint conventions (AWS_ENDPOINT_URL_SSO_OIDC, AWS_ENDPOINT_URL). Its
// three calls are unsigned.
func newOIDC(cfg aws.Config, o ConnOptions, region string) *ssooidc.Client {
	return ssooidc.NewFromConfig(cfg, func(opt *ssooidc.Options) {
		if region != "" {
			opt.Region = region
		}
		opt.Credentials = aws.AnonymousCredentials{}
		if o.OnCall != nil {
			opt.APIOptions = append(opt.APIOptions, callTimer("SSO OIDC", o.OnCall))
		}
		if o.HTTPClient != nil {
			opt.HTTPClient = o.HTTPClient
		}
	})
}

// StartSSOLogin registers a client and starts a device authorization for
// the connection's SSO session. The operator then opens the URL; Poll
// waits for the approval.
func (c *Conn) StartSSOLogin(ctx context.Context, now time.Time) (*DeviceLogin, error) {
	st := c.CredentialsState()
	if !st.HasSSO || c.oidc == nil {
		p := c.Profile
		if p == "" {
			p = "(none)"
		}
		return nil, fmt.Errorf("login: profile %s: %w", Escape(p), errNoSSO)
	}
	s := st.SSO
	path, err := s.CachePath()
	if err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	cl := c.oidc(s.Region)
	reg := &ssooidc.RegisterClientInput{ClientName: aws.String("opsdeck"), ClientType: aws.String("public")}
	if s.Name != "" {
		// A session's token can be refreshed (the SDK does it) only with
		// this scope; the legacy keys get a token that cannot.
		reg.Scopes = []string{"sso:account:access"}
	}
	r, err := cl.RegisterClient(ctx, reg)
	if err != nil {
		return nil, fmt.Errorf("login: registering with IAM Identity Center: %s", oidcError(err))
	}
	a, err := cl.StartDeviceAuthorization(ctx, &ssooidc.StartDeviceAuthorizationInput{
		ClientId: r.ClientId, ClientSecret: r.ClientSecret, StartUrl: aws.String(s.StartURL),
	})
	if err != nil {
		return nil, fmt.Errorf("login: starting the device sign-in: %s", oidcError(err))
	}
	d := &DeviceLogin{
		Session:                 s,
		UserCode:                Escape(aws.ToString(a.UserCode)),
		VerificationURI:         Escape(aws.ToString(a.VerificationUri)),
		VerificationURIComplete: Escape(aws.ToString(a.VerificationUriComplete)),
		Expires:                 now.Add(time.Duration(a.ExpiresIn) * time.Second),
		Interval:                time.Duration(a.Interval) * time.Second,
		client:                  cl,
		clientID:                aws.ToString(r.ClientId),
		clientSecret:            aws.ToString(r.ClientSecret),
		deviceCode:              aws.ToString(a.DeviceCode),
		path:                    path,
	}
	if r.ClientSecretExpiresAt > 0 {
		d.registrationExpires = time.Unix(r.ClientSecretExpiresAt, 0)
	}
	if d.Interval <= 0 {
		d.Interval = 5 * time.Second // RFC 8628's default
	}
	if a.ExpiresIn <= 0 {
		d.Expires = now.Add(10 * time.Minute)
	}
	return d, nil
}

// Poll asks once for the token. done: approved, and the token written to
// the cache. Neither done nor an error: not yet — call again after
// Interval (longer now, if the service asked to slow down). An error ends
// the sign-in.
func (d *DeviceLogin) Poll(ctx context.Context, now time.Time) (done bool, err error) {
	if !now.Before(d.Expires) {
		return false, errors.New("login: the code expired before it was approved; :login again")
	}
	out, err := d.client.CreateToken(ctx, &ssooidc.CreateTokenInput{
		ClientId: aws.String(d.clientID), ClientSecret: aws.String(d.clientSecret),
		DeviceCode: aws.String(d.deviceCode), GrantType: aws.String(deviceGrant),
	})
	var (
		pending *oidctypes.AuthorizationPendingException
		slow    *oidctypes.SlowDownException
		expired *oidctypes.ExpiredTokenException
		denied  *oidctypes.AccessDeniedException
		api     smithy.APIError
	)
	switch {
	case err == nil:
	case errors.As(err, &pending):
		return false, nil
	case errors.As(err, &slow):
		d.Interval += slowDownStep
		return false, nil
	case errors.As(err, &expired):
		return false, errors.New("login: the code expired before it was approved; :login again")
	case errors.As(err, &denied):
		return false, errors.New("login: the sign-in was refused in the browser")
	case ctx.Err() != nil:
		return false, ctx.Err()
	case !errors.As(err, &api):
		// Not an answer (the network): the code is still good, try again.
		return false, nil
	default:
		return false, fmt.Errorf("login: %s", oidcError(err))
	}
	t := SSOToken{
		AccessToken:           aws.ToString(out.AccessToken),
		ExpiresAt:             now.Add(time.Duration(out.ExpiresIn) * time.Second),
		RefreshToken:          aws.ToString(out.RefreshToken),
		ClientID:              d.clientID,
		ClientSecret:          d.clientSecret,
		RegistrationExpiresAt: d.registrationExpires,
		Region:                d.Session.Region,
		StartURL:              d.Session.StartURL,
	}
	if t.AccessToken == "" {
		return false, errors.New("login: IAM Identity Center answered without a token")
	}
	if err := WriteSSOToken(d.path, t); err != nil {
		return false, fmt.Errorf("login: writing the token cache: %s", Escape(err.Error()))
	}
	return true, nil
}

// oidcError is one line naming the service's error code and message.
func oidcError(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		msg := api.ErrorMessage()
		if msg == "" {
			return Escape(api.ErrorCode())
		}
		return Escape(api.ErrorCode() + ": " + msg)
	}
	return Describe(err)
}
