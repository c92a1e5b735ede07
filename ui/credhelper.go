package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// CredentialHelperMsg carries what a profile's credential_process wrote to
// stderr (data.ConnOptions.OnCredentialProcess) into the program: main's
// connector sends it with Program.Send. The helper runs away from the
// terminal, so this message is the only place its warnings reach the
// operator.
type CredentialHelperMsg struct{ Out data.CredentialProcessOutput }

// credentialHelperText is the message line for out: which profile's
// helper spoke, and what it said. Its fields are escaped already; the
// message line and :messages make the text inert again when drawn.
func credentialHelperText(out data.CredentialProcessOutput) string {
	if out.Err != nil {
		// data's failure names the profile, the program and the last
		// stderr line already.
		return out.Err.Error()
	}
	what := fmt.Sprintf("credential_process of profile %q", out.Profile)
	if out.Program != "" {
		what += " (" + out.Program + ")"
	}
	// Its lines come joined by an escaped newline; a message reads better
	// with a separator that is not an escape.
	return what + " says: " + strings.ReplaceAll(strings.TrimSpace(out.Stderr), `\n`, " · ")
}

// onCredentialHelper shows and logs what a credential helper said.
func (m Model) onCredentialHelper(c CredentialHelperMsg) (tea.Model, tea.Cmd) {
	m.setFlash(credentialHelperText(c.Out), c.Out.Err != nil)
	return m, nil
}
