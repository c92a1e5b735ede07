package views

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// WrapWords breaks a plain sentence into lines of at most w cells at
// spaces (a word wider than w keeps a line of its own); none for a blank
// one. The help screen's notes and a table schema's problem line use it.
func WrapWords(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case lipgloss.Width(line)+1+lipgloss.Width(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
