package main

import (
	"testing"

	"opsdeck/ui"
)

// Two Ps until the first screen is written and while the shown pane waits
// for a page; one otherwise.
func TestProcsFollowTheFirstScreenAndPageWaits(t *testing.T) {
	settled := make(chan struct{})
	p := newProcs(settled)
	loading := ui.New(ui.Options{})
	loading.Init() // the Sessions pane asks for its first page
	idle := ui.New(ui.Options{})
	if got := p.want(idle); got != 2 {
		t.Errorf("before the first screen is written: %d Ps, want 2", got)
	}
	close(settled)
	if got := p.want(idle); got != 1 {
		t.Errorf("settled, nothing loading: %d Ps, want 1", got)
	}
	if got := p.want(loading); got != 2 {
		t.Errorf("settled, the shown pane waiting for a page: %d Ps, want 2", got)
	}
}
