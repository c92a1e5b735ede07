package data

// The connection's credentials as the console sees them: when they
// expire (the status bar counts down the last 15 minutes), new ones got
// ahead of that, and an SSO token that must be renewed — said in our
// words, with what to run, and remembered until a fresh token appears in
// the CLI's cache (the console watches it and reloads by itself).

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
)

// RefreshAhead is how long before the connection's credentials expire
// the console gets new ones. The SDK's cache would only refresh them once
// expired, on the call that then waits (or fails) for it.
const RefreshAhead = 5 * time.Minute

// refreshRetry spaces the tries after a refresh ahead failed: the
// credentials still work meanwhile, and each try may run a helper or ask
// the portal.
const refreshRetry = 30 * time.Second

// CredentialsState is what the console knows of the connection's
// credentials, without asking for them.
type CredentialsState struct {
	// Known: credentials were got at least once. CanExpire and Expires
	// are theirs (the real expiry, not the cache's).
	Known     bool
	CanExpire bool
	Expires   time.Time
	// RefreshErr is why the last refresh ahead of expiry failed (Describe
	// says what to run); nil once one succeeds. The old credentials are
	// used until they expire.
	RefreshErr error
	// SignIn is the SSO token problem met since the last success; nil
	// when there is none.
	SignIn *SSOLoginError
	// SSO is how the profile signs in with IAM Identity Center, when it
	// does (HasSSO).
	SSO    SSOSession
	HasSSO bool
}

// credWatch wraps the provider the SDK chose (its cache, or the one
// credproc.go made) as the connection's credentials.
type credWatch struct {
	base aws.CredentialsProvider
	sso  SSOSession
	// isSSO: the SDK's SSO provider signs the profile in, so its token
	// errors are SSOLoginErrors.
	isSSO bool
	// ahead: renew RefreshAhead before expiry. Not for an assumed role
	// (rolechain.go renews it a minute ahead, asking for an MFA code
	// then: five minutes early would ask for codes sooner than said).
	ahead bool
	now   func() time.Time

	mu         sync.Mutex
	last       aws.Credentials
	have       bool
	nextTry    time.Time
	refreshErr error
	signIn     *SSOLoginError
	// stamp is the token file as it was when the current sign-in problem
	// began: a token written after that is the operator's new sign-in.
	stamp fileStamp
	// source is the watch of a role's SSO source profile, once one has
	// reported a sign-in problem through this one.
	source *credWatch
}

// watchCredentials wraps cfg's credentials in a credWatch (nil when cfg
// has none).
func watchCredentials(ctx context.Context, cfg *aws.Config, profile string) *credWatch {
	if cfg.Credentials == nil {
		return nil
	}
	w := &credWatch{base: cfg.Credentials, now: time.Now,
		ahead: !aws.IsCredentialsProvider(cfg.Credentials, (*roleProvider)(nil))}
	if aws.IsCredentialsProvider(cfg.Credentials, (*ssocreds.Provider)(nil)) {
		// A role whose source_profile signs in with SSO is not caught
		// here: its errors keep the SDK's words.
		w.sso, w.isSSO = loadSSOSession(ctx, profile)
		if !w.isSSO {
			if profile == "" {
				profile = "default"
			}
			w.sso, w.isSSO = SSOSession{Profile: profile}, true
		}
	}
	cfg.Credentials = w
	return w
}

func (w *credWatch) Retrieve(ctx context.Context) (aws.Credentials, error) {
	w.mu.Lock()
	now := w.now()
	last, refresh := w.last, false
	if w.ahead && w.have && last.CanExpire && last.Expires.Sub(now) < RefreshAhead {
		if now.Before(w.nextTry) && last.Expires.After(now) {
			// A refresh runs, or failed a moment ago: these still work.
			w.mu.Unlock()
			return last, nil
		}
		w.nextTry, refresh = now.Add(refreshRetry), true
	}
	w.mu.Unlock()
	if refresh {
		if c, ok := w.base.(interface{ Invalidate() }); ok {
			c.Invalidate()
		}
	}
	c, err := w.base.Retrieve(ctx)

	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		err = w.explain(err)
		if refresh && ctx.Err() != nil {
			w.nextTry = time.Time{} // this caller gave up: the next one tries
		} else if refresh {
			w.refreshErr = err
		}
		if refresh && last.Expires.After(w.now()) {
			return last, nil
		}
		return aws.Credentials{}, err
	}
	w.last, w.have = c, true
	w.refreshErr, w.signIn, w.nextTry = nil, nil, time.Time{}
	return c, nil
}

// IsCredentialsProvider lets aws.IsCredentialsProvider see through the
// watch to the provider the SDK chose (credproc.go, ssologin.go and the
// SDK itself ask which one it is).
func (w *credWatch) IsCredentialsProvider(target aws.CredentialsProvider) bool {
	return aws.IsCredentialsProvider(w.base, target)
}

// ProviderSources passes on where the credentials come from (the SDK
// reports it in its user agent).
func (w *credWatch) ProviderSources() []aws.CredentialSource {
	if s, ok := w.base.(aws.CredentialProviderSource); ok {
		return s.ProviderSources()
	}
	return nil
}

// explain turns an SSO token problem into an SSOLoginError and notes it;
// one a role's source profile met (its own watch made it, rolechain.go)
// is noted too, so the connection's state says it. Called with mu held.
func (w *credWatch) explain(err error) error {
	var e *SSOLoginError
	switch {
	case w.isSSO && ssoTokenProblem(err):
		e = &SSOLoginError{Profile: Escape(w.sso.Profile), Session: Escape(w.sso.Name), Err: err, from: w}
		err = e
	case errors.As(err, &e) && e.from != nil && e.from != w:
		w.source = e.from
	default:
		return err
	}
	if w.signIn == nil {
		// The first failure of a run is the problem the console tells
		// and watches; later ones are the same problem.
		if path, perr := w.sso.CachePath(); perr == nil && e.from == w {
			w.stamp = stampOf(path)
		}
		w.signIn = e
	}
	return err
}

func (w *credWatch) state() CredentialsState {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := CredentialsState{Known: w.have, RefreshErr: w.refreshErr, SignIn: w.signIn, SSO: w.sso, HasSSO: w.isSSO && w.sso.StartURL != ""}
	if from := w.source; from != nil {
		// A role over an SSO source profile: that profile's session is
		// the one to sign in to (:login).
		s.SSO, s.HasSSO = from.sso, from.sso.StartURL != ""
	}
	if w.have && w.last.CanExpire {
		s.CanExpire, s.Expires = true, w.last.Expires
	}
	return s
}

// freshToken reads the token cache: a valid token written since the
// sign-in problem began ends it (true), and the next call uses it.
func (w *credWatch) freshToken() bool {
	w.mu.Lock()
	failing, stamp := w.signIn, w.stamp
	w.mu.Unlock()
	if failing != nil && failing.from != nil && failing.from != w {
		// A source profile's sign-in: its own watch reads its cache.
		if !failing.from.freshToken() {
			return false
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.signIn == failing {
			w.signIn, w.refreshErr, w.nextTry = nil, nil, time.Time{}
		}
		return true
	}
	if failing == nil || !w.isSSO {
		return false
	}
	path, err := w.sso.CachePath()
	if err != nil {
		return false
	}
	now := stampOf(path)
	if !now.ok || (stamp.ok && now.mod.Equal(stamp.mod) && now.size == stamp.size) {
		return false
	}
	t, err := ReadSSOToken(path)
	if err != nil || !t.Valid(w.now()) {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.signIn != failing {
		return false // a call met it first (success, or a new problem)
	}
	// The refresh that failed for want of this token is tried again on
	// the next call.
	w.signIn, w.refreshErr, w.nextTry = nil, nil, time.Time{}
	return true
}

// CredentialsState says what the console knows of the connection's
// credentials (zero for DynamoDB Local's dummy keys). It asks nothing.
func (c *Conn) CredentialsState() CredentialsState {
	if c == nil || c.watch == nil || c.dummy {
		return CredentialsState{}
	}
	return c.watch.state()
}

// FreshSSOToken reads the CLI's token cache once: true when the
// connection's SSO sign-in had failed and a valid token has been written
// since (by `aws sso login`, or :login). The problem is then forgotten;
// the next call signs in with the new token. It reads a file: call it
// from a tea.Cmd, not from Update.
func (c *Conn) FreshSSOToken() bool {
	if c == nil || c.watch == nil {
		return false
	}
	return c.watch.freshToken()
}

// RefreshCredentials gets the credentials now, renewing them when they
// expire within RefreshAhead; the error is why they could not be
// renewed (they may still work until they expire: CredentialsState).
func (c *Conn) RefreshCredentials(ctx context.Context) error {
	if c == nil || c.watch == nil || c.dummy {
		return nil
	}
	_, err := c.watch.Retrieve(ctx)
	if err != nil {
		return err
	}
	return c.watch.state().RefreshErr
}
