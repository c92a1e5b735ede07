package main

import (
	"strings"
	"testing"

	"opsdeck/config"
	"opsdeck/data"
	"opsdeck/ui"
	"opsdeck/views"
)

func TestAlertOnAnUnknownMetricNamesItsLine(t *testing.T) {
	cfg, err := config.Parse("cfg.yaml", []byte("env: dev\nalerts:\n  - sandboxes.available < 5\n  - sandbox.available < 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = checkAlerts(cfg)
	if err == nil || !strings.HasPrefix(err.Error(), "cfg.yaml:4: alerts: unknown metric \"sandbox.available\"") {
		t.Fatalf("got %v", err)
	}
	cfg.Alerts = cfg.Alerts[:1]
	if err := checkAlerts(cfg); err != nil {
		t.Fatalf("a known metric refused: %v", err)
	}
}

// The deletion-failing threshold and an alert on it travel from the
// config file to the overview's plan (the count itself is checked against
// DynamoDB Local in data: TestSandboxesDeletionFailingCountsAndAlerts).
func TestDeletionFailingFromConfigToPlan(t *testing.T) {
	cfg, err := config.Parse("cfg.yaml", []byte("overview:\n  deletion_failing_at: 5\nalerts:\n  - sandboxes.deletion_failing > 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkAlerts(cfg); err != nil {
		t.Fatalf("sandboxes.deletion_failing refused: %v", err)
	}
	o := withOverview(ui.Scopes{}, cfg).Overview
	if got := views.NewOverview(nil, o).Plan().DeletionFailingAt; got != 5 {
		t.Errorf("the overview counts failing deletions from %d attempts, want the configured 5", got)
	}
	if len(o.Alerts) != 1 || o.Alerts[0].Metric != data.MetricSandboxesDeletionFailing {
		t.Errorf("alerts %v", o.Alerts)
	}
	if d := config.Default().Overview.DeletionFailingAt; d != data.DefaultDeletionFailingAt {
		t.Errorf("config default %d, data default %d", d, data.DefaultDeletionFailingAt)
	}
	if _, err := config.Parse("cfg.yaml", []byte("overview:\n  deletion_failing_at: 0\n")); err == nil || !strings.Contains(err.Error(), "cfg.yaml:2") {
		t.Errorf("deletion_failing_at 0: %v", err)
	}
}
