package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ssooidc"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
)

// ConnOptions says where and as whom to connect. Empty fields fall back to
// the AWS conventions: AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL,
// AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_DYNAMODB_STREAMS.
type ConnOptions struct {
	Profile         string
	Region          string
	Endpoint        string // DynamoDB endpoint (--endpoint-url)
	StreamsEndpoint string // defaults to Endpoint when that was given explicitly
	// ECSEndpoint is where ECS calls go (a release stops the session's
	// task). Empty follows the SDK's conventions: AWS_ENDPOINT_URL_ECS,
	// the profile's services section, AWS_ENDPOINT_URL, else AWS for the
	// region. The DynamoDB endpoint is never used for ECS: DynamoDB Local
	// answers no ECS call. The demo sets it to its own loopback handler.
	ECSEndpoint string
	// DebugLog receives the SDK's log lines and ours. Nil discards them: the
	// SDK must never write to the terminal while the UI owns it.
	DebugLog io.Writer
	// HTTPClient, when set, carries every request (tests put a fault-injecting
	// or recording RoundTripper here, in front of the real server).
	HTTPClient *http.Client
	// ReadOnly makes the data layer refuse every write (see Conn.CheckWrite).
	ReadOnly bool
	// OnCall, when set, hears of every API call once it has finished, and
	// of the first credentials lookup (Op "credentials"). main uses it for
	// the start-up timeline of the debug log. It runs on the caller's
	// goroutine, so it must be quick and safe for concurrent use.
	OnCall func(Call)
	// OnCredentialProcess, when set, hears what a profile's
	// credential_process wrote to stderr (escaped) and whether it failed
	// (credproc.go): the helper never writes to the terminal itself. It
	// runs on the goroutine that needed credentials.
	OnCredentialProcess func(CredentialProcessOutput)
	// MFA, when set, asks the operator for a role's one-time code (a
	// profile with mfa_serial, rolechain.go): at the first call and
	// whenever the role's credentials expire. Nil: such a role fails
	// with an *MFAError saying no one could be asked.
	MFA MFAPrompter
}

// Call is one finished API call (or credentials lookup), for
// ConnOptions.OnCall.
type Call struct {
	Service string // "DynamoDB", "DynamoDB Streams" or "" for credentials
	Op      string // "Query", "DescribeTable", …, "credentials"
	Start   time.Time
	Took    time.Duration // retries and signing included
	Err     error
}

// Conn is one connection to DynamoDB and DynamoDB Streams.
type Conn struct {
	DB      *dynamodb.Client
	Streams *dynamodbstreams.Client
	// ecs builds, on first success, the client that stops a released session's task
	// (ECSClient).
	ecs func() (*ecs.Client, error)
	// sts answers :whoami (whoami.go); creds are the connection's
	// credentials, for where they came from and when they expire.
	sts   func() *sts.Client
	creds aws.CredentialsProvider
	// watch is creds' expiry, refresh ahead and SSO sign-in state
	// (credwatch.go); oidc builds the client :login signs in with
	// (ssodevice.go).
	watch *credWatch
	oidc  func(region string) *ssooidc.Client
	// dummy: DynamoDB Local with the fixed local keys, no AWS identity.
	dummy bool

	Profile string
	Region  string
	// Endpoint and StreamsEndpoint say where the clients point, with any
	// user information redacted (RedactURL): they are for display and the
	// audit log. Empty means the AWS default endpoint for Region.
	Endpoint        string
	StreamsEndpoint string
	// ECSEndpoint is where ECS calls go when set explicitly or through
	// AWS_ENDPOINT_URL_ECS / AWS_ENDPOINT_URL (redacted); empty is AWS.
	ECSEndpoint string
	ReadOnly    bool
	Log         logging.Logger
	// close ends what runs for this connection outside a call: a
	// credential_process still running is killed (Close).
	close context.CancelFunc
}

// Close kills any credential_process this connection still runs and
// makes later ones fail at once. Clients stay usable for credentials
// already cached. The console closes a connection when it quits or
// switches env. Safe to call more than once, and on nil.
func (c *Conn) Close() {
	if c != nil && c.close != nil {
		c.close()
	}
}

// ErrReadOnly is returned by every write attempted on a read-only Conn.
var ErrReadOnly = fmt.Errorf("opsdeck is in read-only mode: writes are disabled")

// CheckWrite returns ErrReadOnly when writes are disabled.
func (c *Conn) CheckWrite() error {
	if c.ReadOnly {
		return ErrReadOnly
	}
	return nil
}

// Target is a short description of where this connection points, for the
// status bar and the audit log. Credentials in the endpoint URL never show:
// Endpoint is stored redacted (RedactURL).
func (c *Conn) Target() string {
	if c.Endpoint != "" {
		return RedactURL(c.Endpoint)
	}
	return c.Region
}

// RedactURL returns u with any user information (http://user:pass@host)
// replaced by "***", so an endpoint can be shown or logged. Text that is not
// a URL with a host is returned as a fixed placeholder rather than echoed:
// it may be a secret pasted into the wrong place.
func RedactURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unreadable URL)"
	}
	if u.User == nil {
		return u.String()
	}
	u.User = nil
	rest := strings.TrimPrefix(u.String(), u.Scheme+"://")
	return u.Scheme + "://***@" + rest
}

// CheckEndpoint says what is wrong with an endpoint URL, in words that name
// source (a flag or an environment variable), or nil when it is usable: an
// http or https URL with a host, and nothing after the path. The URL in the
// message is redacted.
func CheckEndpoint(source, raw string) error {
	u, err := url.Parse(raw)
	shown := fmt.Sprintf("%q", raw)
	if err == nil && u.User != nil {
		shown = fmt.Sprintf("%q", RedactURL(raw))
	} else if err != nil || strings.Contains(raw, "@") {
		shown = "the value given"
	}
	switch {
	case err != nil:
		return fmt.Errorf("%s: %s is not a URL (want e.g. http://127.0.0.1:8000)", source, shown)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%s: %s must start with http:// or https:// (e.g. http://127.0.0.1:8000)", source, shown)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("%s: %s has no host (want e.g. http://127.0.0.1:8000)", source, shown)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return fmt.Errorf("%s: %s must not carry a query or fragment", source, shown)
	}
	return nil
}

// Connect builds the two clients.
func Connect(ctx context.Context, o ConnOptions) (*Conn, error) {
	profile := firstNonEmpty(o.Profile, os.Getenv("AWS_PROFILE"))
	region := firstNonEmpty(o.Region, os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION"))
	endpoint, endpointFrom := firstSet(
		setting{"the endpoint URL", o.Endpoint},
		setting{"AWS_ENDPOINT_URL_DYNAMODB", os.Getenv("AWS_ENDPOINT_URL_DYNAMODB")},
		setting{"AWS_ENDPOINT_URL", os.Getenv("AWS_ENDPOINT_URL")})
	streamsEndpoint, streamsFrom := firstSet(
		setting{"the streams endpoint URL", o.StreamsEndpoint},
		setting{"the endpoint URL", o.Endpoint},
		setting{"AWS_ENDPOINT_URL_DYNAMODB_STREAMS", os.Getenv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS")},
		setting{"AWS_ENDPOINT_URL", os.Getenv("AWS_ENDPOINT_URL")},
		setting{endpointFrom, endpoint})
	// A malformed endpoint would otherwise reach the UI as an SDK error on
	// every call; refuse it here, naming where it came from.
	if endpoint != "" {
		if err := CheckEndpoint(endpointFrom, endpoint); err != nil {
			return nil, err
		}
	}
	if streamsEndpoint != "" {
		if err := CheckEndpoint(streamsFrom, streamsEndpoint); err != nil {
			return nil, err
		}
	}
	// The ECS endpoint as far as it is known here, for display and for
	// the choice of credentials below; the SDK itself resolves the
	// environment and the profile's services section.
	ecsEndpoint, ecsFrom := firstSet(
		setting{"the ECS endpoint URL", o.ECSEndpoint},
		setting{"AWS_ENDPOINT_URL_ECS", os.Getenv("AWS_ENDPOINT_URL_ECS")},
		setting{"AWS_ENDPOINT_URL", os.Getenv("AWS_ENDPOINT_URL")})
	if ecsEndpoint != "" {
		if err := CheckEndpoint(ecsFrom, ecsEndpoint); err != nil {
			return nil, err
		}
	}

	w := o.DebugLog
	if w == nil {
		w = io.Discard
	}
	logger := logging.NewStandardLogger(w)

	local := IsLoopbackEndpoint(endpoint)
	opts := []func(*config.LoadOptions) error{
		config.WithLogger(logger),
	}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	// An explicit profile is honoured on any endpoint, DynamoDB Local
	// included: tests and demos then exercise the real credential chain
	// (SSO, roles, helpers), and DynamoDB Local keeps each access key's
	// tables apart. Only with no profile does loopback get dummy keys.
	if profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(profile))
	} else if local {
		// DynamoDB Local accepts any credentials; don't make a developer
		// configure some to run the demo or the tests.
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("opsdeck", "local", "")))
	}
	// What runs for this connection outside a call (a helper, a prompt
	// for an MFA code) ends with it (Close).
	life, closeLife := context.WithCancel(context.Background())
	opts = append(opts, sdkTokenProvider(life, profile, o.MFA))
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		closeLife()
		if uerr := asUnknownProfile(err, profile); uerr != err {
			return nil, uerr
		}
		return nil, fmt.Errorf("loading AWS configuration: %w", err)
	}
	if cfg.Region == "" && local {
		// After loading, so a profile's own region wins on loopback too.
		cfg.Region = "us-east-1"
	}
	if cfg.Region == "" {
		closeLife()
		return nil, fmt.Errorf("no AWS region: pass --region or set AWS_REGION")
	}
	useOwnCredentials(ctx, life, &cfg, profile, o, logger)
	watch := watchCredentials(ctx, &cfg, profile)

	// The HTTP client goes on the service clients, not on the shared config:
	// LoadDefaultConfig refuses a plain *http.Client whenever AWS_CA_BUNDLE is
	// set (it cannot add the bundle to an arbitrary RoundTripper).
	if o.OnCall != nil && cfg.Credentials != nil {
		cfg.Credentials = &timedCredentials{inner: cfg.Credentials, onCall: o.OnCall}
	}
	db := dynamodb.NewFromConfig(cfg, func(opt *dynamodb.Options) {
		opt.Protocol = queryProtocol{opt.Protocol}
		if o.OnCall != nil {
			opt.APIOptions = append(opt.APIOptions, callTimer("DynamoDB", o.OnCall))
		}
		if o.HTTPClient != nil {
			opt.HTTPClient = o.HTTPClient
		}
		if endpoint != "" {
			opt.BaseEndpoint = aws.String(endpoint)
		}
		// DynamoDB Local's error responses carry an x-amz-crc32 the SDK
		// rejects, logging a warning on every failed condition. Only trust
		// that shortcut on loopback; against AWS the check stays on.
		opt.DisableValidateResponseChecksum = local
	})
	streams := dynamodbstreams.NewFromConfig(cfg, func(opt *dynamodbstreams.Options) {
		if o.OnCall != nil {
			opt.APIOptions = append(opt.APIOptions, callTimer("DynamoDB Streams", o.OnCall))
		}
		if o.HTTPClient != nil {
			opt.HTTPClient = o.HTTPClient
		}
		if streamsEndpoint != "" {
			opt.BaseEndpoint = aws.String(streamsEndpoint)
		}
	})
	// The ECS client is built on first use: with DynamoDB on loopback it
	// loads the AWS configuration a second time (real credentials for a
	// real ECS), which is milliseconds of work the first screen does not
	// need — only a release does.
	dummy := local && profile == ""
	return &Conn{
		DB:      db,
		Streams: streams,
		ecs: lazyClient(func() (*ecs.Client, error) {
			return newECS(context.WithoutCancel(ctx), life, cfg, o, profile, dummy, ecsEndpoint)
		}),
		sts:             sync.OnceValue(func() *sts.Client { return newSTS(cfg, o) }),
		creds:           cfg.Credentials,
		watch:           watch,
		oidc:            func(region string) *ssooidc.Client { return newOIDC(cfg, o, region) },
		dummy:           dummy,
		ECSEndpoint:     RedactURL(ecsEndpoint),
		Profile:         profile,
		Region:          cfg.Region,
		Endpoint:        RedactURL(endpoint),
		StreamsEndpoint: RedactURL(streamsEndpoint),
		ReadOnly:        o.ReadOnly,
		Log:             logger,
		close:           closeLife,
	}, nil
}

// lazyClient builds a client on first use and keeps it; a failure (an
// expired SSO token, say) is not kept, so the next release tries again.
func lazyClient[T any](build func() (*T, error)) func() (*T, error) {
	var (
		mu     sync.Mutex
		client *T
	)
	return func() (*T, error) {
		mu.Lock()
		defer mu.Unlock()
		if client != nil {
			return client, nil
		}
		c, err := build()
		if err != nil {
			return nil, err
		}
		client = c
		return c, nil
	}
}

// ECSClient is the client that stops a released session's task
// (data/action). Its endpoint and credentials follow the SDK's
// conventions, not the DynamoDB endpoint's (ConnOptions.ECSEndpoint).
func (c *Conn) ECSClient() (*ecs.Client, error) {
	if c == nil || c.ecs == nil {
		return nil, errors.New("no ECS client")
	}
	return c.ecs()
}

// callTimer times each call from its first middleware to its answer.
func callTimer(service string, onCall func(Call)) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("opsdeckCallTimer",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				start := time.Now()
				out, md, err := next.HandleInitialize(ctx, in)
				onCall(Call{Service: service, Op: middleware.GetOperationName(ctx), Start: start, Took: time.Since(start), Err: err})
				return out, md, err
			}), middleware.Before)
	}
}

// timedCredentials reports how long credentials took to find the first time
// (a profile's SSO token, a role to assume, instance metadata): that is on
// the critical path of the first call. Later lookups come from the cache
// and are not reported.
type timedCredentials struct {
	inner    aws.CredentialsProvider
	onCall   func(Call)
	reported atomic.Bool
}

func (t *timedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	if t.reported.Load() {
		return t.inner.Retrieve(ctx)
	}
	start := time.Now()
	c, err := t.inner.Retrieve(ctx)
	if !t.reported.Swap(true) {
		t.onCall(Call{Op: "credentials", Start: start, Took: time.Since(start), Err: err})
	}
	return c, err
}

// ConnectLocal connects to a DynamoDB Local endpoint with dummy credentials.
// Tests and the demo use it.
func ConnectLocal(ctx context.Context, endpoint string) (*Conn, error) {
	return Connect(ctx, ConnOptions{Endpoint: endpoint, Region: "us-east-1"})
}

// IsLoopbackEndpoint reports whether endpoint is a URL whose host is this
// machine (localhost or a loopback IP), as DynamoDB Local is. An empty or
// unparsable endpoint is not: it means AWS, or a mistake, and both must be
// treated as remote. Connect uses it to pick dummy credentials; the demo
// uses it to refuse to seed a real account.
func IsLoopbackEndpoint(endpoint string) bool {
	if endpoint == "" {
		return false
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// setting is a value and where it came from, for error messages.
type setting struct{ from, value string }

// firstSet returns the first non-empty setting and its source.
func firstSet(s ...setting) (value, from string) {
	for _, x := range s {
		if x.value != "" {
			return x.value, x.from
		}
	}
	return "", ""
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// newECS builds the ECS client from the same AWS configuration (profile,
// region, the SDK's endpoint conventions), with two exceptions: an
// explicit ECSEndpoint wins, and the dummy credentials chosen for a
// loopback DynamoDB are kept only when ECS is on loopback too; against
// AWS they would only earn an UnrecognizedClientException, so ECS then
// gets the default credential chain.
func newECS(ctx, life context.Context, cfg aws.Config, o ConnOptions, profile string, dummyCreds bool, endpoint string) (*ecs.Client, error) {
	if dummyCreds && !IsLoopbackEndpoint(endpoint) {
		opts := []func(*config.LoadOptions) error{config.WithRegion(cfg.Region), config.WithLogger(cfg.Logger), sdkTokenProvider(life, profile, o.MFA)}
		if profile != "" {
			opts = append(opts, config.WithSharedConfigProfile(profile))
		}
		own, err := config.LoadDefaultConfig(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("loading AWS configuration for ECS: %w", err)
		}
		useOwnCredentials(ctx, life, &own, profile, o, cfg.Logger)
		watchCredentials(ctx, &own, profile)
		if o.OnCall != nil && own.Credentials != nil {
			own.Credentials = &timedCredentials{inner: own.Credentials, onCall: o.OnCall}
		}
		cfg = own
	}
	return ecs.NewFromConfig(cfg, func(opt *ecs.Options) {
		if o.OnCall != nil {
			opt.APIOptions = append(opt.APIOptions, callTimer("ECS", o.OnCall))
		}
		if o.HTTPClient != nil {
			opt.HTTPClient = o.HTTPClient
		}
		if o.ECSEndpoint != "" {
			opt.BaseEndpoint = aws.String(o.ECSEndpoint)
		}
	}), nil
}
