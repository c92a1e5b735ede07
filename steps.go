package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// step says what a slow start-up step is doing before the console takes
// the screen — and, every few seconds while it lasts, for how long — so a
// demo start on a loaded machine is never a silent screen. The returned
// func ends the step's line. On a terminal the count rewrites the line.
func step(w io.Writer, label string) (done func()) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil {
			tty = fi.Mode()&os.ModeCharDevice != 0
		}
	}
	start := time.Now()
	fmt.Fprintf(w, "%s…", label)
	if !tty {
		fmt.Fprintln(w)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if tty {
				fmt.Fprintf(w, "\r%s… %s", label, time.Since(start).Truncate(time.Second))
			} else {
				fmt.Fprintf(w, "%s… %s\n", label, time.Since(start).Truncate(time.Second))
			}
		}
	}()
	return func() {
		close(stop)
		<-stopped
		if tty {
			fmt.Fprintf(w, "\r%s… done (%s)\x1b[K\n", label, time.Since(start).Truncate(time.Second))
		}
	}
}
