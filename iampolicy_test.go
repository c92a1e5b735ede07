package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The subcommand uses the env's tables (config overrides, {env} filled) and
// the env's region from the config, and prints only the JSON on stdout.
func TestIAMPolicyCommandUsesTheEnvsConfiguredTablesAndRegion(t *testing.T) {
	t.Setenv("AWS_REGION", "us-east-1")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("env: dev\nenvs:\n  prod:\n    region: eu-west-1\ntables:\n  sessions: wc-sessions-blue\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runIAMPolicy([]string{"operator", "--config", cfg, "--env", "prod", "--account", "123456789012", "--scan"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc struct {
		Statement []struct {
			Sid      string
			Action   []string
			Resource []string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out.String())
	}
	all := out.String()
	for _, want := range []string{
		`"arn:aws:dynamodb:eu-west-1:123456789012:table/wc-sessions-blue"`,
		`"arn:aws:dynamodb:eu-west-1:123456789012:table/zapier-triggers-api-prod-events"`,
		`"dynamodb:Scan"`, `"ecs:StopTask"`, `"dynamodb:UpdateItem"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("policy lacks %s:\n%s", want, all)
		}
	}
	if strings.Contains(all, "table/wallcrawler-sessions") || strings.Contains(all, "us-east-1") {
		t.Errorf("the override or the env's region was not used:\n%s", all)
	}
}

func TestIAMPolicyCommandRefusesBadUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"admin"}, {"read-only", "--account", "x"}, {"read-only", "extra"}, {"read-only", "--nope"}} {
		var out, errb bytes.Buffer
		if code := runIAMPolicy(append(args, "--config", "/dev/null"), &out, &errb); code != 2 || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// TestIAMPolicyCommandBrowse: --browse reaches every table of the account
// (:table NAME on a table no pane models); without it no table/* appears.
func TestIAMPolicyCommandBrowse(t *testing.T) {
	for _, browse := range []bool{false, true} {
		args := []string{"read-only", "--config", "/dev/null", "--region", "eu-west-1", "--account", "123456789012"}
		if browse {
			args = append(args, "--browse")
		}
		var out, errb bytes.Buffer
		if code := runIAMPolicy(args, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		every := strings.Contains(out.String(), `"arn:aws:dynamodb:eu-west-1:123456789012:table/*"`)
		if every != browse || strings.Contains(out.String(), "BrowseAnyTable") != browse {
			t.Errorf("--browse=%v: table/* granted %v:\n%s", browse, every, out.String())
		}
		if !strings.Contains(out.String(), `"dynamodb:ListTables"`) {
			t.Errorf("no ListTables:\n%s", out.String())
		}
	}
}
