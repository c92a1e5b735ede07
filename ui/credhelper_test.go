package ui

import (
	"errors"
	"strings"
	"testing"

	"opsdeck/data"
	"opsdeck/ui/uitest"
)

// What a credential helper wrote to stderr reaches the operator as a
// message naming the profile: on the message line, and in :messages; the
// escapes it wrote (a window title, a screen clear) do nothing to the
// terminal.
func TestCredentialHelperMessageShownAndListed(t *testing.T) {
	m := offline(t, 160, 48)
	// As data hands it over: escaped (a title escape and newline made text).
	said := data.Escape("WARNING: ExpiredToken soon\n\x1b]0;pwned\x07\x1b[2J")
	nm, cmd := m.Update(CredentialHelperMsg{Out: data.CredentialProcessOutput{Profile: "corp-dev", Program: "aws-vault", Stderr: said}})
	m, _ = uitest.Settle(t, nm.(Model), cmd)
	bottom := words(strings.Join(terminalRows(t, m)[44:], " "))
	if !strings.Contains(bottom, `credential_process of profile "corp-dev" (aws-vault) says: WARNING: ExpiredToken soon`) {
		t.Fatalf("the helper's message is not on the message line:\n%s", bottom)
	}
	m, _ = runLine(t, m, "messages")
	screen := words(strings.Join(terminalRows(t, m), "\n"))
	if !strings.Contains(screen, `credential_process of profile "corp-dev" (aws-vault) says: WARNING: ExpiredToken soon`) {
		t.Fatalf(":messages does not list the helper's message:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}
	if !strings.Contains(screen, `\x1b]0;pwned`) {
		t.Fatalf("the helper's escape is not shown as text:\n%s", strings.Join(terminalRows(t, m), "\n"))
	}

	// A failed run is an error message.
	m = offline(t, 160, 48)
	nm, cmd = m.Update(CredentialHelperMsg{Out: data.CredentialProcessOutput{Profile: "corp-dev", Program: "aws-vault", Err: errors.New(`credential_process of profile "corp-dev" (aws-vault) failed: exit status 1: no session`)}})
	m, _ = uitest.Settle(t, nm.(Model), cmd)
	if !m.cmdErr || m.Flash() != `credential_process of profile "corp-dev" (aws-vault) failed: exit status 1: no session` {
		t.Fatalf("a failed helper: flash %q (error %v)", m.Flash(), m.cmdErr)
	}
}
