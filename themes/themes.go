// Package themes holds the colour themes of opsdeck: dark, light,
// high-contrast and a colourless one for NO_COLOR. It is a leaf package
// (lipgloss only). Components take a Theme value and never build colours of
// their own, so switching theme restyles everything at once.
package themes

import (
	"fmt"
	"os"
	"strings"

	"charm.land/lipgloss/v2"
)

// Theme is a complete set of styles. Styles carry colour and emphasis only,
// never width or padding: layout belongs to the components.
type Theme struct {
	Name string

	App, Title                        lipgloss.Style
	TabActive, TabInactive, TabBar    lipgloss.Style
	StatusBar, StatusKey, StatusValue lipgloss.Style
	ROBadge                           lipgloss.Style
	Error, Warn, OK, Muted            lipgloss.Style
	Header, Row, Selected, Marked     lipgloss.Style
	Highlight                         lipgloss.Style // a recently changed row or cell
	Border, DialogBorder, DialogTitle lipgloss.Style
	Added, Removed                    lipgloss.Style // before → after in dialogs and diffs
	TypeTag                           lipgloss.Style // DynamoDB type labels in the detail view
	Key, Desc                         lipgloss.Style // help screen
}

// Names lists the selectable themes (besides "auto").
func Names() []string { return []string{"dark", "light", "high-contrast"} }

// ByName returns a named theme; "no-color" is accepted too.
func ByName(name string) (Theme, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "dark":
		return Dark(), nil
	case "light":
		return Light(), nil
	case "high-contrast", "high_contrast", "highcontrast":
		return HighContrast(), nil
	case "no-color", "nocolor", "none":
		return Plain(), nil
	}
	return Theme{}, fmt.Errorf("unknown theme %q (known: auto, %s)", name, strings.Join(Names(), ", "))
}

// Pick resolves the configured theme. noColor wins over everything (the user
// asked for no colour in every program); "auto" or "" follows the terminal
// background.
func Pick(name string, hasDarkBackground bool, noColor bool) (Theme, error) {
	if noColor {
		// Still validate the name so a typo in the config is reported.
		if n := strings.ToLower(strings.TrimSpace(name)); n != "" && n != "auto" {
			if _, err := ByName(n); err != nil {
				return Plain(), err
			}
		}
		return Plain(), nil
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "auto":
		if hasDarkBackground {
			return Dark(), nil
		}
		return Light(), nil
	}
	return ByName(name)
}

// NoColor reports whether NO_COLOR is set to a non-empty value
// (https://no-color.org).
func NoColor() bool { return os.Getenv("NO_COLOR") != "" }
