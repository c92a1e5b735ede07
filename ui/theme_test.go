package ui

import (
	"image/color"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views"
)

// themedModel is the console at 100×20 with a few sessions, of several
// statuses, fed through the live-tail hook.
func themedModel(t *testing.T, o Options) Model {
	t.Helper()
	o.Now = func() time.Time { return fixedNow }
	var tm tea.Model = New(o)
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	var changes []views.Change
	for i, st := range []string{"RUNNING", "RUNNING", "STOPPED", "ERROR"} {
		changes = append(changes, views.Change{Table: data.TableSessions, Event: "INSERT", New: data.Item{
			"sessionId": s("th-" + strconv.Itoa(i)), "status": s(st), "projectId": s("p"),
			"createdAt": s(fixedNow.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)),
			"expiresAt": n(strconv.FormatInt(fixedNow.Add(time.Hour).Unix(), 10)),
		}})
	}
	tm, _ = tm.Update(changesMsg(changes))
	return tm.(Model)
}

// TestAutoThemeFollowsTheTerminal: with the auto theme, a light terminal
// background turns the console light — every shown row restyled, exactly
// as if it had started light — and a dark one keeps it dark; a theme the
// operator chose, or NO_COLOR, never changes.
func TestAutoThemeFollowsTheTerminal(t *testing.T) {
	light := themedModel(t, Options{Theme: themes.Light()}).Render()
	white := tea.BackgroundColorMsg{Color: color.White}
	black := tea.BackgroundColorMsg{Color: color.Black}

	auto := themedModel(t, Options{Theme: themes.Dark(), AutoTheme: true})
	if auto.Render() == light {
		t.Fatal("dark and light frames are equal: the test proves nothing")
	}
	nm, _ := auto.Update(black)
	if got := nm.(Model).Theme().Name; got != "dark" {
		t.Fatalf("dark background: theme %q", got)
	}
	nm, _ = nm.Update(white)
	if got := nm.(Model).Theme().Name; got != "light" {
		t.Fatalf("light background: theme %q", got)
	}
	if nm.(Model).Render() != light {
		t.Fatal("after switching to light, the frame differs from one started light (rows not restyled)")
	}

	for name, o := range map[string]Options{
		"chosen":   {Theme: themes.Dark()},
		"no color": {Theme: themes.Plain(), AutoTheme: true, NoColor: true},
	} {
		m := themedModel(t, o)
		nm, _ := m.Update(white)
		if got := nm.(Model).Theme().Name; got != o.Theme.Name {
			t.Errorf("%s: theme changed to %q", name, got)
		}
	}
}
