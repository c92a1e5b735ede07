package main

import (
	"io"
	"os"
	"testing"
)

// A read that ends the input calls gone, once; reads that return bytes
// do not.
func TestTerminalInCallsGoneWhenInputEnds(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	calls := 0
	in := newTerminalIn(r, func() { calls++ })
	if _, err := w.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := in.Read(buf); n != 1 || err != nil {
		t.Fatalf("read = %d, %v; want 1 byte", n, err)
	}
	if calls != 0 {
		t.Fatalf("gone called %d times while input flows", calls)
	}
	w.Close()
	for i := 0; i < 2; i++ {
		if _, err := in.Read(buf); err != io.EOF {
			t.Fatalf("read after close: %v, want EOF", err)
		}
	}
	if calls != 1 {
		t.Fatalf("gone called %d times after the input ended, want 1", calls)
	}
}
