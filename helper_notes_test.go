package main

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/ui"
	"opsdeck/ui/session"
)

// Every session the console opens (the start env's and a switch's) tells
// helperNotes what its credential helper says; what is heard before the
// program runs reaches it, in order, once it does, and what follows too.
func TestHelperNotesReachTheConsole(t *testing.T) {
	p := testPlacesFrom(t, flags{})
	h := &helperNotes{}
	p.helpers = h
	for _, env := range []string{"dev", "staging"} {
		s, err := p.spec(session.Target{Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if s.Conn.OnCredentialProcess == nil {
			t.Fatalf("%s: the session's credential helper is heard by no one", env)
		}
		s.Conn.OnCredentialProcess(data.CredentialProcessOutput{Profile: env, Stderr: "said at " + env})
	}

	got := make(chan tea.Msg)
	h.attach(func(m tea.Msg) { got <- m })
	for _, want := range []string{"dev", "staging"} {
		m, ok := (<-got).(ui.CredentialHelperMsg)
		if !ok || m.Out.Profile != want {
			t.Fatalf("got %+v, want the note of %s (in the order heard)", m, want)
		}
	}
	h.heard(data.CredentialProcessOutput{Profile: "later"})
	if m := (<-got).(ui.CredentialHelperMsg); m.Out.Profile != "later" {
		t.Fatalf("after attach: %+v", m)
	}
}

// Every session the console opens asks the one MFAPrompts for a role's
// code (the start env's and a switch's alike), so the dialog and r's
// retry cover them all.
func TestEverySessionAsksTheConsoleForMFACodes(t *testing.T) {
	p := testPlacesFrom(t, flags{})
	p.mfa = &ui.MFAPrompts{}
	for _, env := range []string{"dev", "staging"} {
		s, err := p.spec(session.Target{Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if s.Conn.MFA != data.MFAPrompter(p.mfa) {
			t.Errorf("%s: the session asks %v for MFA codes, not the console's prompts", env, s.Conn.MFA)
		}
	}
}
