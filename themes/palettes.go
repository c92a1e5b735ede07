package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// palette is the handful of colours a theme is derived from, so the three
// coloured themes stay consistent with each other.
type palette struct {
	fg, bg, muted, accent, ok, warn, err color.Color
	selFg, selBg, markFg, hiBg, border   color.Color
}

func fromPalette(name string, p palette) Theme {
	s := lipgloss.NewStyle
	return Theme{
		Name:         name,
		App:          s().Foreground(p.fg),
		Title:        s().Foreground(p.accent).Bold(true),
		TabActive:    s().Foreground(p.selFg).Background(p.selBg).Bold(true),
		TabInactive:  s().Foreground(p.muted),
		TabBar:       s(),
		StatusBar:    s().Foreground(p.fg),
		StatusKey:    s().Foreground(p.muted),
		StatusValue:  s().Foreground(p.fg).Bold(true),
		ROBadge:      s().Foreground(p.bg).Background(p.warn).Bold(true),
		Error:        s().Foreground(p.err).Bold(true),
		Warn:         s().Foreground(p.warn),
		OK:           s().Foreground(p.ok),
		Muted:        s().Foreground(p.muted),
		Header:       s().Foreground(p.accent).Bold(true),
		Row:          s().Foreground(p.fg),
		Selected:     s().Foreground(p.selFg).Background(p.selBg).Bold(true),
		Marked:       s().Foreground(p.markFg).Bold(true),
		Highlight:    s().Background(p.hiBg),
		Border:       s().Foreground(p.border),
		DialogBorder: s().Foreground(p.accent),
		DialogTitle:  s().Foreground(p.accent).Bold(true),
		Added:        s().Foreground(p.ok),
		Removed:      s().Foreground(p.err).Strikethrough(true),
		TypeTag:      s().Foreground(p.muted).Italic(true),
		Key:          s().Foreground(p.accent).Bold(true),
		Desc:         s().Foreground(p.muted),
	}
}

// Dark is for dark terminal backgrounds.
func Dark() Theme {
	c := lipgloss.Color
	return fromPalette("dark", palette{
		fg: c("#D0D0D0"), bg: c("#1C1C1C"), muted: c("#8A8A8A"), accent: c("#5FAFFF"),
		ok: c("#5FD75F"), warn: c("#FFAF00"), err: c("#FF5F5F"),
		selFg: c("#FFFFFF"), selBg: c("#005F87"), markFg: c("#D787FF"), hiBg: c("#3A3A00"),
		border: c("#585858"),
	})
}

// Light is for light terminal backgrounds.
func Light() Theme {
	c := lipgloss.Color
	return fromPalette("light", palette{
		fg: c("#1C1C1C"), bg: c("#FFFFFF"), muted: c("#6C6C6C"), accent: c("#005FAF"),
		ok: c("#008700"), warn: c("#AF5F00"), err: c("#D70000"),
		selFg: c("#000000"), selBg: c("#AFD7FF"), markFg: c("#870087"), hiBg: c("#FFFFAF"),
		border: c("#A8A8A8"),
	})
}

// HighContrast uses the 16 basic ANSI colours only, bold everywhere it
// matters, for low-vision users and poor terminals.
func HighContrast() Theme {
	c := lipgloss.Color
	t := fromPalette("high-contrast", palette{
		fg: c("15"), bg: c("0"), muted: c("7"), accent: c("14"),
		ok: c("10"), warn: c("11"), err: c("9"),
		selFg: c("0"), selBg: c("15"), markFg: c("13"), hiBg: c("4"),
		border: c("15"),
	})
	t.Warn = t.Warn.Bold(true)
	t.OK = t.OK.Bold(true)
	t.Header = t.Header.Underline(true)
	return t
}

// Plain has no colour at all (NO_COLOR). Emphasis still tells things apart:
// the cursor row is reversed, headers and marks are bold, errors underlined.
func Plain() Theme {
	s := lipgloss.NewStyle
	return Theme{
		Name:         "no-color",
		App:          s(),
		Title:        s().Bold(true),
		TabActive:    s().Reverse(true).Bold(true),
		TabInactive:  s(),
		TabBar:       s(),
		StatusBar:    s(),
		StatusKey:    s(),
		StatusValue:  s().Bold(true),
		ROBadge:      s().Reverse(true).Bold(true),
		Error:        s().Bold(true).Underline(true),
		Warn:         s().Bold(true),
		OK:           s(),
		Muted:        s().Faint(true),
		Header:       s().Bold(true).Underline(true),
		Row:          s(),
		Selected:     s().Reverse(true),
		Marked:       s().Bold(true),
		Highlight:    s().Underline(true),
		Border:       s(),
		DialogBorder: s(),
		DialogTitle:  s().Bold(true),
		Added:        s().Bold(true),
		Removed:      s().Strikethrough(true),
		TypeTag:      s().Italic(true),
		Key:          s().Bold(true),
		Desc:         s(),
	}
}
