package main

import (
	"strings"
	"testing"

	"opsdeck/config"
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
