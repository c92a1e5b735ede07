package main

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/ui"
)

// helperNotes carries what credential helpers say (data.ConnOptions.
// OnCredentialProcess) to the running console as ui.CredentialHelperMsg.
// The start session connects before the program exists, and its helper
// may speak then: what is heard before attach is kept, in order, and sent
// once the console runs.
type helperNotes struct {
	mu      sync.Mutex
	send    func(tea.Msg)
	pending []data.CredentialProcessOutput
}

// heard is the OnCredentialProcess of every session. It never blocks: a
// helper's run (a credential refresh) must not wait on the UI's loop.
func (h *helperNotes) heard(out data.CredentialProcessOutput) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.send == nil {
		h.pending = append(h.pending, out)
		return
	}
	go h.send(ui.CredentialHelperMsg{Out: out})
}

// attach sends what was heard so far, and all that follows, to the
// console. Program.Send blocks until the loop takes the message, and
// returns when the program has ended, so it runs off the caller.
func (h *helperNotes) attach(send func(tea.Msg)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.send = send
	if len(h.pending) == 0 {
		return
	}
	early := h.pending
	h.pending = nil
	go func() {
		for _, out := range early {
			send(ui.CredentialHelperMsg{Out: out})
		}
	}()
}
