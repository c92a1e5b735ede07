package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views"
)

// overviewOptions watches the demo world's first event and graph users,
// with the two alerts of the demo.
func (w world) overviewOptions(noColor bool) Options {
	o := w.options()
	o.Scopes.Overview = views.OverviewOptions{
		EventUsers: w.rep.EventUsers[:min(2, len(w.rep.EventUsers))],
		RunUsers:   w.rep.GraphUsers[:min(2, len(w.rep.GraphUsers))],
		Alerts: []data.Threshold{
			{Metric: data.MetricSandboxesAvailable, Op: "<", Value: 50},
			{Metric: data.MetricEventsFailed, Op: ">", Value: 0},
		},
	}
	if noColor {
		o.Theme, o.NoColor = themes.Plain(), true
	}
	return o
}

// TestGoldenOverview renders the Overview over the seeded demo world at
// 120×40 and 80×24, coloured and with NO_COLOR. The frames keep their
// escape sequences: the NO_COLOR ones must hold no colour at all, and
// every alerting number carries its "!" either way.
func TestGoldenOverview(t *testing.T) {
	w := seeded(t)
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		for _, noColor := range []bool{false, true} {
			name := fmt.Sprintf("%dx%d", size[0], size[1])
			if noColor {
				name += "_nocolor"
			}
			t.Run(name, func(t *testing.T) {
				frames := make(chan frame, 1)
				tm := teatest.NewTestModel(t, probe{Model: New(w.overviewOptions(noColor)), frames: frames},
					teatest.WithInitialTermSize(size[0], size[1]))
				waitFor(t, frames, "the Sessions pane to load", settledOn(views.PaneSessions))
				tm.Type("0")
				f := waitFor(t, frames, "the overview to count", func(f frame) bool {
					return f.active == views.PaneOverview && !f.status.Loading && f.status.HasReq
				})
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(probe).Model
				raw := strings.ReplaceAll(final.Render(), w.prefix, strings.Repeat("T", len(w.prefix)-1)+"-")
				plain := stripANSI(raw)
				checkFrame(t, plain, size[0], size[1])
				if !strings.Contains(plain, "Sandbox pool") || !strings.Contains(plain, "!") {
					t.Fatalf("no overview or no alert glyph:\n%s", plain)
				}
				if strings.Contains(f.screen, "?") && strings.Contains(plain, "count failed") {
					t.Fatalf("a count failed:\n%s", plain)
				}
				if noColor && hasColour(raw) {
					t.Fatalf("NO_COLOR frame holds colour: %q", raw)
				}
				if !noColor && !hasColour(raw) {
					t.Fatal("coloured frame holds no colour: the test proves nothing")
				}
				golden.RequireEqual(t, raw)
			})
		}
	}
}

// hasColour reports an SGR sequence setting a foreground or background
// colour (30–49, 90–107, or 38/48 extended).
func hasColour(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != 0x1b || s[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(s) && s[j] != 'm' && j-i < 64 {
			j++
		}
		for _, p := range strings.Split(s[i+2:j], ";") {
			n := 0
			fmt.Sscanf(p, "%d", &n)
			if (n >= 30 && n <= 49) || (n >= 90 && n <= 107) {
				return true
			}
		}
	}
	return false
}
