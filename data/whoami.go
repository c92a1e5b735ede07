package data

// WhoAmI: which AWS identity the console acts as, and until when (":whoami").

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// Identity is who a connection acts as, for display. Local is set, and
// the AWS fields left empty, when the connection is DynamoDB Local with
// the dummy keys: there is no AWS identity to ask about.
type Identity struct {
	Local bool

	Account, ARN, UserID string // STS GetCallerIdentity

	Profile  string // "" when none was chosen (the default chain)
	Region   string
	Endpoint string // DynamoDB endpoint, redacted; "" means AWS for Region

	// Source is where the SDK found the credentials (aws.Credentials.Source:
	// "SharedConfigCredentials: …", "EnvConfigCredentials", an SSO or
	// assume-role provider…). Expires is set only when CanExpire.
	Source    string
	CanExpire bool
	Expires   time.Time
}

// newSTS builds the STS client from the connection's configuration: the
// same profile, region and credentials as DynamoDB, and the SDK's endpoint
// conventions (AWS_ENDPOINT_URL_STS, the profile's services section,
// AWS_ENDPOINT_URL). The DynamoDB endpoint is never used: it answers no
// STS call.
func newSTS(cfg aws.Config, o ConnOptions) *sts.Client {
	return sts.NewFromConfig(cfg, func(opt *sts.Options) {
		if o.OnCall != nil {
			opt.APIOptions = append(opt.APIOptions, callTimer("STS", o.OnCall))
		}
		if o.HTTPClient != nil {
			opt.HTTPClient = o.HTTPClient
		}
	})
}

// WhoAmI asks STS who the connection's credentials belong to, and the
// credentials where they came from and when they expire. With DynamoDB
// Local and the dummy keys it calls nothing and returns Local. An error
// is one line (Describe), naming STS.
func (c *Conn) WhoAmI(ctx context.Context) (Identity, error) {
	id := Identity{Profile: c.Profile, Region: c.Region, Endpoint: c.Endpoint}
	if c.dummy {
		id.Local = true
		return id, nil
	}
	if c.creds == nil || c.sts == nil {
		return id, errors.New("no AWS credentials configured")
	}
	cr, err := c.creds.Retrieve(ctx)
	if err != nil {
		return id, fmt.Errorf("getting credentials: %s", whoamiError(err))
	}
	id.Source, id.CanExpire = cr.Source, cr.CanExpire
	if cr.CanExpire {
		id.Expires = cr.Expires
	}
	out, err := c.sts().GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return id, fmt.Errorf("STS GetCallerIdentity: %s", whoamiError(err))
	}
	id.Account, id.ARN, id.UserID = aws.ToString(out.Account), aws.ToString(out.Arn), aws.ToString(out.UserId)
	return id, nil
}

// whoamiError is Describe, except that a deadline names STS rather than
// DynamoDB.
func whoamiError(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out waiting for STS"
	}
	return Describe(err)
}
