package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"opsdeck/themes"
)

// The auto theme. main can only guess the terminal's background (from
// COLORFGBG, which many terminals do not set); bubbletea can ask the
// terminal itself (OSC 11) once the program owns stdin. The console starts
// with the guess and switches when the answer comes, restyling every pane.
// A terminal that never answers leaves the guess in place.

// queryBackground asks the terminal for its background colour when the
// theme is auto.
func (m Model) queryBackground() tea.Cmd {
	if !m.autoTheme {
		return nil
	}
	if m.send == nil {
		return tea.RequestBackgroundColor
	}
	return m.toTerminal(ansi.RequestBackgroundColor)
}

// SendToTerminal has what the console writes to the terminal besides its
// frames (the background colour query, the bell, clipboard copies) written
// by send, at once and in order with the frames (ui/screen). Without it
// they go through the program library, which writes them on its tick, once
// a second with its renderer off. An answer to a query comes back as a
// message either way.
func (m *Model) SendToTerminal(send func(seq string)) { m.send = send }

// toTerminal is a command that writes seq to the terminal.
func (m Model) toTerminal(seq string) tea.Cmd {
	if send := m.send; send != nil {
		return func() tea.Msg {
			send(seq)
			return nil
		}
	}
	return tea.Raw(seq)
}

// onBackground switches to the dark or light theme by the terminal's
// answer, unless the theme was chosen explicitly.
func (m *Model) onBackground(msg tea.BackgroundColorMsg) {
	if !m.autoTheme || msg.Color == nil {
		return
	}
	th := themes.Light()
	if msg.IsDark() {
		th = themes.Dark()
	}
	m.setTheme(th)
}

// setTheme restyles the console: the shared context first (rows rendered
// from now on), then every pane's rows already shown.
func (m *Model) setTheme(th themes.Theme) {
	if th.Name == m.ctx.Theme.Name {
		return
	}
	m.ctx.Theme = th
	for _, p := range m.panes {
		if p.theme != nil {
			p.theme.SetTheme(th)
		}
	}
}

// Theme is the theme in use (for tests and main).
func (m Model) Theme() themes.Theme { return m.ctx.Theme }
