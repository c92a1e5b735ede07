package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"opsdeck/data/action"
	"opsdeck/data/export"
)

// trackExports makes sure an export never outlives its console half
// written: a `.part` of a `reveal` export holds unmasked secrets. It
// starts the journal of unfinished exports beside the audit log, removing
// at once what a console killed mid-export left there (export.Track); the
// signals that end the console (SIGTERM, SIGHUP, SIGINT) remove this
// console's unfinished exports as they arrive, before the exit waits for
// anything; and the function it returns, which start defers, does so
// however else the session ends (q, the terminal closing). It takes no
// part in deciding how the console ends: that stays with start's context.
func trackExports(logw io.Writer) (atExit func()) {
	if dir, err := exportJournalDir(); err != nil {
		fmt.Fprintf(logw, "export journal: %v (an export interrupted by a crash is not removed at the next start)\n", err)
	} else {
		removed, err := export.Track(dir)
		for _, p := range removed {
			fmt.Fprintf(logw, "export: removed %s, left unfinished by an earlier console\n", p)
		}
		if err != nil {
			fmt.Fprintf(logw, "%v\n", err)
		}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			abandonExports(logw, sig.String())
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
		abandonExports(logw, "exit")
	}
}

func abandonExports(logw io.Writer, why string) {
	for _, p := range export.Abandon() {
		fmt.Fprintf(logw, "export: removed unfinished %s (%s)\n", p, why)
	}
}

// exportJournalDir is $XDG_STATE_HOME/opsdeck/exports (else under
// ~/.local/state), beside the audit log.
func exportJournalDir() (string, error) {
	audit, err := action.DefaultAuditPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(audit), "exports"), nil
}
