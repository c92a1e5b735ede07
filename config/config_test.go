package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const full = `# a complete file
env: staging
profile: ops
region: eu-west-1
endpoint_url: http://127.0.0.1:8000
theme: high-contrast
read_only: false
protected: [staging, qa]
envs:
  prod: { read_only: true, protected: true }
  dev:
    read_only: false
    protected: false
tables:
  sessions: my-sessions-table
  events: zapier-triggers-api-qa-events
keys:
  release: ["x"]
  quit: ["q", "ctrl+c"]
  tab1: 1
actions: { retry_max: 5, stale_run_minutes: 45 }
stream:
  poll_interval: 500ms
  idle_poll_max: 3s
  table_idle_rate: 0.5
  slow_interval: 1m
  background: off
  max_calls_per_second: 20
  throttle_backoff: 5s
  throttle_backoff_max: 2m
  etiquette: shared
  buffer: 2000
  fallback_interval: 10s
`

func TestParseFull(t *testing.T) {
	c, err := Parse("config.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.Env != "staging" || c.Profile != "ops" || c.Region != "eu-west-1" || c.EndpointURL != "http://127.0.0.1:8000" || c.Theme != "high-contrast" || c.ReadOnly {
		t.Errorf("scalars: %+v", c)
	}
	if strings.Join(c.Protected, ",") != "staging,qa" {
		t.Errorf("protected = %v", c.Protected)
	}
	if c.Tables["sessions"] != "my-sessions-table" || c.TableLines["sessions"] != 15 || c.TableLines["events"] != 16 {
		t.Errorf("tables = %v lines %v", c.Tables, c.TableLines)
	}
	if q := c.Keys["quit"]; strings.Join(q.Keys, " ") != "q ctrl+c" || q.Line != 19 {
		t.Errorf("keys.quit = %+v", q)
	}
	if k := c.Keys["tab1"]; len(k.Keys) != 1 || k.Keys[0] != "1" {
		t.Errorf("keys.tab1 = %+v", k)
	}
	if c.Actions != (Actions{RetryMax: 5, StaleRunMinutes: 45}) {
		t.Errorf("actions = %+v", c.Actions)
	}
	want := Stream{PollInterval: 500 * time.Millisecond, IdlePollMax: 3 * time.Second, TableIdleRate: 0.5,
		SlowInterval: time.Minute, Background: "off", MaxCallsPerSec: 20, ThrottleBackoff: 5 * time.Second,
		ThrottleMax: 2 * time.Minute, Etiquette: "shared", Buffer: 2000, FallbackInterval: 10 * time.Second}
	if c.Stream != want {
		t.Errorf("stream = %+v\nwant     %+v", c.Stream, want)
	}
	if c.Lines["stream.etiquette"] != 31 {
		t.Errorf("Lines[stream.etiquette] = %d, want 31", c.Lines["stream.etiquette"])
	}
	if c.Lines["theme"] != 6 {
		t.Errorf("Lines[theme] = %d", c.Lines["theme"])
	}
	if got := c.Where(c.TableLines["events"]); got != "config.yaml:16" {
		t.Errorf("Where = %q", got)
	}
}

func TestParseEmptyGivesDefaults(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n"} {
		c, err := Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		d := Default()
		if c.Env != d.Env || c.Theme != d.Theme || c.Actions != d.Actions || c.Stream != d.Stream || c.ReadOnly {
			t.Errorf("%q: not the defaults: %+v", src, c)
		}
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	cases := []struct {
		name string
		src  string
		line int
		want string
	}{
		{"unknown top key", "env: dev\nthemee: dark\n", 2, `unknown key "themee"`},
		{"bad theme", "theme: solarized\n", 1, "want one of dark, light, high-contrast, auto"},
		{"bool as yes", "read_only: yes\n", 1, "true or false"},
		{"bool as string", "read_only: \"true\"\n", 1, "true or false"},
		{"empty scalar", "env:\n", 1, "no value"},
		{"env with space", "env: my env\n", 1, "letters, digits"},
		{"env as mapping", "env: {a: b}\n", 1, "single value"},
		{"bad region", "region: Europe\n", 1, "AWS region"},
		{"bad endpoint", "endpoint_url: localhost:8000\n", 1, "http:// or https://"},
		{"duration without unit", "stream:\n  poll_interval: 250\n", 2, "with a unit"},
		{"bad duration", "stream:\n  poll_interval: soon\n", 2, "not a duration"},
		{"negative duration", "stream:\n  fallback_interval: -5s\n", 2, "fallback_interval -5s is out of range: use 1s to 10m0s"},
		{"zero buffer", "stream:\n  buffer: 0\n", 2, "stream.buffer 0 is out of range: use 100 to 100000 records"},
		{"buffer float", "stream:\n  buffer: 1.5\n", 2, "must be a whole number of records, not 1.5"},
		{"huge int", "stream:\n  buffer: 99999999999999\n", 2, "out of range"},
		{"negative retry", "actions:\n  retry_max: -1\n", 2, "retry_max -1 is out of range: use 1 to 100"},
		{"zero stale", "actions: {stale_run_minutes: 0}\n", 1, "stale_run_minutes 0 is out of range: use 15 to 10080"},
		{"unknown actions key", "actions:\n  retries: 3\n", 2, `unknown key "retries"`},
		{"unknown stream key", "stream:\n  pol_interval: 1s\n", 2, `unknown key "pol_interval"`},
		{"bad background", "stream:\n  background: never\n", 2, `stream.background "never": want one of slow, off`},
		{"bad etiquette", "stream:\n  etiquette: polite\n", 2, `stream.etiquette "polite": want one of auto, shared, local`},
		{"idle rate as text", "stream:\n  table_idle_rate: fast\n", 2, "must be a number of reads a second"},
		{"idle cap below poll", "stream:\n  poll_interval: 2s\n  idle_poll_max: 1s\n", 3, "stream.idle_poll_max 1s is below stream.poll_interval 2s"},
		{"poll above default cap", "stream:\n  poll_interval: 2s\n", 2, "stream.idle_poll_max 1.5s is below stream.poll_interval 2s"},
		{"later line named", "stream:\n  idle_poll_max: 1s\n  poll_interval: 2s\n", 3, "is below stream.poll_interval"},
		{"slow below idle cap", "stream:\n  idle_poll_max: 20s\n", 2, "stream.slow_interval 10s is below stream.idle_poll_max 20s"},
		{"throttle cap below first", "stream:\n  throttle_backoff: 40s\n  throttle_backoff_max: 20s\n", 3, "throttle_backoff_max 20s is below stream.throttle_backoff 40s"},
		{"unknown envs key", "envs:\n  prod:\n    readonly: true\n", 3, `unknown key "readonly"`},
		{"envs value not map", "envs:\n  prod: true\n", 2, "must be a mapping"},
		{"tables not map", "tables: [a, b]\n", 1, "must be a mapping"},
		{"table name invalid", "tables:\n  sessions: \"bad name!\"\n", 2, "not a valid DynamoDB table name"},
		{"table name too short", "tables:\n  sessions: ab\n", 2, "not a valid DynamoDB table name"},
		{"table name empty", "tables:\n  sessions: \"\"\n", 2, "empty"},
		{"duplicate table", "tables:\n  sessions: aaa\n  sessions: bbb\n", 3, "set twice (first on line 2)"},
		{"duplicate top key", "env: a\nenv: b\n", 2, "set twice"},
		{"keys empty list", "keys:\n  quit: []\n", 2, "no keys"},
		{"keys null", "keys:\n  quit:\n", 2, "no keys"},
		{"keys bool", "keys:\n  quit: [true]\n", 2, "must be text"},
		{"keys nested", "keys:\n  quit: [[q]]\n", 2, "single value"},
		{"protected not list", "protected: prod\n", 1, "must be a list"},
		{"control chars", "profile: \"a\\x1b[31m\"\n", 1, "control characters"},
		{"syntax", "env: dev\n  theme: dark\n", 2, "YAML syntax"},
		{"top is list", "- a\n- b\n", 1, "must be a mapping"},
		{"two documents", "env: a\n---\nenv: b\n", 2, "more than one YAML document"},
		{"merge key", "base: &b {env: x}\n", 1, `unknown key "base"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("cfg.yaml", []byte(tc.src))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("want *config.Error, got %v", err)
			}
			if ce.Line != tc.line || !strings.Contains(ce.Msg, tc.want) {
				t.Fatalf("got line %d %q, want line %d containing %q", ce.Line, ce.Msg, tc.line, tc.want)
			}
			wantPrefix := "cfg.yaml:"
			if !strings.HasPrefix(err.Error(), wantPrefix) {
				t.Fatalf("error %q does not start with %q", err, wantPrefix)
			}
		})
	}
}

func TestParseNeverPanicsOnJunk(t *testing.T) {
	junk := []string{"\xff\xfe\x00", "{{{{", ": : :", "*undefined", "&a [*a]", "key: !!binary AAAA", "\t\t", strings.Repeat("[", 10000)}
	for _, src := range junk {
		if _, err := Parse("x.yaml", []byte(src)); err == nil {
			t.Errorf("%q parsed without error", src)
		}
	}
}

func TestAliasesResolve(t *testing.T) {
	src := "envs:\n  prod: &strict { read_only: true }\n  staging: *strict\n"
	c, err := Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ro, _ := c.ForEnv("staging"); !ro {
		t.Fatal("alias not followed: staging should be read-only")
	}
}

func TestForEnv(t *testing.T) {
	c, err := Parse("c.yaml", []byte(`
read_only: true
protected: [staging]
envs:
  dev: { read_only: false }
  qa: { protected: true }
  prod: { protected: false }
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		env                 string
		readOnly, protected bool
	}{
		{"dev", false, false},      // per-env read_only beats the global one
		{"staging", true, true},    // global read_only, listed as protected
		{"qa", true, true},         // protected per env
		{"prod", true, true},       // prod cannot be un-protected
		{"PROD", true, true},       // nor by spelling it differently
		{"production", true, true}, // the other common name
		{"other", true, false},
	}
	for _, tc := range cases {
		ro, p := c.ForEnv(tc.env)
		if ro != tc.readOnly || p != tc.protected {
			t.Errorf("ForEnv(%q) = %v,%v want %v,%v", tc.env, ro, p, tc.readOnly, tc.protected)
		}
	}
	if _, p := Default().ForEnv("prod"); !p {
		t.Error("prod not protected by default")
	}
}

func TestLoadMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	c, err := Load(missing, false)
	if err != nil || c.Env != "dev" {
		t.Fatalf("missing default file: %v %+v", err, c)
	}
	if _, err := Load(missing, true); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing explicit file: want an error naming it, got %v", err)
	}
}

func TestLoadReadsFileAndNamesIt(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(p, []byte("theme: light\nbogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p, true)
	if err == nil || !strings.HasPrefix(err.Error(), p+":2: ") {
		t.Fatalf("want %s:2: …, got %v", p, err)
	}
	if err := os.WriteFile(p, []byte("theme: light\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p, true)
	if err != nil || c.Theme != "light" || c.Path != p {
		t.Fatalf("Load: %v %+v", err, c)
	}
	if _, err := Load(dir, true); err == nil {
		t.Fatal("a directory loaded as config")
	}
}

func TestLoadDefaultPathFromXDG(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if got, want := DefaultPath(), filepath.Join(dir, "opsdeck", "config.yaml"); got != want {
		t.Fatalf("DefaultPath = %q want %q", got, want)
	}
	if err := os.MkdirAll(filepath.Join(dir, "opsdeck"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(DefaultPath(), []byte("env: qa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load("", false)
	if err != nil || c.Env != "qa" {
		t.Fatalf("Load(\"\") did not read the XDG file: %v %+v", err, c)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/dir")
	t.Setenv("HOME", dir)
	if got, want := DefaultPath(), filepath.Join(dir, ".config", "opsdeck", "config.yaml"); got != want {
		t.Fatalf("relative XDG_CONFIG_HOME not ignored: %q", got)
	}
}

// Every number in the file has a range, and a value outside it is refused
// at the line that holds it, before anything is allocated from it.
func TestNumbersHaveSaneRanges(t *testing.T) {
	refused := []struct {
		src, want string
	}{
		{"stream:\n  buffer: 100000000\n", "stream.buffer 100000000 is out of range: use 100 to 100000 records"},
		{"stream:\n  buffer: 1e8\n", "stream.buffer 100000000 is out of range"},
		{"stream:\n  buffer: 99999999999999999999999\n", "stream.buffer 99999999999999999999999 is out of range"},
		{"stream:\n  buffer: 0x10000\n", "write it as a decimal number"},
		{"stream:\n  buffer: .inf\n", "whole number"},
		{"stream:\n  poll_interval: 1ms\n", "stream.poll_interval 1ms is out of range: use 250ms to 1m0s"},
		{"stream:\n  poll_interval: 2h\n", "out of range"},
		{"stream:\n  fallback_interval: 100ms\n", "stream.fallback_interval 100ms is out of range: use 1s to 10m0s"},
		{"stream:\n  fallback_interval: 24h\n", "out of range"},
		{"stream:\n  idle_poll_max: 100ms\n", "stream.idle_poll_max 100ms is out of range: use 250ms to 5m0s"},
		{"stream:\n  slow_interval: 1h\n", "stream.slow_interval 1h is out of range: use 1s to 30m0s"},
		{"stream:\n  throttle_backoff: 0s\n", "stream.throttle_backoff 0s is out of range: use 500ms to 1m0s"},
		{"stream:\n  throttle_backoff_max: 1h\n", "stream.throttle_backoff_max 1h is out of range: use 1s to 15m0s"},
		{"stream:\n  table_idle_rate: 0\n", "stream.table_idle_rate 0 is out of range: use 0.1 to 20 reads a second"},
		{"stream:\n  table_idle_rate: -1\n", "out of range"},
		{"stream:\n  table_idle_rate: .nan\n", "write it as a decimal number"},
		{"stream:\n  table_idle_rate: .inf\n", "write it as a decimal number"},
		{"stream:\n  max_calls_per_second: 5000\n", "stream.max_calls_per_second 5000 is out of range: use 1 to 1000 reads a second"},
		{"stream:\n  max_calls_per_second: 0x20\n", "write it as a decimal number"},
		{"actions:\n  retry_max: 0\n", "actions.retry_max 0 is out of range: use 1 to 100 retries"},
		{"actions:\n  retry_max: 1000000\n", "out of range"},
		{"actions:\n  stale_run_minutes: 5\n", "actions.stale_run_minutes 5 is out of range: use 15 to 10080 minutes"},
		{"actions:\n  stale_run_minutes: 9999999999999\n", "out of range"},
	}
	for _, tc := range refused {
		_, err := Parse("cfg.yaml", []byte(tc.src))
		var ce *Error
		if !errors.As(err, &ce) || ce.Line != 2 || !strings.Contains(ce.Msg, tc.want) {
			t.Errorf("%q: got %v, want cfg.yaml:2: …%s…", tc.src, err, tc.want)
		}
	}

	// A whole number is a whole number however it is written.
	accepted := []struct {
		src  string
		want int
	}{
		{"stream:\n  buffer: 1e4\n", 10000},
		{"stream:\n  buffer: 20000.0\n", 20000},
		{"stream:\n  buffer: 50_000\n", 50000},
		{"stream:\n  buffer: 010000\n", 10000}, // decimal, not octal
		{"stream:\n  buffer: 100\n", 100},
		{"stream:\n  buffer: 100000\n", 100000},
	}
	for _, tc := range accepted {
		c, err := Parse("cfg.yaml", []byte(tc.src))
		if err != nil || c.Stream.Buffer != tc.want {
			t.Errorf("%q: buffer %v, err %v; want %d", tc.src, c, err, tc.want)
		}
	}

	// The defaults are inside their own ranges.
	d := Default()
	in := func(v int64, r [2]int64) bool { return v >= r[0] && v <= r[1] }
	if !in(int64(d.Stream.Buffer), Limits.StreamBuffer) || !in(int64(d.Actions.RetryMax), Limits.RetryMax) ||
		!in(int64(d.Actions.StaleRunMinutes), Limits.StaleRunMinutes) ||
		d.Stream.PollInterval < Limits.PollInterval[0] || d.Stream.PollInterval > Limits.PollInterval[1] ||
		d.Stream.FallbackInterval < Limits.FallbackInterval[0] || d.Stream.FallbackInterval > Limits.FallbackInterval[1] {
		t.Errorf("a default is outside its range: %+v %+v", d.Stream, d.Actions)
	}
}

// Table and env names: DynamoDB's characters, within their lengths.
func TestNameChars(t *testing.T) {
	for _, tc := range []struct {
		s      string
		lo, hi int
		want   bool
	}{
		{"abc", 3, 255, true},
		{"ab", 3, 255, false},
		{strings.Repeat("a", 255), 3, 255, true},
		{strings.Repeat("a", 256), 3, 255, false},
		{"A-z_0.9", 1, 64, true},
		{"", 1, 64, false},
		{"my env", 1, 64, false},
		{"é", 1, 64, false},
		{"a/b", 1, 64, false},
	} {
		if got := nameChars(tc.s, tc.lo, tc.hi); got != tc.want {
			t.Errorf("nameChars(%q, %d, %d) = %v", tc.s, tc.lo, tc.hi, got)
		}
	}
}
