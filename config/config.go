// Package config reads opsdeck's YAML config file. Decoding is strict: an
// unknown key or a bad value is an error naming the file and line, because a
// silently ignored typo in an operations tool (a misspelt `read_only`) is
// worse than refusing to start.
package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Config is the whole file, with defaults filled in.
type Config struct {
	// Path is the file this came from; empty when no file was read.
	Path string

	Env         string // fills {env} in table names; default "dev"
	Profile     string
	Region      string
	EndpointURL string
	Theme       string // dark, light, high-contrast or auto (default)
	ReadOnly    bool
	// Protected lists envs whose writes need a typed confirmation. prod
	// (and production) are always protected, listed or not.
	Protected []string
	Envs      map[string]EnvConfig

	// Tables maps a logical table id to a physical name. The ids are not
	// checked here (config imports nothing of ours); main checks them with
	// data.ResolveTables and reports TableLines[id].
	Tables     map[string]string
	TableLines map[string]int

	// Keys maps an action name to its keys; keymap checks the action names
	// and reports Keys[action].Line.
	Keys map[string]KeySpec

	Actions  Actions
	Stream   Stream
	Watch    Watch
	Overview Overview
	Alerts   []Alert

	// Lines records where each set top-level key was, e.g. Lines["theme"],
	// so later validation (a theme, an env) can point at the line too.
	Lines map[string]int
}

// EnvConfig overrides the global settings for one env. Nil or "" means
// "not set here". The connection settings (Profile, Region, EndpointURL)
// are what `:env <name>` connects with; Color marks the env in the tab bar
// and status bar.
type EnvConfig struct {
	ReadOnly    *bool
	Protected   *bool
	Profile     string
	Region      string
	EndpointURL string
	// Color is a colour as lipgloss reads it: "#rgb", "#rrggbb" or an ANSI
	// colour number 0-255. It never carries meaning alone: the env's name,
	// and the PROD/PROTECTED badge, are text.
	Color string
	Line  int
}

// KeySpec is one rebinding from `keys:`.
type KeySpec struct {
	Keys []string
	Line int
}

// Actions tunes guarded transitions.
type Actions struct {
	// RetryMax: a failed event whose retry_count reaches this is exhausted
	// (the retry job has given up): Inbox · Requeue is offered from here on,
	// and the Overview counts it as events.exhausted.
	RetryMax int
	// StaleRunMinutes: a graph run in UPLOADED or PROCESSING not updated
	// for longer than this is stale (Runs · Mark failed, runs.stale_*).
	StaleRunMinutes int
}

// Stream tunes the live tail: its read budget (see README "The live tail
// on production streams" for why the defaults are what they are).
type Stream struct {
	PollInterval     time.Duration // pause between reads of a shard that delivers
	IdlePollMax      time.Duration // an idle shard's pause doubles up to this
	TableIdleRate    float64       // reads a second all idle shards of one table make together
	SlowInterval     time.Duration // pause of every shard of a table nothing on screen shows
	Background       string        // how such a table is read: "slow" or "off"
	MaxCallsPerSec   float64       // stream reads a second of the whole console
	ThrottleBackoff  time.Duration // first pause of a shard refused for reading too often
	ThrottleMax      time.Duration // and its cap
	Etiquette        string        // "auto", "shared" (production consumers) or "local"
	Buffer           int           // records kept in memory
	FallbackInterval time.Duration // polling period when a table has no stream
}

// Backgrounds and Etiquettes are the accepted values of stream.background
// and stream.etiquette.
var (
	Backgrounds = []string{"slow", "off"}
	Etiquettes  = []string{"auto", "shared", "local"}
)

// Limits are the accepted ranges, [min, max], of the numbers in the file.
var Limits = struct {
	RetryMax, StaleRunMinutes, StreamBuffer [2]int64
	PollInterval, FallbackInterval          [2]time.Duration
	IdlePollMax, SlowInterval               [2]time.Duration
	ThrottleBackoff, ThrottleMax            [2]time.Duration
	TableIdleRate, MaxCallsPerSec           [2]float64
}{
	RetryMax:         [2]int64{1, 100},
	StaleRunMinutes:  [2]int64{15, 7 * 24 * 60},
	StreamBuffer:     [2]int64{100, 100_000},
	PollInterval:     [2]time.Duration{250 * time.Millisecond, time.Minute},
	FallbackInterval: [2]time.Duration{time.Second, 10 * time.Minute},
	IdlePollMax:      [2]time.Duration{250 * time.Millisecond, 5 * time.Minute},
	SlowInterval:     [2]time.Duration{time.Second, 30 * time.Minute},
	ThrottleBackoff:  [2]time.Duration{500 * time.Millisecond, time.Minute},
	ThrottleMax:      [2]time.Duration{time.Second, 15 * time.Minute},
	TableIdleRate:    [2]float64{0.1, 20},
	MaxCallsPerSec:   [2]float64{1, 1000},
}

// Themes are the accepted values of `theme:`.
var Themes = []string{"dark", "light", "high-contrast", "auto"}

// Default returns the configuration used when there is no file.
func Default() *Config {
	return &Config{
		Env:        "dev",
		Theme:      "auto",
		Envs:       map[string]EnvConfig{},
		Tables:     map[string]string{},
		TableLines: map[string]int{},
		Keys:       map[string]KeySpec{},
		Lines:      map[string]int{},
		Actions:    Actions{RetryMax: 3, StaleRunMinutes: 30},
		Overview:   Overview{ExpiringMinutes: 15, RecountInterval: time.Minute, DeletionFailingAt: 3},
		Stream: Stream{
			PollInterval:     250 * time.Millisecond,
			IdlePollMax:      1500 * time.Millisecond,
			TableIdleRate:    2,
			SlowInterval:     10 * time.Second,
			Background:       "slow",
			MaxCallsPerSec:   50,
			ThrottleBackoff:  2 * time.Second,
			ThrottleMax:      30 * time.Second,
			Etiquette:        "auto",
			Buffer:           10000,
			FallbackInterval: 5 * time.Second,
		},
	}
}

// DefaultPath is $XDG_CONFIG_HOME/opsdeck/config.yaml, else
// ~/.config/opsdeck/config.yaml.
func DefaultPath() string {
	// The XDG spec says a relative XDG_CONFIG_HOME is to be ignored.
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "opsdeck", "config.yaml")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.Join(".config", "opsdeck", "config.yaml")
	}
	return filepath.Join(home, ".config", "opsdeck", "config.yaml")
}

// alwaysProtected envs need a typed confirmation whatever the file says.
var alwaysProtected = []string{"prod", "production"}

// ForEnv says whether env is read-only and whether it is protected. A
// per-env setting under `envs:` beats the global one, except that nothing
// un-protects prod.
func (c *Config) ForEnv(env string) (readOnly, protected bool) {
	readOnly = c.ReadOnly
	for _, p := range c.Protected {
		if strings.EqualFold(p, env) {
			protected = true
		}
	}
	if e, ok := c.envConfig(env); ok {
		if e.ReadOnly != nil {
			readOnly = *e.ReadOnly
		}
		if e.Protected != nil {
			protected = *e.Protected
		}
	}
	if slices.ContainsFunc(alwaysProtected, func(p string) bool { return strings.EqualFold(p, env) }) {
		protected = true
	}
	return readOnly, protected
}

// EnvSettings is the settings of one env under `envs:` (names compare
// without case), and whether it has any.
func (c *Config) EnvSettings(env string) (EnvConfig, bool) { return c.envConfig(env) }

// EnvNames are the envs this file knows: the default env, those under
// `envs:` and those listed as protected, each once, in that order.
func (c *Config) EnvNames() []string {
	var out []string
	add := func(name string) {
		if name != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, name) }) {
			out = append(out, name)
		}
	}
	add(c.Env)
	names := make([]string, 0, len(c.Envs))
	for name := range c.Envs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, n := range names {
		add(n)
	}
	for _, p := range c.Protected {
		add(p)
	}
	return out
}

func (c *Config) envConfig(env string) (EnvConfig, bool) {
	if e, ok := c.Envs[env]; ok {
		return e, true
	}
	for name, e := range c.Envs {
		if strings.EqualFold(name, env) {
			return e, true
		}
	}
	return EnvConfig{}, false
}

// Where formats a line of this file for an error message, e.g.
// "/home/me/.config/opsdeck/config.yaml:12".
func (c *Config) Where(line int) string {
	return where(c.Path, line)
}
