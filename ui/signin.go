package ui

// Signing in again without a restart, and credentials that expire.
//
// When a call fails because the SSO token is expired or missing
// (data.CredentialsState.SignIn), the console says what to run and
// watches the CLI's token cache every ssoWatchEvery: once a valid token
// is written there (`aws sso login` in another terminal, or :login), the
// panes whose read failed are read again. The live tail retries on its
// own and resumes with the same token.
//
// When the credentials expire within credsShowWithin the status bar
// counts the minutes down ("creds 12m"); RefreshAhead of the expiry the
// console asks for new ones, even when idle, and says what to run when
// that fails.

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// ssoWatchEvery is how often the token cache is read while signed out.
const ssoWatchEvery = 2 * time.Second

// credsShowWithin: the status bar shows the credentials' expiry from this
// close to it.
const credsShowWithin = 15 * time.Minute

// credsRefreshTimeout bounds a refresh ahead (a portal call, a helper).
const credsRefreshTimeout = 30 * time.Second

// signInState is the watch on the token cache and the expiry timer.
type signInState struct {
	// watchConn is the connection whose sign-in is watched (nil: none);
	// watchGen numbers the arming, so a timer armed for another
	// connection or an earlier problem is dropped.
	watchConn *data.Conn
	watchGen  uint64
	// said is the sign-in problem last told (one message a problem).
	said *data.SSOLoginError
	// credsAt is when the expiry timer is due (zero: none armed).
	credsAt  time.Time
	credsGen uint64
	// refreshSaid is the refresh failure last told.
	refreshSaid string
	// login is :login's sign-in (login.go).
	login loginState
}

// signInMsg is every message of this file and of login.go; the root
// hands them all to onSignIn.
type signInMsg interface{ signIn() }

type ssoWatchMsg struct{ gen uint64 }
type ssoTokenMsg struct {
	conn  *data.Conn
	fresh bool
}
type credsTickMsg struct{ gen uint64 }
type credsRefreshedMsg struct {
	conn *data.Conn
	err  error
}

func (ssoWatchMsg) signIn()       {}
func (ssoTokenMsg) signIn()       {}
func (credsTickMsg) signIn()      {}
func (credsRefreshedMsg) signIn() {}

// conn is the connection the console reads through now.
func (m Model) conn() *data.Conn { return m.act.run.conn }

// watchSignIn runs after every update: it starts the watch when a call
// has just met an expired sign-in, and keeps the expiry timer armed.
func (m *Model) watchSignIn() tea.Cmd {
	c := m.conn()
	if c == nil || m.quitting {
		return nil
	}
	st := c.CredentialsState()
	now := m.ctx.Now()
	var cmds []tea.Cmd
	switch {
	case st.RefreshErr != nil && st.Expires.After(now):
		// The credentials still work: say until when, and what to run.
		// Told once a cause, not once a minute.
		if why := data.Describe(st.RefreshErr); why != m.sign.refreshSaid {
			m.sign.refreshSaid = why
			m.setFlash(refreshFailedText(c, st, now), true)
		}
		m.sign.said = st.SignIn
	case st.SignIn != nil && st.SignIn != m.sign.said:
		m.sign.said = st.SignIn
		m.setFlash(signedOutText(st), true)
	}
	if st.RefreshErr == nil {
		m.sign.refreshSaid = ""
	}
	if st.SignIn != nil && m.sign.watchConn != c {
		m.sign.watchConn = c
		m.sign.watchGen++
		cmds = append(cmds, m.ctx.After(ssoWatchEvery, ssoWatchMsg{gen: m.sign.watchGen}))
	}
	cmds = append(cmds, m.armCreds(st))
	return tea.Batch(cmds...)
}

// signedOutText says what happened, what to run, and that the console
// will notice.
func signedOutText(st data.CredentialsState) string {
	what := "the SSO sign-in of profile " + st.SignIn.Profile
	if st.SignIn.Session != "" {
		what = "SSO session " + st.SignIn.Session
	}
	login := ""
	if st.HasSSO {
		login = " (or :login)"
	}
	return "signed out: run " + st.SignIn.Command() + login + " — " + what + " expired; the console reloads once signed in"
}

func (m Model) onSignIn(msg signInMsg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ssoWatchMsg:
		c := m.conn()
		if msg.gen != m.sign.watchGen || c == nil || c != m.sign.watchConn {
			return m, nil
		}
		return m, func() tea.Msg { return ssoTokenMsg{conn: c, fresh: c.FreshSSOToken()} }
	case ssoTokenMsg:
		if msg.conn != m.conn() || msg.conn != m.sign.watchConn {
			return m, nil // the env was switched meanwhile
		}
		if !msg.fresh {
			if msg.conn.CredentialsState().SignIn == nil {
				// A call signed in meanwhile (`r` after aws sso login):
				// the watch is over.
				m.sign.watchConn = nil
				return m, nil
			}
			return m, m.ctx.After(ssoWatchEvery, ssoWatchMsg{gen: m.sign.watchGen})
		}
		return m.signedInAgain("signed in again")
	case credsTickMsg:
		if msg.gen != m.sign.credsGen {
			return m, nil
		}
		m.sign.credsAt = time.Time{}
		c := m.conn()
		st := c.CredentialsState()
		if c == nil || !st.CanExpire || st.Expires.Sub(m.ctx.Now()) > data.RefreshAhead {
			return m, nil // the redraw shows the minutes left
		}
		return m, refreshCreds(c)
	case credsRefreshedMsg:
		// watchSignIn, after this update, tells a failure (the state
		// holds it) and arms the next tick.
		return m, nil
	case loginMsg:
		return m.onLogin(msg)
	}
	return m, nil
}

// signedInAgain ends the watch and reads again every pane whose read
// failed: the failure was the sign-in.
func (m Model) signedInAgain(how string) (tea.Model, tea.Cmd) {
	label := "SSO"
	if c := m.conn(); c != nil {
		if st := c.CredentialsState(); st.HasSSO {
			label = st.SSO.Label()
		}
	}
	m.sign.watchConn, m.sign.said, m.sign.refreshSaid = nil, nil, ""
	m.setFlash(how+" ("+label+") — reloading", false)
	// Credentials a failed refresh left close to expiry are renewed now,
	// not at the next tick.
	cmds := []tea.Cmd{refreshCreds(m.conn())}
	for _, p := range m.panes {
		if st := p.Status(); p.poll != nil && (st.Err != "" || strings.HasPrefix(st.Note, views.PollFailedNote)) {
			cmds = append(cmds, p.poll.Reload())
		}
	}
	return m, tea.Batch(cmds...)
}

// armCreds keeps one timer armed for the next moment the expiry matters:
// when it comes within credsShowWithin, each minute the count-down
// changes after that, and RefreshAhead before it (a refresh).
func (m *Model) armCreds(st data.CredentialsState) tea.Cmd {
	if !st.CanExpire {
		return nil
	}
	now := m.ctx.Now()
	left := st.Expires.Sub(now)
	if left <= 0 {
		return nil // "expired" until the next call gets new ones
	}
	var at time.Time
	switch {
	case left > credsShowWithin:
		at = st.Expires.Add(-credsShowWithin)
	default:
		// minutesText rounds up: the text changes when the time left
		// goes below a whole minute.
		whole := (left - 1) / time.Minute * time.Minute
		at = st.Expires.Add(-whole)
	}
	if r := st.Expires.Add(-data.RefreshAhead); r.After(now) && r.Before(at) {
		at = r
	}
	if !m.sign.credsAt.IsZero() && !at.Before(m.sign.credsAt) && m.sign.credsAt.After(now) {
		return nil // one is armed, due no later
	}
	m.sign.credsAt = at
	m.sign.credsGen++
	return m.ctx.After(at.Sub(now), credsTickMsg{gen: m.sign.credsGen})
}

// credsText is the status bar's "creds 12m" ("" when the credentials do
// not expire within credsShowWithin); urgent: within RefreshAhead, or a
// refresh failed.
func (m Model) credsText() (text string, urgent bool) {
	c := m.conn()
	if c == nil {
		return "", false
	}
	st := c.CredentialsState()
	if !st.CanExpire {
		return "", false
	}
	left := st.Expires.Sub(m.ctx.Now())
	switch {
	case left <= 0:
		return "expired", true
	case left > credsShowWithin:
		return "", false
	}
	return minutesText(left), left <= data.RefreshAhead || st.RefreshErr != nil
}

// refreshFailedText says the credentials could not be renewed, until
// when the old ones work, and what to do (data.Describe names the
// command for an SSO sign-in).
func refreshFailedText(c *data.Conn, st data.CredentialsState, now time.Time) string {
	who := "the credentials"
	if c.Profile != "" {
		who = "the credentials of profile " + c.Profile
	}
	when := "have expired"
	if left := st.Expires.Sub(now); left > 0 {
		when = "expire in " + minutesText(left)
	}
	return who + " " + when + " and could not be renewed: " + data.Describe(st.RefreshErr)
}

// refreshCreds renews the connection's credentials if they expire within
// data.RefreshAhead (a Cmd: it may ask the portal or run a helper).
func refreshCreds(c *data.Conn) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), credsRefreshTimeout)
		defer cancel()
		return credsRefreshedMsg{conn: c, err: c.RefreshCredentials(ctx)}
	}
}
