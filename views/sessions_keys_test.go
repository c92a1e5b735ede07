package views

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
	"opsdeck/themes"
)

// TestNextViewFollowsTheKeymap: the Sessions pane cycles its sub-views on
// the keymap's next_view binding, so rebinding it in the config works and
// the old key stops working.
func TestNextViewFollowsTheKeymap(t *testing.T) {
	km := keymap.Default()
	if err := km.Rebind("next_view", []string{"w"}); err != nil {
		t.Fatal(err)
	}
	c := &Context{Theme: themes.Dark(), Keys: km, Now: func() time.Time { return sortNow }}
	p := NewSessions(c, "", "")
	p.SetSize(100, 20)
	p.Init()
	press := func(s string) { p.Update(tea.KeyPressMsg{Code: rune(s[0]), Text: s}) }

	press("v")
	if p.cur != subSessions {
		t.Fatalf("old key v still cycles: sub-view %d", p.cur)
	}
	press("w")
	if p.cur != subAPIKeys || !strings.HasPrefix(p.Title(), "API keys") {
		t.Fatalf("w: sub-view %d, title %q", p.cur, p.Title())
	}
	// The hint names the key as bound.
	if v := p.View(); !strings.Contains(v, "then w") {
		t.Fatalf("hint does not name the rebound key:\n%s", v)
	}
	press("w")
	press("w")
	press("w")
	if p.cur != subSessions {
		t.Fatalf("cycle did not wrap: %d", p.cur)
	}
	if h := p.Help(); len(h) != 1 || h[0].Help().Key != "w" {
		t.Fatalf("pane help shows %+v", h)
	}
}
