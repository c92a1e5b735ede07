package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// run parses and executes a command line. A parse error becomes the
// one-line status message; nothing else changes.
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
	switch cmd.Verb {
	case VerbQuit:
		m.quitting = true
		return m, tea.Quit
	case VerbSessions:
		m.active = views.PaneSessions
		switch {
		case cmd.Arg != "":
			return m, m.sessions.ShowProject(cmd.Arg)
		case cmd.Opt == "status":
			return m, m.sessions.ShowStatus(cmd.Value)
		}
		return m, m.sessions.ShowStatus(data.SessionRunning)
	case VerbSession:
		m.active = views.PaneSessions
		return m, m.sessions.ShowSession(cmd.Arg)
	case VerbRuns:
		m.active = views.PaneRuns
		return m, m.runs.ShowUser(cmd.Arg)
	case VerbRun:
		m.active = views.PaneRuns
		return m, m.runs.ShowRun(cmd.Arg)
	case VerbInbox:
		m.active = views.PaneInbox
		return m, m.inbox.Show(cmd.Arg, cmd.Type, cmd.Status)
	case VerbDelegations:
		m.active = views.PaneDelegations
		return m, m.delegations.ShowDelegations(cmd.Arg)
	case VerbSubscriptions:
		m.active = views.PaneDelegations
		return m, m.delegations.ShowSubscriptions(cmd.Arg)
	case VerbConsumers:
		m.active = views.PaneDelegations
		return m, m.delegations.ShowConsumers(cmd.Arg)
	case VerbSandboxes:
		m.active = views.PaneSandboxes
		return m, m.sandboxes.Show(cmd.Opt, cmd.Value)
	case VerbAudit:
		return m.openAudit(cmd.Arg)
	case VerbScan:
		return m.openScan(data.TableID(cmd.Arg), cmd.Segments)
	case VerbSort:
		return m.runSort(cmd.Args)
	case VerbExport:
		return m.runExport(cmd.Args)
	case VerbStream:
		m.active = views.PaneStream
		return m, m.stream.Show(data.TableID(cmd.Arg))
	}
	m.setFlash("command not handled: "+inert.String(string(cmd.Verb)), true)
	return m, nil
}
