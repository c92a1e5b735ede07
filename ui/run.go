package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// run parses and executes a command line. A parse error becomes the
// one-line status message; nothing else changes. A pane's command shows
// that pane and runs there; a root command runs on the root.
func (m Model) run(line string) (tea.Model, tea.Cmd) {
	if strings.TrimSpace(line) == "" {
		return m, nil
	}
	cmd, err := ParseCommand(line)
	if err != nil {
		m.setFlash(err.Error(), true)
		return m, nil
	}
	m.setFlash("", false)
	c, _ := specFor(string(cmd.Verb))
	if c.root != nil {
		return c.root(m, cmd.Args)
	}
	if c.Jumps {
		// b returns to what was shown before the command.
		m.pushJump(m.here())
	}
	p, ok := m.show(c.pane)
	if !ok || c.Run == nil {
		m.setFlash("command not handled: :"+c.Name, true)
		return m, nil
	}
	return m, c.Run(p, cmd.Args)
}
