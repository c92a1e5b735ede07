package stream

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"

	"opsdeck/data"

	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// fault is what the reader does about an error.
type fault int

const (
	faultTransient fault = iota // back off, report "reconnecting", retry
	faultExpired                // iterator no longer usable: get a new one
	faultTrimmed                // position fell off the stream: TRIM_HORIZON + gap
	faultNotFound               // shard/stream/table unknown: rediscover
	faultThrottled              // read limit: back off hard, report "throttled"
	faultCanceled               // our own context ended
	faultDenied                 // AccessDeniedException: the policy refuses the read (denied.go)
)

func classify(ctx context.Context, err error) fault {
	if ctx.Err() != nil {
		return faultCanceled
	}
	var (
		expired  *st.ExpiredIteratorException
		trimmed  *st.TrimmedDataAccessException
		notFound *st.ResourceNotFoundException
		tableNF  *ddbtypes.ResourceNotFoundException
	)
	switch {
	case errors.As(err, &expired):
		return faultExpired
	case errors.As(err, &trimmed):
		return faultTrimmed
	case errors.As(err, &notFound), errors.As(err, &tableNF):
		return faultNotFound
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code := ae.ErrorCode()
		switch code {
		case "ExpiredIteratorException":
			return faultExpired
		case "TrimmedDataAccessException":
			return faultTrimmed
		case "ResourceNotFoundException":
			return faultNotFound
		case "AccessDeniedException":
			return faultDenied
		case "LimitExceededException", "ThrottlingException", "ProvisionedThroughputExceededException",
			"RequestLimitExceeded", "TooManyRequestsException":
			return faultThrottled
		case "ValidationException":
			// DynamoDB Local answers a garbled or foreign iterator with
			// "Invalid ShardIterator"; a fresh iterator fixes it.
			if strings.Contains(strings.ToLower(ae.ErrorMessage()), "iterator") {
				return faultExpired
			}
		}
	}
	return faultTransient
}

// SignedOut begins a Health.Detail that is an expired or missing SSO
// sign-in: the rest is what to run. The reader keeps retrying (the
// credentials are read again each time), so the tail resumes by itself
// once the operator has signed in.
const SignedOut = "signed out: "

// opDetail is Health.Detail for op failing with err. A sign-in problem
// leaves op out and says what to run, in the data layer's words rather
// than the SDK's: the title has a few cells for it.
func opDetail(op string, err error) string {
	var sso *data.SSOLoginError
	if errors.As(err, &sso) {
		return SignedOut + "run " + sso.Command()
	}
	return op + ": " + describeErr(err)
}

// describeErr is one short line for Health.Detail and logs: the AWS error
// code and message when there is one, else the innermost network error.
func describeErr(err error) string {
	if err == nil {
		return ""
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		msg := ae.ErrorMessage()
		var re *smithyhttp.ResponseError
		if errors.As(err, &re) && re.HTTPStatusCode() >= 500 {
			return oneLine(ae.ErrorCode() + " (HTTP " + strconv.Itoa(re.HTTPStatusCode()) + "): " + msg)
		}
		return oneLine(ae.ErrorCode() + ": " + msg)
	}
	var ne *net.OpError
	if errors.As(err, &ne) {
		return oneLine("connection error: " + ne.Err.Error())
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "request timed out"
	}
	return oneLine(err.Error())
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// isUnsupported: the server did not understand the request (an older
// server or emulator without ShardFilter), as opposed to failing it.
func isUnsupported(err error) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode() {
	case "ValidationException", "UnknownOperationException", "InvalidParameterException",
		"SerializationException", "UnrecognizedClientException":
		return true
	}
	return false
}
