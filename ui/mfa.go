package ui

// The MFA prompt: a role with mfa_serial needs a one-time code whenever
// its credentials are fetched (at the first call, and again when they
// expire). The SDK asks for it from the credential provider, on whatever
// goroutine made the call; MFAPrompts carries the ask into the program as
// a message and blocks that goroutine until the operator answers in the
// dialog, gives up, or the connection ends. The code is typed into the
// dialog only: it is shown as dots, never echoed into the command line,
// its history, the messages or any log, and dropped once sent.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/views/inert"
)

// mfaCodeLen is the length of an AWS MFA one-time code.
const mfaCodeLen = 6

// MFAPrompts is the console's data.MFAPrompter: main gives it to every
// connection (data.ConnOptions.MFA) and Attaches the program. Asks made
// before the program runs (the first page's query goes out before it
// does) wait, in order, and are sent once it is attached. The zero value
// is ready to use.
type MFAPrompts struct {
	mu      sync.Mutex
	send    func(tea.Msg)
	queue   []tea.Msg
	sending bool
	seq     uint64
	// gaveUp are the roles (profile and ARN) the operator gave up on:
	// their asks fail at once, without a dialog, until Retry. Otherwise
	// the next background call (the stream reader, a poll) would open
	// the dialog again the moment esc closed it.
	gaveUp map[string]bool
}

var _ data.MFAPrompter = (*MFAPrompts)(nil)

type mfaReply struct {
	code string
	err  error
}

// mfaPromptMsg opens (or queues) the code dialog.
type mfaPromptMsg struct {
	id    uint64
	req   data.MFARequest
	reply chan<- mfaReply // buffered: answering never blocks the loop
}

// mfaWithdrawnMsg: the ask id is no longer waited for (its connection
// closed); its dialog goes.
type mfaWithdrawnMsg struct{ id uint64 }

// mfaAcceptedMsg: STS took a code.
type mfaAcceptedMsg struct {
	req     data.MFARequest
	expires time.Time
}

// Attach sends what was asked so far, and all that follows, to the
// program (Program.Send, or a test's loop).
func (p *MFAPrompts) Attach(send func(tea.Msg)) {
	p.mu.Lock()
	p.send = send
	p.mu.Unlock()
	p.flush()
}

// post queues msg and makes sure one goroutine sends the queue in order:
// the caller (a credential provider) never waits on the program's loop
// for anything but the answer itself.
func (p *MFAPrompts) post(msg tea.Msg) {
	p.mu.Lock()
	p.queue = append(p.queue, msg)
	p.mu.Unlock()
	p.flush()
}

func (p *MFAPrompts) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.send == nil || p.sending || len(p.queue) == 0 {
		return
	}
	p.sending = true
	send := p.send
	go func() {
		for {
			p.mu.Lock()
			if len(p.queue) == 0 {
				p.sending = false
				p.mu.Unlock()
				return
			}
			msg := p.queue[0]
			p.queue = p.queue[1:]
			p.mu.Unlock()
			send(msg)
		}
	}()
}

// Code asks the operator for req's code and waits for the answer, the
// operator giving up (data.ErrMFAGivenUp) or ctx ending.
func (p *MFAPrompts) Code(ctx context.Context, req data.MFARequest) (string, error) {
	reply := make(chan mfaReply, 1)
	role := req.Profile + "\x00" + req.RoleARN
	p.mu.Lock()
	if p.gaveUp[role] {
		p.mu.Unlock()
		return "", data.ErrMFAGivenUp
	}
	p.seq++
	id := p.seq
	p.mu.Unlock()
	p.post(mfaPromptMsg{id: id, req: req, reply: reply})
	select {
	case r := <-reply:
		if errors.Is(r.err, data.ErrMFAGivenUp) {
			p.mu.Lock()
			if p.gaveUp == nil {
				p.gaveUp = map[string]bool{}
			}
			p.gaveUp[role] = true
			p.mu.Unlock()
		}
		return r.code, r.err
	case <-ctx.Done():
		p.post(mfaWithdrawnMsg{id: id})
		return "", ctx.Err()
	}
}

// Retry lets the roles given up on ask again: the operator pressed r
// (or switched env), which is the retry the give-up message offers.
// Safe on nil.
func (p *MFAPrompts) Retry() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gaveUp = nil
}

// Accepted tells the console STS took a code.
func (p *MFAPrompts) Accepted(req data.MFARequest, expires time.Time) {
	p.post(mfaAcceptedMsg{req: req, expires: expires})
}

// mfaAsk is one open ask: the first of Model.mfa is the dialog shown.
type mfaAsk struct {
	id    uint64
	req   data.MFARequest
	reply chan<- mfaReply
	typed string // digits only
	note  string // what is wrong with what was typed
}

// onMFA handles the prompt's messages.
func (m Model) onMFA(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case mfaPromptMsg:
		m.mfa = append(slices.Clone(m.mfa), mfaAsk{id: msg.id, req: msg.req, reply: msg.reply})
		m.sortPending = false
		if msg.req.Refused != "" {
			// In place of "checking the code…": the dialog says why.
			m.setFlash(fmt.Sprintf("STS refused the MFA code for profile %s", msg.req.Profile), true)
		}
	case mfaWithdrawnMsg:
		m.mfa = slices.DeleteFunc(slices.Clone(m.mfa), func(a mfaAsk) bool { return a.id == msg.id })
	case mfaAcceptedMsg:
		text := fmt.Sprintf("MFA code accepted for profile %s", msg.req.Profile)
		if !msg.expires.IsZero() {
			text += "; the role's credentials last until " + msg.expires.In(m.ctx.Now().Location()).Format("15:04")
		}
		m.setFlash(text, false)
		// A read that gave up waiting while the code was typed (its
		// deadline passed) is read again now that it can be signed.
		p := m.panes[m.active]
		if st := p.Status(); st.Err != "" && !st.Loading && p.poll != nil {
			return m, p.poll.Reload()
		}
	}
	return m, nil
}

// mfaKey is a key while the code dialog is open: it never reaches the
// panes, the command line or the history.
func (m Model) mfaKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	a := m.mfa[0]
	switch k.String() {
	case "esc", "ctrl+c":
		a.reply <- mfaReply{err: data.ErrMFAGivenUp}
		m.mfa = slices.Clone(m.mfa[1:])
		m.setFlash(fmt.Sprintf("no MFA code given for profile %s: r asks for it again", a.req.Profile), true)
		return m, nil
	case "enter":
		if len(a.typed) != mfaCodeLen {
			a.note = fmt.Sprintf("the code is %d digits", mfaCodeLen)
			break
		}
		a.reply <- mfaReply{code: a.typed}
		m.mfa = slices.Clone(m.mfa[1:])
		m.setPending(fmt.Sprintf("checking the MFA code for profile %s with STS…", a.req.Profile), false)
		return m, nil
	case "backspace", "ctrl+h":
		if a.typed != "" {
			a.typed = a.typed[:len(a.typed)-1]
		}
		a.note = ""
	case "ctrl+u":
		a.typed, a.note = "", ""
	default:
		a.typed, a.note = mfaDigits(a.typed, k.Text)
	}
	m.mfa = slices.Clone(m.mfa)
	m.mfa[0] = a
	return m, nil
}

// mfaPaste takes the digits of a paste (a password manager's copy).
func (m Model) mfaPaste(p tea.PasteMsg) (tea.Model, tea.Cmd) {
	a := m.mfa[0]
	a.typed, a.note = mfaDigits(a.typed, p.Content)
	m.mfa = slices.Clone(m.mfa)
	m.mfa[0] = a
	return m, nil
}

// mfaDigits adds text's digits to typed, up to the code's length; other
// characters are refused with a note (spaces a copy brings are dropped).
func mfaDigits(typed, text string) (string, string) {
	note := ""
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9':
			if len(typed) < mfaCodeLen {
				typed += string(r)
			}
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '-':
		default:
			note = "the code is digits only"
		}
	}
	return typed, note
}

// mfaView draws the code dialog over body.
func (m Model) mfaView(body string, width, height int) string {
	th := m.ctx.Theme
	a := m.mfa[0]
	inner := dialogInner(width)
	var lines []string
	lines = append(lines, wrapStyled(lipgloss.NewStyle(), fmt.Sprintf("Profile %s assumes role %s, which needs a one-time code from the MFA device %s.",
		a.req.Profile, a.req.RoleARN, a.req.Serial), inner)...)
	if a.req.Again && a.req.Refused == "" {
		lines = append(lines, wrapStyled(th.Muted, "The role's credentials have expired: a new code is needed.", inner)...)
	}
	if a.req.Refused != "" {
		lines = append(lines, wrapStyled(th.Error, "STS refused the last code: "+a.req.Refused+" Type the current one.", inner)...)
	}
	if n := len(m.mfa) - 1; n > 0 {
		lines = append(lines, th.Muted.Render(inert.Line(fmt.Sprintf("%d more code(s) asked for after this one", n), inner)))
	}
	lines = append(lines, "")
	// The code line is in the foot, which always shows: on a short
	// screen the explanation scrolls, never what is being typed.
	dots := strings.Repeat("●", len(a.typed)) + strings.Repeat("·", mfaCodeLen-len(a.typed))
	foot := []string{th.Key.Render("code ") + " " + dots}
	if a.note != "" {
		foot = append(foot, th.Error.Render(inert.Line(a.note, inner)))
	}
	foot = append(foot, th.Muted.Render(inert.Line("enter sends · esc gives up (r asks again)", inner)))
	scroll := 0
	box := frameBox("MFA code", lines, foot, inner, height, &scroll, th)
	return overlay(func() string { return body }, box, width, height, th)
}
