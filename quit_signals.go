package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"opsdeck/ui"
)

// quitSignals turns SIGTERM, SIGHUP and SIGINT from outside (and a terminal
// that goes away) into a quit. Before the console runs, a signal ends the
// session at once (cancel). Once it runs, the console is asked to quit as q
// asks (ui.QuitMsg): a write in flight is finished, or abandoned on record
// once ui.SignalGrace has passed, and the console goes by itself. cancel
// still comes, later, in case it cannot: whoever sent the signal expects
// the process gone within seconds.
type quitSignals struct {
	cancel context.CancelFunc
	ch     chan os.Signal

	mu    sync.Mutex
	send  func(tea.Msg)
	armed bool
}

// quitHardStop is how long after the first quit request the session is
// ended whatever the console is doing: the signal's grace, and time for
// the abandoned writes' audit lines.
const quitHardStop = ui.SignalGrace + 3*time.Second

func watchQuitSignals(cancel context.CancelFunc) *quitSignals {
	q := &quitSignals{cancel: cancel, ch: make(chan os.Signal, 4)}
	signal.Notify(q.ch, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	go func() {
		for s := range q.ch {
			q.request(unix.SignalName(s.(syscall.Signal)))
		}
	}()
	return q
}

// attach sends later quit requests to the running console.
func (q *quitSignals) attach(send func(tea.Msg)) {
	q.mu.Lock()
	q.send = send
	q.mu.Unlock()
}

// request asks for the session to end, because of why ("SIGTERM",
// "SIGHUP", "terminal closed").
func (q *quitSignals) request(why string) {
	q.mu.Lock()
	send, armed := q.send, q.armed
	q.armed = true
	q.mu.Unlock()
	if send == nil {
		q.cancel()
		return
	}
	if !armed {
		time.AfterFunc(quitHardStop, q.cancel)
	}
	// Send blocks until the loop takes the message, and returns when the
	// program has ended.
	go send(ui.QuitMsg{Signal: why})
}

func (q *quitSignals) stop() { signal.Stop(q.ch) }
