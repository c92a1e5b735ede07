package ui

import (
	"testing"
	"time"
)

// The teatest rigs publish what the program shows after each Update on a
// one-slot channel and the test waits on it. Both halves live here so every
// rig behaves the same way.

// publishLatest puts v on ch, replacing a value nobody read yet rather than
// blocking the program: a test only ever needs the newest state.
func publishLatest[T any](ch chan T, v T) {
	select {
	case ch <- v:
	default:
		select {
		case <-ch:
		default:
		}
		ch <- v
	}
}

// awaitLatest reads published values until cond holds, failing the test
// after 30 s.
func awaitLatest[T any](t *testing.T, ch chan T, what string, cond func(T) bool) T {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case v := <-ch:
			if cond(v) {
				return v
			}
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
