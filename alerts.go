package main

import (
	"fmt"
	"slices"
	"strings"

	"opsdeck/config"
	"opsdeck/data"
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
