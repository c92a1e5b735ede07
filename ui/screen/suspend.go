package screen

import (
	"io"

	"github.com/charmbracelet/x/term"
)

// Suspend gives the terminal back for a while (ctrl+z, SIGTSTP): the main
// screen, the cursor, the keyboard protocol and the input's mode, as Close
// does, but frames shown meanwhile are kept for Resume. The caller then
// stops the process; the shell has its terminal as it left it.
func (s *Screen) Suspend() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	if s.closed || s.suspended {
		s.mu.Unlock()
		return nil
	}
	s.suspended = true
	s.mu.Unlock()
	_, err := io.WriteString(s.out, closeSeq(s.shownTitle != ""))
	if rerr := s.restoreInput(); err == nil {
		err = rerr
	}
	s.shownTitle = ""
	return err
}

// Resume takes the terminal again after Suspend (fg, SIGCONT): raw mode
// (from the mode the shell left it in, which Close will then restore), the
// alternate screen and the rest of Open's set-up, and the newest frame
// drawn whole, every cell, whatever the terminal showed meanwhile.
func (s *Screen) Resume() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	if s.closed || !s.suspended {
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	var err error
	if s.in != nil {
		var st *term.State
		if st, err = term.MakeRaw(s.in.Fd()); err == nil {
			s.restore = st
		}
	}
	if _, werr := io.WriteString(s.out, openSeq); err == nil {
		err = werr
	}
	s.mu.Lock()
	s.suspended, s.erase = false, true
	s.mu.Unlock()
	s.poke()
	return err
}
