//go:build unix

package screen

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// Follow watches the terminal f for a new size (SIGWINCH) until ctx ends or
// the screen closes. Each new size is the screen's at once (the next frame
// is drawn whole) and is told to the program, whose next frame fits it.
func (s *Screen) Follow(ctx context.Context, f *os.File, tell func(w, h int)) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	go func() {
		defer signal.Stop(ch)
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.stop:
				return
			case <-ch:
			}
			w, h, err := term.GetSize(f.Fd())
			if err != nil || w <= 0 || h <= 0 {
				continue
			}
			s.Resize(w, h)
			tell(w, h)
		}
	}()
}
