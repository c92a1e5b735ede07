package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/keymap"
	"opsdeck/views"
)

// key routes a key press: this file is every key's way to whatever takes
// it. ctrl+l and ctrl+z hold in every mode (they are the terminal's); an
// open MFA ask comes next; then by mode. While a prompt, dialog or the help screen has focus, keys
// go only to it: typing "q" into the command line never quits, and "1"
// in a filter never switches panes.
func (m Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.terminalKey(k); ok {
		return m, cmd
	}
	if len(m.mfa) > 0 {
		// An open ask for an MFA code owns the keyboard (mfa.go).
		return m.mfaKey(k)
	}
	km := m.ctx.Keys
	if m.act.drain != nil {
		// A quit waits for a write: keys only abandon it (quit_drain.go).
		cmd := m.act.drainKey(&m, k)
		return m, cmd
	}
	switch m.mode {
	case modeDialog:
		if m.dialog == nil {
			m.mode = modeNormal
			return m, nil
		}
		if d, ok := m.dialog.(*bulkDialog); ok && d.Running() && key.Matches(k, km.Quit) {
			cmd := m.act.requestQuit(&m, "")
			return m, cmd
		}
		return m.updateDialog(k)
	case modeHelp:
		if key.Matches(k, km.Help) || key.Matches(k, km.Back) || key.Matches(k, km.Quit) {
			m.mode = modeNormal
			return m, nil
		}
		return m.helpKey(k), nil
	case modeCommand:
		return m.commandKey(k)
	case modeFilter:
		return m.filterKey(k)
	}

	if m.sortPending {
		return m.sortKey(k)
	}
	p := m.panes[m.active]
	if key.Matches(k, km.SortColumn) {
		m.startSort()
		return m, nil
	}
	if key.Matches(k, km.Reload) {
		// r is the retry an MFA give-up offers: the pane's reload (below)
		// may ask for the code again.
		m.mfaPrompts.Retry()
	}
	switch {
	case key.Matches(k, km.Cancel):
		// ctrl+c cancels a running load; it never quits (q does), so a
		// reflexive ctrl+c cannot end an on-call session by surprise.
		if m.scan.cancelExport(&m) {
			return m, nil
		}
		if p.cancel != nil && p.cancel.Cancel() {
			m.setFlash("load cancelled", false)
		} else {
			m.setFlash("nothing to cancel (q quits)", false)
		}
		return m, nil
	case key.Matches(k, km.Quit):
		cmd := m.act.requestQuit(&m, "")
		return m, cmd
	case key.Matches(k, km.Goto):
		return m.gotoRelated()
	case key.Matches(k, km.GotoContext):
		return m.gotoContext()
	case key.Matches(k, km.JumpBack):
		return m.jumpBack()
	case key.Matches(k, km.Help):
		m.mode, m.helpOff = modeHelp, 0
		return m, nil
	case key.Matches(k, km.Command):
		m.mode = modeCommand
		m.input.SetValue("")
		m.histPos, m.draft, m.comps = len(m.history), "", nil
		m.input.Focus()
		return m, nil
	case key.Matches(k, km.Filter):
		m.mode = modeFilter
		m.input.SetValue(p.filterText())
		m.filterErr = ""
		m.input.Focus()
		return m, nil
	case key.Matches(k, km.NextPane):
		return m, m.switchTo(m.cycle(1))
	case key.Matches(k, km.PrevPane):
		return m, m.switchTo(m.cycle(-1))
	case key.Matches(k, km.Back):
		// esc: close the detail view, else cancel a load, else clear the
		// filter, else clear the message.
		if p.back != nil && p.back.Back() {
			return m, nil
		}
		if p.filterText() != "" {
			_ = p.setFilter("")
			return m, nil
		}
		m.setFlash("", false)
		return m, nil
	}
	if id, ok := m.isPaneKey(k); ok {
		return m, m.switchTo(id)
	}
	if key.Matches(k, km.MarkAll) && !p.detailOpen() {
		m.markAll("")
		return m, nil
	}
	// The scan and action keys leave this file only when they are those
	// keys: every other key goes straight to the pane.
	if key.Matches(k, km.Scan) || key.Matches(k, km.Reload) {
		if cmd, ok := m.scan.scanKey(&m, k); ok {
			return m, cmd
		}
	}
	if _, ok := m.act.actionKeyFor(k); ok {
		if cmd, ok := m.act.actionKey(&m, k); ok {
			return m, cmd
		}
	}
	return m, p.Update(k)
}

// commandKey edits the command line: Submit (enter) runs, Dismiss (esc)
// abandons, CompleteNext (tab) completes, LineUp/LineDown (↑/↓) walk the
// history. Every other key is typed.
func (m Model) commandKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := m.ctx.Keys
	switch {
	case key.Matches(k, km.Dismiss):
		m.mode = modeNormal
		m.input.Blur()
		return m, nil
	case key.Matches(k, km.Submit):
		line := m.input.Value()
		m.mode = modeNormal
		m.input.Blur()
		save := m.remember(line)
		nm, cmd := m.run(line)
		return nm, tea.Batch(save, cmd)
	case key.Matches(k, km.CompleteNext):
		m.complete(1)
		return m, nil
	case key.Matches(k, km.CompletePrev):
		m.complete(-1)
		return m, nil
	case key.Matches(k, km.LineUp):
		m.browse(-1)
		return m, nil
	case key.Matches(k, km.LineDown):
		m.browse(1)
		return m, nil
	}
	m.comps = nil
	return m.updateInput(k)
}

// filterKey edits the filter line; the pane narrows as the operator types.
func (m Model) filterKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p := m.panes[m.active]
	switch km := m.ctx.Keys; {
	case key.Matches(k, km.Dismiss):
		_ = p.setFilter("") // "" always applies
		m.mode, m.filterErr = modeNormal, ""
		m.input.Blur()
		return m, nil
	case key.Matches(k, km.Submit):
		if m.filterErr != "" {
			// Not applied: the prompt stays open on the error, so the
			// operator fixes the expression (or esc clears it).
			return m, nil
		}
		m.mode = modeNormal
		m.input.Blur()
		return m, nil
	}
	return m.updateInput(k)
}

func (m Model) updateInput(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.input.Update(msg) && m.mode == modeFilter {
		m.filterErr = ""
		if err := m.panes[m.active].setFilter(m.input.Value()); err != nil {
			m.filterErr = err.Error()
		}
	}
	return m, nil
}

// browse moves through the history; past the newest entry it restores what
// was being typed.
func (m *Model) browse(dir int) {
	if len(m.history) == 0 {
		return
	}
	if m.histPos == len(m.history) {
		m.draft = m.input.Value()
	}
	m.histPos = min(max(m.histPos+dir, 0), len(m.history))
	if m.histPos == len(m.history) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(m.history[m.histPos])
	}
	m.input.CursorEnd()
}

// complete replaces the line with the next completion; repeated tabs cycle.
func (m *Model) complete(dir int) {
	if m.comps == nil {
		m.comps = complete(m.input.Value(), m.completionIDs, m.completionOptIDs)
		m.compPos = -1
		if len(m.comps) == 0 {
			m.setFlash("no completion", false)
			return
		}
		if len(m.comps) == 1 {
			m.input.SetValue(m.comps[0])
			m.input.CursorEnd()
			m.comps = nil
			return
		}
	}
	if len(m.comps) == 0 {
		return
	}
	m.compPos = (m.compPos + dir + len(m.comps)) % len(m.comps)
	m.input.SetValue(m.comps[m.compPos])
	m.input.CursorEnd()
}

// completionIDs offers a command's argument values: those its pane shows
// (CommandSpec.Complete, Complete2 for the second argument), and for the
// first those of its kind the console has read anywhere so far
// (CommandSpec.Seen, newest first) and a root command's own (env, profile
// and region names). A value that carries a credential is never offered:
// completing it would show it.
func (m Model) completionIDs(v Verb, arg int) []string {
	c, ok := specFor(string(v))
	if !ok {
		return nil
	}
	p := m.Pane(c.pane)
	if p == nil && c.root != nil {
		// A root command acts on the pane on screen (:sort's columns).
		p = m.panes[m.active].Pane
	}
	if arg == 2 {
		if p != nil && c.Complete2 != nil {
			return completable(c.Complete2(p))
		}
		return nil
	}
	var out []string
	if c.rootComplete != nil {
		out = append(out, c.rootComplete(m)...)
	}
	if p != nil && c.Complete != nil {
		out = append(out, c.Complete(p)...)
	}
	out = append(out, m.ctx.Seen.Values(c.Seen, "", 0)...)
	return completable(out)
}

// completionOptIDs offers the seen values of an option's kind
// (OptSpec.Seen: :sandboxes track=…, :inbox … type=…).
func (m Model) completionOptIDs(v Verb, key string) []string {
	c, ok := specFor(string(v))
	if !ok {
		return nil
	}
	for _, o := range c.Opts {
		if o.Key == key {
			return completable(m.ctx.Seen.Values(o.Seen, "", 0))
		}
	}
	return nil
}

// completable keeps the values completion may show.
func completable(vals []string) []string {
	out := vals[:0:0]
	for _, v := range vals {
		if views.Completable(v) {
			out = append(out, v)
		}
	}
	return out
}

// terminalKey is the command for ctrl+l or ctrl+z, and whether k is one.
func (m Model) terminalKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch k.String() {
	case "ctrl+l":
		if f := m.term.Repaint; f != nil {
			return func() tea.Msg { f(); return nil }, true
		}
		return tea.ClearScreen, true
	case "ctrl+z":
		if f := m.term.Suspend; f != nil {
			return func() tea.Msg { f(); return nil }, true
		}
		return tea.Suspend, true
	}
	return nil, false
}

// isPaneKey: k is the key of one of the panes (its place in the tab order).
func (m Model) isPaneKey(k tea.KeyPressMsg) (int, bool) {
	for i, spec := range views.Registry() {
		if b := m.ctx.Keys.Binding(paneKey(spec).Name); b != nil && key.Matches(k, *b) {
			return i, true
		}
	}
	return 0, false
}

// actionKeyFor is the action key k presses, if any.
func (a actionState) actionKeyFor(k tea.KeyPressMsg) (keymap.ActionKey, bool) {
	for _, ak := range a.keys {
		if key.Matches(k, ak.Binding) {
			return ak, true
		}
	}
	return keymap.ActionKey{}, false
}
