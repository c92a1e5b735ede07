package views

import tea "charm.land/bubbletea/v2"

// Reload counts again when the overview has counted or tried to: the
// console signed in again after its count failed, or the live feed
// dropped records its numbers may have missed.
func (p *Overview) Reload() tea.Cmd {
	if !p.have && p.err == "" {
		return nil
	}
	return p.recount()
}
