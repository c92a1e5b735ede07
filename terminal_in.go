package main

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// terminalIn is the program's input, the terminal, watched for the
// terminal going away: its window closed, the ssh connection dropped, tmux
// killed. The kernel sends SIGHUP only to the terminal's session leader;
// when the console is not that leader (started by `make demo`, or from a
// script), nothing signals it. Its reads then end: the program library
// takes end-of-file as a quiet end of input and stops reading, and the
// console would run on with no keys, its demo server with it, until
// killed. So the first read that ends (end-of-file, or the I/O error a
// hung-up terminal gives) calls gone once.
//
// It is still the *os.File underneath: the program's cancellable reader
// waits on it through Fd and calls Read on this wrapper (ui/screen has put
// the terminal in raw mode).
type terminalIn struct {
	*os.File
	once *sync.Once
	gone func()
}

func newTerminalIn(f *os.File, gone func()) terminalIn {
	return terminalIn{File: f, once: new(sync.Once), gone: gone}
}

func (t terminalIn) Read(b []byte) (int, error) {
	n, err := t.File.Read(b)
	if n == 0 && terminalEnded(err) {
		t.once.Do(t.gone)
	}
	return n, err
}

// terminalEnded says whether a read's error means the terminal is gone:
// end-of-file, or EIO (a read from a terminal whose other end has closed).
// EINTR and EAGAIN are not an end.
func terminalEnded(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO)
}

// terminalInput is the terminal to read keys from: stdin, or the process's
// controlling terminal when stdin is not one (input piped in); nil when
// there is none.
func terminalInput() *os.File {
	if term.IsTerminal(os.Stdin.Fd()) {
		return os.Stdin
	}
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		return f
	}
	return nil
}
