package data

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go/logging"
)

// ConnOptions says where and as whom to connect. Empty fields fall back to
// the AWS conventions: AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL,
// AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL_DYNAMODB_STREAMS.
type ConnOptions struct {
	Profile         string
	Region          string
	Endpoint        string // DynamoDB endpoint (--endpoint-url)
	StreamsEndpoint string // defaults to Endpoint when that was given explicitly
	// DebugLog receives the SDK's log lines and ours. Nil discards them: the
	// SDK must never write to the terminal while the UI owns it.
	DebugLog io.Writer
	// HTTPClient, when set, carries every request (tests put a fault-injecting
	// or recording RoundTripper here, in front of the real server).
	HTTPClient *http.Client
	// ReadOnly makes the data layer refuse every write (see Conn.CheckWrite).
	ReadOnly bool
}

// Conn is one connection to DynamoDB and DynamoDB Streams.
type Conn struct {
	DB      *dynamodb.Client
	Streams *dynamodbstreams.Client

	Profile         string
	Region          string
	Endpoint        string // empty means the AWS default endpoint for Region
	StreamsEndpoint string
	ReadOnly        bool
	Log             logging.Logger
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
// status bar.
func (c *Conn) Target() string {
	if c.Endpoint != "" {
		return c.Endpoint
	}
	return c.Region
}

// Connect builds the two clients.
func Connect(ctx context.Context, o ConnOptions) (*Conn, error) {
	profile := firstNonEmpty(o.Profile, os.Getenv("AWS_PROFILE"))
	region := firstNonEmpty(o.Region, os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION"))
	endpoint := firstNonEmpty(o.Endpoint, os.Getenv("AWS_ENDPOINT_URL_DYNAMODB"), os.Getenv("AWS_ENDPOINT_URL"))
	streamsEndpoint := firstNonEmpty(o.StreamsEndpoint, o.Endpoint, os.Getenv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS"), os.Getenv("AWS_ENDPOINT_URL"), endpoint)

	w := o.DebugLog
	if w == nil {
		w = io.Discard
	}
	logger := logging.NewStandardLogger(w)

	local := IsLoopbackEndpoint(endpoint)
	if local && region == "" {
		region = "us-east-1"
	}
	opts := []func(*config.LoadOptions) error{
		config.WithLogger(logger),
	}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	if profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(profile))
	} else if local {
		// DynamoDB Local accepts any credentials; don't make a developer
		// configure some to run the demo or the tests.
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("opsdeck", "local", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("loading AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return nil, fmt.Errorf("no AWS region: pass --region or set AWS_REGION")
	}

	// The HTTP client goes on the service clients, not on the shared config:
	// LoadDefaultConfig refuses a plain *http.Client whenever AWS_CA_BUNDLE is
	// set (it cannot add the bundle to an arbitrary RoundTripper).
	db := dynamodb.NewFromConfig(cfg, func(opt *dynamodb.Options) {
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
		if o.HTTPClient != nil {
			opt.HTTPClient = o.HTTPClient
		}
		if streamsEndpoint != "" {
			opt.BaseEndpoint = aws.String(streamsEndpoint)
		}
	})
	return &Conn{
		DB:              db,
		Streams:         streams,
		Profile:         profile,
		Region:          cfg.Region,
		Endpoint:        endpoint,
		StreamsEndpoint: streamsEndpoint,
		ReadOnly:        o.ReadOnly,
		Log:             logger,
	}, nil
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

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
