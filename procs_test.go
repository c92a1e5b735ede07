package main

import (
	"testing"

	"opsdeck/ui"
	"opsdeck/views"
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

// A settled console: two Ps while the shown pane loads, a load-all
// included, one otherwise.
func TestProcsForThePanesLoad(t *testing.T) {
	for _, c := range []struct {
		st   views.Status
		want int
	}{
		{views.Status{Loading: true, Progress: 0}, 2},
		{views.Status{Loading: true, Progress: 0.4}, 2},
		{views.Status{Loading: true, Progress: -1}, 2},
		{views.Status{Progress: -1, Rows: 50}, 1},
		{views.Status{Progress: 1, Rows: 100000}, 1},
	} {
		if got := procsFor(c.st); got != c.want {
			t.Errorf("%+v: %d Ps, want %d", c.st, got, c.want)
		}
	}
}
