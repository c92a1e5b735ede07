package ui

import (
	"strings"
	"testing"
)

// At 80 columns the title keeps the pane and its scope whole: the filter's
// text shortens first, and what is cut ends in "…".
func TestNarrowTitleKeepsTheScope(t *testing.T) {
	m := offline(t, 80, 24)
	p := m.panes[m.active]
	title := paneTitle(p)
	if err := p.filter.SetFilter("abcdefghijklmnopqrstuvwxyz0123456789"); err != nil {
		t.Fatal(err)
	}
	row := terminalRows(t, m)[1]
	if !strings.HasPrefix(row, title+" ") {
		t.Errorf("the scope gave way to the filter:\n%q\nwant it to start %q", row, title)
	}
	if !strings.Contains(row, `filter "abcdefg…"`) {
		t.Errorf("the filter is not shortened with …: %q", row)
	}
}

// At 80 columns the status bar leaves out whole parts (the endpoint
// first), never one cut mid-word; the env stays.
func TestNarrowStatusBarDropsWholeParts(t *testing.T) {
	m := offline(t, 80, 24)
	m.where.profile = "oncall-production-readonly-administrator"
	m.where.endpoint = "https://dynamodb.eu-central-1.amazonaws.com"
	row := terminalRows(t, m)[22]
	if !strings.HasPrefix(row, "env dev") || !strings.Contains(row, "profile oncall-production-readonly-administrator") {
		t.Errorf("status bar lost the env or the profile: %q", row)
	}
	if strings.Contains(row, "at ") && !strings.Contains(row, m.where.endpoint) {
		t.Errorf("the endpoint is cut mid-word: %q", row)
	}
	m.width = 40
	m.setSize(40, 24)
	row = terminalRows(t, m)[22]
	if !strings.HasPrefix(row, "env dev") || strings.Contains(row, "oncall-") && !strings.Contains(row, "administrator") {
		t.Errorf("at 40 columns: %q", row)
	}
}
