package data

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/processcreds"
	"github.com/aws/smithy-go/logging"
)

// A profile's credential_process is a program the SDK runs for
// credentials. Left to the SDK it inherits the console's stdin and stderr:
// its warnings (or escapes) land on the screen the UI owns, a prompt
// splits the operator's keys with the console, and a hung helper outlives
// it. opsdeck runs the helper itself instead:
//   - stdin is /dev/null and the helper starts a session of its own, so
//     it has no controlling terminal (opening /dev/tty fails);
//   - stderr is kept (the last helperStderrMax bytes), escaped and handed
//     to ConnOptions.OnCredentialProcess as plain text;
//   - the helper and its children are killed when the Conn is closed;
//   - a failure names the profile, the program and its last stderr line.
//
// A profile's own credential_process and a source profile's (a role
// assumed from it, rolechain.go) are both run this way.

// helperStderrMax bounds how much of a helper's stderr is kept.
const helperStderrMax = 4 << 10

// helperWaitDelay is how long a finished or killed helper's output pipes
// may stay open (held by a child it left behind) before they are closed.
const helperWaitDelay = time.Second

// CredentialProcessOutput is what a credential_process wrote to stderr on
// one run, for ConnOptions.OnCredentialProcess. Every field is escaped
// (Escape): it is safe to show and log as is.
type CredentialProcessOutput struct {
	Profile string
	Program string // the command's first word; its arguments may hold secrets
	Stderr  string // the tail of its stderr, escaped, lines joined by `\n`
	Err     error  // nil when the helper gave credentials
}

// helperCredentials runs a profile's credential_process the way the
// comment above says. It sits under an aws.CredentialsCache.
type helperCredentials struct {
	profile string
	command string
	life    context.Context // cancelled by Conn.Close
	notify  func(CredentialProcessOutput)
	log     logging.Logger // the debug log: every run that said something
	inner   *processcreds.Provider
}

type helperRunKey struct{}

// helperRun is one run's stderr, shared between Retrieve and NewCommand
// through the context (the SDK builds the command from the context it
// is given).
type helperRun struct{ stderr tailBuffer }

// Retrieve runs the helper once. The cache above passes a context that
// is never cancelled (one caller giving up must not fail the others), so
// the helper's life is bounded by the SDK's timeout and by the Conn.
func (h *helperCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(h.life, cancel)
	defer stop()
	run := &helperRun{}
	ctx = context.WithValue(ctx, helperRunKey{}, run)
	creds, err := h.inner.Retrieve(ctx)
	out := CredentialProcessOutput{Profile: Escape(h.profile), Program: Escape(h.program()), Stderr: run.stderr.escaped()}
	if err != nil {
		err = h.failure(err, h.life.Err() != nil, run.stderr.lastLine())
		out.Err = err
	}
	if out.Stderr != "" || err != nil {
		if h.log != nil {
			h.log.Logf(logging.Warn, "credential_process of profile %q (%s): err=%v stderr: %s", out.Profile, out.Program, err, out.Stderr)
		}
		if h.notify != nil {
			h.notify(out)
		}
	}
	return creds, err
}

// failure says which helper failed and the last thing it said.
func (h *helperCredentials) failure(err error, closed bool, last string) error {
	what := fmt.Sprintf("credential_process of profile %q (%s)", Escape(h.profile), Escape(h.program()))
	cause := err.Error()
	var pe *processcreds.ProviderError
	if errors.As(err, &pe) && pe.Err != nil {
		// "error in credential_process: exit status 1" repeats what we say.
		cause = strings.TrimPrefix(pe.Err.Error(), "error in credential_process: ")
	}
	switch {
	case closed:
		return fmt.Errorf("%s stopped: the connection was closed", what)
	case last != "":
		return fmt.Errorf("%s failed: %s: %s", what, Escape(cause), last)
	default:
		return fmt.Errorf("%s failed: %s (nothing on stderr)", what, Escape(cause))
	}
}

// program is the command's first word: enough to say which helper it
// was, without arguments that may carry a token.
func (h *helperCredentials) program() string {
	if f := strings.Fields(h.command); len(f) > 0 {
		return f[0]
	}
	return ""
}

// newCommand builds the helper's command as the SDK's default builder
// does (through the shell, with our environment) minus the terminal.
func (h *helperCredentials) newCommand(ctx context.Context) (*exec.Cmd, error) {
	if strings.TrimSpace(h.command) == "" {
		return nil, errors.New("credential_process is empty")
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", h.command)
	cmd.Env = os.Environ()
	cmd.Stdin = nil // /dev/null
	if run, ok := ctx.Value(helperRunKey{}).(*helperRun); ok {
		cmd.Stderr = &run.stderr
	} else {
		cmd.Stderr = &tailBuffer{} // never the terminal
	}
	cmd.WaitDelay = helperWaitDelay
	detachHelper(cmd)
	return cmd, nil
}

// tailBuffer keeps the last helperStderrMax bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - helperStderrMax; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// escaped is the whole tail on one line, inert.
func (t *tailBuffer) escaped() string { return Escape(t.text()) }

// lastLine is the last non-blank line, inert.
func (t *tailBuffer) lastLine() string {
	lines := strings.Split(t.text(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return Escape(l)
		}
	}
	return ""
}
