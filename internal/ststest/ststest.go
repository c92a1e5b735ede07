// Package ststest is test support (never linked into the binary): a
// recording stand-in for STS, which has no emulator. It answers AssumeRole
// as STS does (XML), checking the MFA device and one-time code a role
// demands, and GetCallerIdentity. Tests reach it through
// AWS_ENDPOINT_URL_STS (Start sets it).
package ststest

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Call is one request STS received.
type Call struct {
	Action     string
	RoleARN    string
	Serial     string // SerialNumber ("" when none was sent)
	Code       string // TokenCode
	SignedWith string // the access key id that signed the request
	IssuedKey  string // AssumeRole: the access key id it answered with ("" when refused)
}

// Server is the stand-in. Set its fields before the calls they govern;
// they are read under its lock.
type Server struct {
	URL string

	mu sync.Mutex
	// Serial and Code are what AssumeRole demands: a request without
	// Serial's device, or with another code, is refused as STS refuses it
	// (AccessDenied, "MultiFactorAuthentication failed …"). Serial ""
	// demands no MFA.
	Serial, Code string
	// Lifetimes are the lifetimes of the credentials of the successive
	// AssumeRole answers; past the list, the last one; none: an hour.
	Lifetimes []time.Duration
	calls     []Call
	issued    int
}

var credentialRE = regexp.MustCompile(`Credential=([^/]+)/`)

// Start runs a stand-in for the test and points the SDK at it.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	t.Setenv("AWS_ENDPOINT_URL_STS", srv.URL)
	return s
}

// Set changes what AssumeRole demands and answers, under the lock.
func (s *Server) Set(f func(s *Server)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// Calls are the requests so far, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f := r.PostForm
	c := Call{Action: f.Get("Action"), RoleARN: f.Get("RoleArn"), Serial: f.Get("SerialNumber"), Code: f.Get("TokenCode")}
	if m := credentialRE.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		c.SignedWith = m[1]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml")
	switch c.Action {
	case "GetCallerIdentity":
		s.calls = append(s.calls, c)
		fmt.Fprint(w, `<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:sts::123456789012:assumed-role/OnCall/opsdeck</Arn><UserId>AROAOPSDECK:opsdeck</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`)
	case "AssumeRole":
		if s.Serial != "" && (c.Serial != s.Serial || c.Code != s.Code) {
			s.calls = append(s.calls, c)
			refuse(w, "AccessDenied", "MultiFactorAuthentication failed with invalid MFA one time pass code. ")
			return
		}
		life := time.Hour
		if n := len(s.Lifetimes); n > 0 {
			life = s.Lifetimes[min(s.issued, n-1)]
		}
		s.issued++
		c.IssuedKey = fmt.Sprintf("ASIAROLE%04d", s.issued)
		s.calls = append(s.calls, c)
		fmt.Fprintf(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>role-secret</SecretAccessKey><SessionToken>role-session-token</SessionToken><Expiration>%s</Expiration></Credentials><AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/OnCall/opsdeck</Arn><AssumedRoleId>AROAOPSDECK:opsdeck</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>`,
			c.IssuedKey, time.Now().Add(life).UTC().Format(time.RFC3339))
	default:
		s.calls = append(s.calls, c)
		refuse(w, "InvalidAction", "unknown action "+url.QueryEscape(c.Action))
	}
}

func refuse(w http.ResponseWriter, code, msg string) {
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintf(w, `<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>1</RequestId></ErrorResponse>`, code, html.EscapeString(msg))
}
