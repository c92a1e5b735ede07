package views

import (
	"strings"
	"testing"
	"time"

	"opsdeck/keymap"
	"opsdeck/themes"
)

// TestRelativeTimesStayLive: the shown relative times are drawn against
// the moment of the last clock tick (Retime) or change of rows, so a frame
// drawn for something else between two ticks shows the same labels; the
// tick brings them to the clock, and the row's expiry styling along when
// the moment passes.
func TestRelativeTimesStayLive(t *testing.T) {
	now := sortNow
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return now }}
	p := NewSessions(c, "", "RUNNING")
	loadFirstPage(t, p, sessionAt("s-live", 5*time.Second, 30*time.Second))
	v := stripSGR(p.View())
	if !strings.Contains(v, "just now") && !strings.Contains(v, "5s ago") || !strings.Contains(v, "in 30s") {
		t.Fatalf("first frame:\n%s", v)
	}
	now = now.Add(40 * time.Second)
	if held := stripSGR(p.View()); held != v {
		t.Fatalf("labels moved without a clock tick:\n%s\n---\n%s", v, held)
	}
	// Before the retime the row is marked as expiring soon (a warning),
	// not as past its expiry.
	if r, _ := p.active().table.Row(p.active().table.SelectedID()); r.Tag != "!" || r.Cells[5].Style == errorCell("", c.Theme).Style {
		t.Fatalf("tag %q, expiry styled as an error before retime: the test proves nothing", r.Tag)
	}
	if !p.Retime() {
		t.Fatal("Retime says no live column is on screen")
	}
	if v := stripSGR(p.View()); !strings.Contains(v, "45s ago") || !strings.Contains(v, "10s ago") {
		t.Fatalf("times froze at load time after the tick:\n%s", v)
	}
	r, _ := p.active().table.Row(p.active().table.SelectedID())
	if r.Tag != "!" {
		t.Fatalf("a RUNNING session past its expiry is not marked after Retime: tag %q", r.Tag)
	}
	if r.Cells[5].Style == nil || r.Cells[5].Style != errorCell("", c.Theme).Style {
		t.Fatal("EXPIRES is not styled as an error after the expiry passed")
	}
}

// stripSGR drops colour sequences so the test reads the text.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
