package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"opsdeck/config"
	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/ui"
	"opsdeck/views"
)

// checkAlerts refuses an `alerts:` entry whose metric the overview does
// not count, naming its line: a threshold on a misspelt name would never
// fire, and an operator would trust its silence.
func checkAlerts(cfg *config.Config) error {
	known := data.MetricKeys()
	for _, a := range cfg.Alerts {
		if !slices.Contains(known, a.Metric) {
			return fmt.Errorf("%s: alerts: unknown metric %q (known: %s)", cfg.Where(a.Line), a.Metric, strings.Join(known, ", "))
		}
	}
	return nil
}

// withOverview gives the overview its configuration: watched users, the
// windows (the stale-run threshold and retry limit are the actions' own,
// so a marked row is one the action would accept), alerts, bell.
func withOverview(s ui.Scopes, cfg *config.Config) ui.Scopes {
	o := views.OverviewOptions{
		Users:          cfg.Watch.Users,
		ExpiringWithin: time.Duration(cfg.Overview.ExpiringMinutes) * time.Minute,
		StaleRun:       time.Duration(cfg.Actions.StaleRunMinutes) * time.Minute,
		RetryMax:       cfg.Actions.RetryMax,
		// A pending deletion failing this often counts as failing.
		DeletionFailingAt: cfg.Overview.DeletionFailingAt,
		Recount:           cfg.Overview.RecountInterval,
		Bell:              cfg.Overview.Bell,
	}
	for _, a := range cfg.Alerts {
		o.Alerts = append(o.Alerts, data.Threshold{Metric: a.Metric, Op: a.Op, Value: a.Value})
	}
	o.EventUsers, o.RunUsers = s.Overview.EventUsers, s.Overview.RunUsers
	s.Overview = o
	return s
}

// demoOverview watches the demo's tenants (each service's own) and sets
// two alerts when the config names none, so the demo shows what the overview does.
func demoOverview(cfg *config.Config, r demo.SeedReport, s *ui.Scopes) {
	s.Overview.EventUsers = r.EventUsers[:min(len(r.EventUsers), 3)]
	s.Overview.RunUsers = r.GraphUsers[:min(len(r.GraphUsers), 3)]
	if len(cfg.Alerts) == 0 {
		cfg.Alerts = []config.Alert{
			{Metric: data.MetricSandboxesAvailable, Op: "<", Value: 5},
			{Metric: data.MetricEventsFailed, Op: ">", Value: 0},
		}
	}
}
