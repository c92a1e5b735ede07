//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"opsdeck/ui/screen"
)

// suspender stops the console as job control expects, for ctrl+z (the
// terminal is in raw mode, so the key reaches the console, not the
// terminal driver) and for a SIGTSTP from outside: the terminal is given
// back as the shell had it (main screen, cursor, cooked mode), the process
// group stops, and on SIGCONT (fg) the console takes the terminal again and
// draws every cell. Without it a SIGTSTP stopped the process with the
// terminal still raw, on the alternate screen, the cursor hidden.
type suspender struct {
	scr  *screen.Screen
	out  *os.File // the terminal, for its size on resume
	logw io.Writer

	mu   sync.Mutex // one suspension at a time
	tell func(w, h int)
	tstp chan os.Signal
}

func newSuspender(scr *screen.Screen, out *os.File, logw io.Writer) *suspender {
	return &suspender{scr: scr, out: out, logw: logw, tstp: make(chan os.Signal, 1)}
}

// watch takes SIGTSTP from now until ctx ends; tell hears the terminal's
// size after each resume (it may have changed meanwhile, unseen).
func (sp *suspender) watch(ctx context.Context, tell func(w, h int)) {
	sp.mu.Lock()
	sp.tell = tell
	sp.mu.Unlock()
	signal.Notify(sp.tstp, syscall.SIGTSTP)
	go func() {
		defer signal.Stop(sp.tstp)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sp.tstp:
				sp.Suspend()
			}
		}
	}()
}

// Suspend gives the terminal back, stops, and returns once continued.
func (sp *suspender) Suspend() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	fmt.Fprintln(sp.logw, "suspend: giving the terminal back and stopping")
	if err := sp.scr.Suspend(); err != nil {
		fmt.Fprintf(sp.logw, "suspend: giving the terminal back: %v\n", err)
	}
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	// Stop the whole process group, as the terminal driver's ctrl+z would:
	// a make or a script that started the console stops with it, so the
	// shell sees the job stopped and takes its terminal back. SIGSTOP, not
	// SIGTSTP: once the console has caught SIGTSTP, Go's runtime keeps its
	// handler for good (signal.Reset does not give the default action
	// back) and would swallow a SIGTSTP sent now.
	if err := syscall.Kill(0, syscall.SIGSTOP); err != nil {
		fmt.Fprintf(sp.logw, "suspend: %v\n", err)
	} else {
		<-cont // stopped until fg (or any SIGCONT)
	}
	signal.Stop(cont)
	fmt.Fprintln(sp.logw, "suspend: continued; taking the terminal again")
	if err := sp.scr.Resume(); err != nil {
		fmt.Fprintf(sp.logw, "resume: taking the terminal: %v\n", err)
	}
	w, h := screen.Size(sp.out)
	sp.scr.Resize(w, h)
	if sp.tell != nil {
		sp.tell(w, h)
	}
}
