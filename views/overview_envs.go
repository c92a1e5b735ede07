package views

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// `:overview envs`: every configured env's Overview at once. The pane
// gives the root what its own count covers (the plan, the alerts); the
// root opens a connection per env (ui/overview_envs.go), counts the same
// plan there with data.Store.CountOverview, and draws the numbers with
// TallyText, as this pane does.

// OverviewEnvsMsg asks the root to show every env's overview.
type OverviewEnvsMsg struct {
	Plan   data.OverviewPlan
	Alerts []data.Threshold
}

func (p *Overview) envs() tea.Cmd {
	msg := OverviewEnvsMsg{Plan: p.Plan(), Alerts: p.opts.Alerts}
	return func() tea.Msg { return msg }
}

// TallyText is a number as the Overview shows it: "!" when its alert is
// on, "≈" an estimate, "≥" a lower bound, "?" a failed count.
func TallyText(t data.Tally, alerts []data.Threshold) string {
	s := countText(t)
	if _, on := t.Alerting(alerts); on {
		s = "!" + s
	}
	return s
}
