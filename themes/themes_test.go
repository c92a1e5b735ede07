package themes

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func allThemes(t *testing.T) []Theme {
	var out []Theme
	for _, n := range Names() {
		th, err := ByName(n)
		if err != nil {
			t.Fatalf("ByName(%q): %v", n, err)
		}
		if th.Name != n {
			t.Fatalf("ByName(%q).Name = %q", n, th.Name)
		}
		out = append(out, th)
	}
	return append(out, Plain())
}

func TestByNameUnknown(t *testing.T) {
	_, err := ByName("solarized")
	if err == nil || !strings.Contains(err.Error(), `"solarized"`) || !strings.Contains(err.Error(), "high-contrast") {
		t.Fatalf("error %v", err)
	}
}

func TestPick(t *testing.T) {
	cases := []struct {
		name          string
		dark, noColor bool
		want          string
	}{
		{"", true, false, "dark"},
		{"auto", false, false, "light"},
		{"AUTO", true, false, "dark"},
		{"light", true, false, "light"},
		{"high-contrast", false, false, "high-contrast"},
		{"dark", true, true, "no-color"},
		{"", false, true, "no-color"},
	}
	for _, c := range cases {
		th, err := Pick(c.name, c.dark, c.noColor)
		if err != nil || th.Name != c.want {
			t.Errorf("Pick(%q, %v, %v) = %q, %v; want %q", c.name, c.dark, c.noColor, th.Name, err, c.want)
		}
	}
	if _, err := Pick("neon", true, true); err == nil {
		t.Errorf("a misspelt theme is an error even under NO_COLOR")
	}
}

func TestNoColorEnv(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if NoColor() {
		t.Error("empty NO_COLOR means colour")
	}
	t.Setenv("NO_COLOR", "1")
	if !NoColor() {
		t.Error("NO_COLOR=1 ignored")
	}
}

// styleFields lists every lipgloss.Style field of Theme by name.
func styleFields(th Theme) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(th)
	for i := 0; i < v.NumField(); i++ {
		if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = s
		}
	}
	return out
}

func TestPlainHasNoColourButVisibleCursor(t *testing.T) {
	th := Plain()
	for name, s := range styleFields(th) {
		out := s.Render("x")
		if strings.Contains(out, "38;") || strings.Contains(out, "48;") || strings.Contains(out, "[3") && !strings.Contains(out, "[3m") {
			t.Errorf("%s has a colour: %q", name, out)
		}
	}
	if !th.Selected.GetReverse() || !th.TabActive.GetReverse() {
		t.Errorf("cursor row or active tab not reversed")
	}
	if th.Header.Render("x") == "x" || th.Error.Render("x") == "x" {
		t.Errorf("header/error indistinguishable from plain text")
	}
}

func TestColouredThemesStyleEverything(t *testing.T) {
	for _, th := range allThemes(t)[:3] {
		for name, s := range styleFields(th) {
			if name == "TabBar" {
				continue // deliberately plain: the tabs carry the styling
			}
			if s.Render("x") == "x" {
				t.Errorf("%s.%s renders unstyled", th.Name, name)
			}
		}
		if th.Selected.GetBackground() == th.Row.GetBackground() && !th.Selected.GetReverse() {
			t.Errorf("%s: selected row has no distinct background", th.Name)
		}
	}
}

func TestStyleHasNoLayout(t *testing.T) {
	// Components measure text themselves; a theme style must not pad or size.
	for _, th := range allThemes(t) {
		for name, s := range styleFields(th) {
			if w := lipgloss.Width(s.Render("abc")); w != 3 {
				t.Errorf("%s.%s changes width to %d", th.Name, name, w)
			}
		}
	}
}

func TestStatus(t *testing.T) {
	th := Dark()
	same := func(a, b lipgloss.Style) bool { return a.Render("s") == b.Render("s") }
	groups := map[string]lipgloss.Style{
		"RUNNING": th.OK, "ready": th.OK, "Active": th.OK, "available": th.OK, "delivered": th.OK, "COMPLETE": th.OK,
		"PROCESSING": th.Warn, "CREATING": th.Warn, "PROVISIONING": th.Warn, "STARTING": th.Warn,
		"retrying": th.Warn, "received": th.Warn, "pending_deletion": th.Warn, "allocated": th.Warn,
		"ERROR": th.Error, "FAILED": th.Error, "failed": th.Error, "TIMED_OUT": th.Error,
		"stale": th.Error, "expired": th.Error,
		"COMPLETED": th.Muted, "STOPPED": th.Muted, " stopped ": th.Muted,
		"something-new": th.Row, "": th.Row,
	}
	for word, want := range groups {
		if !same(th.Status(word), want) {
			t.Errorf("Status(%q) has the wrong class", word)
		}
	}
	if same(th.OK, th.Error) || same(th.Warn, th.Error) || same(th.OK, th.Muted) {
		t.Fatal("status classes are not distinguishable")
	}
}

func TestPaintOf(t *testing.T) {
	for _, th := range allThemes(t) {
		for name, st := range styleFields(th) {
			got, want := PaintOf(st).Apply("abc"), st.Render("abc")
			if st.GetUnderline() || st.GetStrikethrough() {
				// lipgloss wraps each character for these; same look.
				if !strings.HasPrefix(want, PaintOf(st).Pre) || ansi.Strip(got) != "abc" {
					t.Errorf("%s.%s: paint %q vs render %q", th.Name, name, got, want)
				}
				continue
			}
			if got != want {
				t.Errorf("%s.%s: paint %q != render %q", th.Name, name, got, want)
			}
		}
	}
	padded := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Padding(0, 2).Width(20).Border(lipgloss.NormalBorder())
	p := PaintOf(padded)
	if out := p.Apply("abc"); lipgloss.Width(out) != 3 || !strings.Contains(out, "abc") || p.Pre == "" {
		t.Errorf("layout style: %q", out)
	}
	if (Paint{}).Apply("x") != "x" {
		t.Error("empty paint changed text")
	}
}
