package main

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/ui"
)

// runInit delivers every message of a batch, nested batches included, and
// runs the commands concurrently (a command that blocks holds up no other).
func TestRunInitRunsEveryCommand(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	msgs := make(chan tea.Msg, 10)
	cmd := tea.Batch(
		func() tea.Msg { <-block; return "late" },
		func() tea.Msg { return "a" },
		nil,
		tea.Batch(func() tea.Msg { return "b" }, func() tea.Msg { return "c" }),
		func() tea.Msg { return nil },
	)
	go runInit(cmd, func(m tea.Msg) { msgs <- m })
	got := map[tea.Msg]bool{}
	for len(got) < 3 {
		select {
		case m := <-msgs:
			got[m] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("only %v arrived", got)
		}
	}
	if !got["a"] || !got["b"] || !got["c"] {
		t.Fatalf("got %v", got)
	}
}

// The first screen settles when the active pane is no longer loading, not
// before; the start-up lines say when the first frame was rendered.
func TestStartupSettlesWhenTheFirstPageIsIn(t *testing.T) {
	var mu sync.Mutex
	var buf strings.Builder
	log := newStartupLog(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}))
	loading := ui.New(ui.Options{})
	loading.Init() // the Sessions pane asks for its first page
	log.rendered(loading)
	select {
	case <-log.settled:
		t.Fatal("settled while the first page was loading")
	default:
	}
	idle := ui.New(ui.Options{}) // nothing asked yet: nothing to wait for
	log.rendered(idle)
	select {
	case <-log.settled:
	default:
		t.Fatal("not settled with nothing loading")
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(buf.String(), "first frame rendered") || !strings.Contains(buf.String(), "first screen settled") {
		t.Errorf("start-up lines:\n%s", buf.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
