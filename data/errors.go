package data

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/aws/smithy-go"
)

// OpError is what every Store method returns on failure: the DynamoDB
// operation, the physical table (and index) it was aimed at, and where the
// server was. The underlying SDK error is kept for errors.As/Is.
type OpError struct {
	Op       string // "Query", "BatchGetItem", "Scan", ...
	Table    string // physical table name
	Index    string // GSI name, "" for the base table
	Endpoint string // Conn.Target(): the endpoint URL or the region
	Err      error
}

func (e *OpError) Error() string {
	where := e.Table
	if e.Index != "" {
		where += " (index " + e.Index + ")"
	}
	return e.Op + " " + where + ": " + e.Err.Error()
}

func (e *OpError) Unwrap() error { return e.Err }

// Error codes as DynamoDB (and DynamoDB Local) send them.
var (
	accessDeniedCodes = []string{"AccessDeniedException", "UnrecognizedClientException",
		"InvalidSignatureException", "ExpiredTokenException", "MissingAuthenticationTokenException",
		"MissingAuthenticationToken", "IncompleteSignatureException", "InvalidClientTokenId"}
	throttleCodes = []string{"ProvisionedThroughputExceededException", "ThrottlingException",
		"RequestLimitExceeded", "Throttling", "LimitExceededException"}
)

func apiCode(err error) (code, msg string) {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode(), ae.ErrorMessage()
	}
	return "", ""
}

func hasCode(err error, codes ...string) bool {
	c, _ := apiCode(err)
	for _, x := range codes {
		if c == x {
			return true
		}
	}
	return false
}

// IsAccessDenied reports whether the credentials were refused or lack the
// permission for the call.
func IsAccessDenied(err error) bool { return hasCode(err, accessDeniedCodes...) }

// IsNotAuthorized reports whether the call was refused for want of a
// permission (AccessDeniedException): the credentials are good, the policy
// does not allow this action on this resource. Unlike IsAccessDenied it
// leaves out refused or expired credentials, which refuse every call.
func IsNotAuthorized(err error) bool { return hasCode(err, "AccessDeniedException") }

// IsThrottled reports whether DynamoDB throttled the request (after the
// SDK's own retries) or a batch kept coming back unprocessed.
func IsThrottled(err error) bool {
	var ue *UnprocessedError
	return errors.As(err, &ue) || hasCode(err, throttleCodes...)
}

// IsConditionFailed reports whether a conditional write was refused because
// the item was not in the expected state, including inside a transaction.
func IsConditionFailed(err error) bool {
	if hasCode(err, "ConditionalCheckFailedException") {
		return true
	}
	c, msg := apiCode(err)
	return c == "TransactionCanceledException" && strings.Contains(msg, "ConditionalCheckFailed")
}

// IsNotFound reports whether the table or index does not exist. (A missing
// item is not an error: getters return found=false.)
func IsNotFound(err error) bool { return hasCode(err, "ResourceNotFoundException") }

// IsValidation reports whether DynamoDB rejected the request as malformed.
func IsValidation(err error) bool { return hasCode(err, "ValidationException") }

// TimeoutError: a call got no answer within its own deadline while its
// caller still waited. It deliberately does not wrap
// context.DeadlineExceeded: the operator cancelled nothing, so it is never
// IsCancelled.
type TimeoutError struct {
	Op    string // "Scan", "DescribeTable", ...
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return e.Op + " timed out: no answer from DynamoDB within " + e.After.String()
}

// IsTimeout reports whether a call's own deadline ended it (TimeoutError).
func IsTimeout(err error) bool {
	var te *TimeoutError
	return errors.As(err, &te)
}

// IsCancelled reports whether the caller's context ended the call.
func IsCancelled(err error) bool {
	var ce *smithy.CanceledError
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ce)
}

// IsUnreachable reports whether the server could not be reached at all
// (connection refused, unknown host, network down).
func IsUnreachable(err error) bool {
	if err == nil || IsCancelled(err) {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var ne *net.OpError
	return errors.As(err, &ne) && ne.Op == "dial"
}

// Describe turns any error from the data layer into one clear line for the
// status bar: what went wrong and, where known, which table or endpoint.
// It returns "" for nil. No URL in it carries user information.
func Describe(err error) string {
	return redactUserinfo(describe(err))
}

func describe(err error) string {
	if err == nil {
		return ""
	}
	var op *OpError
	errors.As(err, &op)
	table, endpoint := "", ""
	if op != nil {
		table, endpoint = op.Table, op.Endpoint
		if op.Index != "" {
			table += " (index " + op.Index + ")"
		}
	}
	// The URL the request actually went to beats the configured target
	// (which is only a region when no endpoint was given).
	if u := endpointOf(err); u != "" {
		endpoint = u
	}
	code, msg := apiCode(err)
	msg = oneLine(msg)

	var sso *SSOLoginError
	var mfa *MFAError
	switch {
	case errors.Is(err, ErrReadOnly):
		return ErrReadOnly.Error()
	case errors.As(err, &sso):
		// The command first: on a narrow screen it is what must not be cut.
		return fmt.Sprintf("run %s: the SSO sign-in of profile %s has expired or is missing", sso.Command(), sso.Profile)
	case errors.As(err, &mfa):
		// The way out first; the role is in :whoami and the debug log.
		if errors.Is(mfa, ErrMFAGivenUp) {
			return fmt.Sprintf("no MFA code given for profile %s: r asks for it again", mfa.Profile)
		}
		return fmt.Sprintf("no MFA code for profile %s: %s", mfa.Profile, oneLine(mfa.Err.Error()))
	case IsTimeout(err):
		var te *TimeoutError
		errors.As(err, &te)
		return te.Error() + on(table) + at(endpoint)
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out waiting for DynamoDB" + at(endpoint)
	case IsNotFound(err):
		if table != "" {
			return fmt.Sprintf("table %s does not exist%s", table, at(endpoint))
		}
		return "table or index does not exist" + at(endpoint) + dash(msg)
	case IsNotAuthorized(err):
		return notAllowed(op, msg)
	case IsAccessDenied(err):
		return fmt.Sprintf("access denied (%s)%s%s", code, on(table), dash(msg))
	case IsThrottled(err):
		var ue *UnprocessedError
		if errors.As(err, &ue) {
			return fmt.Sprintf("throttled%s: %d keys still unread after %d attempts; try again", on(table), ue.Keys, ue.Attempts)
		}
		return fmt.Sprintf("throttled by DynamoDB%s (%s); try again in a moment", on(table), code)
	case IsConditionFailed(err):
		return "not changed: the item is no longer in the expected state" + on(table)
	case IsValidation(err):
		return "request rejected as invalid" + on(table) + dash(msg)
	case code == "ExpiredIteratorException":
		return "stream iterator expired; reopening the shard is required" + dash(msg)
	case code == "TrimmedDataAccessException":
		return "stream records were trimmed (older than 24 h)" + dash(msg)
	case code == "InternalServerError" || code == "InternalFailure" || code == "ServiceUnavailable":
		return "DynamoDB internal error" + on(table) + "; try again" + dash(msg)
	case code != "":
		return code + on(table) + dash(msg)
	case IsUnreachable(err):
		if endpoint == "" {
			endpoint = "DynamoDB"
		}
		return "cannot reach " + endpoint + dash(netReason(err))
	case strings.Contains(err.Error(), "failed to retrieve credentials") ||
		strings.Contains(err.Error(), "no EC2 IMDS role found"):
		return "no AWS credentials found: pass --profile or set AWS_PROFILE"
	}
	return oneLine(err.Error())
}

// deniedRE reads the action and resource out of DynamoDB's AccessDenied
// text ("User: … is not authorized to perform: dynamodb:Query on resource:
// arn:aws:dynamodb:…:table/T/index/I …"), for calls that carry no OpError
// (the stream reader's).
var deniedRE = regexp.MustCompile(`perform: ([a-zA-Z0-9-]+:[a-zA-Z0-9]+)(?: on resource: (arn:\S+))?`)

// notAllowed is the line for a call refused for want of a permission: the
// IAM action and the resource, in IAM's own form, first, because that is
// what the operator has to ask for; the server's code and text follow, for
// :messages and the audit log, since they name the principal and any
// policy that denied.
// The action and resource come from the call (OpError) when known: the
// server's text is cut or reworded by some proxies, the call is not.
func notAllowed(op *OpError, msg string) string {
	action, resource := "", ""
	if m := deniedRE.FindStringSubmatch(msg); m != nil {
		action = m[1]
		if m[2] != "" {
			resource = arnResource(strings.TrimRight(m[2], ".,;"))
		}
	}
	if op != nil && op.Op != "" {
		action = "dynamodb:" + op.Op
	}
	if op != nil && op.Table != "" {
		resource = "table/" + op.Table
		if op.Index != "" {
			resource += "/index/" + op.Index
		}
	}
	line := "not allowed"
	switch {
	case action != "" && resource != "":
		line += ": " + action + " on " + resource
	case action != "":
		line += ": " + action
	}
	if msg != "" {
		line += " (AccessDeniedException: " + msg + ")"
	}
	return line
}

// arnResource is the resource part of an ARN (after its fifth colon:
// "table/T/stream/2026-01-01T00:00:00.000" keeps the label's own colons).
func arnResource(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return arn
	}
	return parts[5]
}

// userinfoRE finds the user information of URLs inside a message. Go's
// HTTP client already masks a password as "***", but a user name can be a
// token too.
var userinfoRE = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s"']*@`)

func redactUserinfo(s string) string { return userinfoRE.ReplaceAllString(s, "${1}***@") }

// at says where: " at http://host:port" for an endpoint, " in us-east-1"
// for a region.
func at(endpoint string) string {
	switch {
	case endpoint == "":
		return ""
	case strings.Contains(endpoint, "://"):
		return " at " + endpoint
	}
	return " in " + endpoint
}

func on(table string) string {
	if table == "" {
		return ""
	}
	return " on " + table
}

func dash(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// endpointOf finds the URL a failed request was sent to (scheme and host).
func endpointOf(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			return u.Scheme + "://" + u.Host
		}
	}
	return ""
}

func netReason(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "unknown host " + dns.Name
	}
	var ne *net.OpError
	if errors.As(err, &ne) && ne.Err != nil {
		return ne.Err.Error()
	}
	return ""
}

// oneLine collapses whitespace so a multi-line SDK message fits a status bar.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
