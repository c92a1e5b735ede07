package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"opsdeck/config"
	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui"
	"opsdeck/ui/history"
	"opsdeck/ui/session"
)

// places opens the console's sessions from the config file and the flags:
// the start env's at start, any other (`:env`, `:profile`, `:region`) while
// it runs. It is the console's session.Connector.
//
// Which settings a session gets: for the env the console started in, the
// flags win over the env's own settings under `envs:`, which win over the
// file's top-level ones (the flags were given for it). For any other env its
// own settings win over the flags, which win over the top-level ones: a
// switch to prod uses prod's profile even if --profile named a dev one, and
// an env without an endpoint of its own stays on --endpoint-url (a switch
// never silently leaves DynamoDB Local for AWS). With --demo the demo's
// server is that endpoint. `:profile` and `:region` then override one part
// for the env in use. --read-only holds for every session.
type places struct {
	cfg      *config.Config
	f        flags
	startEnv string
	// demoEndpoint is the demo's server ("" without --demo), demoECS the
	// demo's answerer of StopTask (ECS has no emulator).
	demoEndpoint, demoECS string
	// life is main's context: a signal ends every session.
	life context.Context
	logw io.Writer
	// onCall times the start session's calls (the start-up log).
	onCall func(data.Call)
	// rolling, with --demo-rolling, carries the start env's sessions
	// through the front that rolls shards over.
	rolling rollingDemo
	// helpers hears every session's credential_process (helper_notes.go);
	// nil hears none.
	helpers *helperNotes
	// mfa asks the operator for a role's one-time code in the console
	// (ui/mfa.go); nil: such a role fails saying no one could be asked.
	mfa *ui.MFAPrompts

	mu   sync.Mutex
	open []*session.Session
}

var _ session.Connector = (*places)(nil)

// Open resolves t and connects (session.Connector).
func (p *places) Open(ctx context.Context, t session.Target) (*session.Session, error) {
	spec, err := p.spec(t)
	if err != nil {
		return nil, err
	}
	s, err := session.Open(ctx, p.life, spec)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Sessions a switch has closed, and whose reader has returned, are
	// forgotten: a long day of switching keeps no old clients alive.
	p.open = slices.DeleteFunc(p.open, func(o *session.Session) bool {
		select {
		case <-o.Done():
			return true
		default:
			return false
		}
	})
	p.open = append(p.open, s)
	return s, nil
}

// spec is the session t names, or why there is none.
func (p *places) spec(t session.Target) (session.Spec, error) {
	env, ok := p.knownEnv(t.Env)
	if !ok {
		return session.Spec{}, &session.UnknownError{What: "env", Name: t.Env, Known: p.Envs()}
	}
	if t.Region != "" && !config.ValidRegion(t.Region) {
		return session.Spec{}, fmt.Errorf("region %q does not look like an AWS region (e.g. eu-west-1)", data.Escape(t.Region))
	}
	own, _ := p.cfg.EnvSettings(env)
	start := strings.EqualFold(env, p.startEnv)
	pick := func(flag, envOwn, top string) string {
		if start {
			return firstNonEmpty(flag, envOwn, top)
		}
		return firstNonEmpty(envOwn, flag, top)
	}
	o := data.ConnOptions{
		Profile:  firstNonEmpty(t.Profile, pick(p.f.profile, own.Profile, p.cfg.Profile)),
		Region:   firstNonEmpty(t.Region, pick(p.f.region, own.Region, p.cfg.Region)),
		Endpoint: pick(p.f.endpoint, own.EndpointURL, p.cfg.EndpointURL),
		DebugLog: p.logw,
	}
	if p.helpers != nil {
		o.OnCredentialProcess = p.helpers.heard
	}
	if p.mfa != nil {
		o.MFA = p.mfa
	}
	if p.demoEndpoint != "" && own.EndpointURL == "" {
		o.Endpoint, o.StreamsEndpoint = p.demoEndpoint, p.demoEndpoint
		o.ECSEndpoint = p.demoECS
		o.Region = firstNonEmpty(o.Region, "us-east-1")
	}
	var wrap func(stream.Sink) stream.Sink
	if start {
		o.OnCall = p.onCall
		if p.rolling != nil {
			o.HTTPClient, wrap = p.rolling.client(), p.rolling.tap
		}
	}
	tables, err := data.ResolveTables(env, p.cfg.Tables)
	if err != nil {
		return session.Spec{}, fmt.Errorf("%s: %w", p.cfg.Where(firstTableLine(p.cfg)), err)
	}
	cfgReadOnly, protected := p.cfg.ForEnv(env)
	o.ReadOnly = p.f.readOnly || cfgReadOnly
	return session.Spec{
		Env:       env,
		Conn:      o,
		Tables:    tables,
		Protected: protected,
		Color:     own.Color,
		Stream:    streamOptions(p.cfg.Stream, logger(p.logw, "stream "+env)),
		WrapSink:  wrap,
	}, nil
}

// knownEnv finds name among the envs the config knows (and the start
// env), in its configured spelling: the name goes into table names.
func (p *places) knownEnv(name string) (string, bool) {
	for _, e := range p.Envs() {
		if strings.EqualFold(e, name) {
			return e, true
		}
	}
	return "", false
}

// Envs are the start env and those the config file names.
func (p *places) Envs() []string {
	out := []string{p.startEnv}
	for _, e := range p.cfg.EnvNames() {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, e) }) {
			out = append(out, e)
		}
	}
	return out
}

// Profiles are those of the AWS shared files and those the config names.
func (p *places) Profiles() []string {
	out := data.Profiles()
	for _, pr := range append([]string{p.f.profile, p.cfg.Profile}, p.envSettings(func(e config.EnvConfig) string { return e.Profile })...) {
		if pr != "" && !slices.Contains(out, pr) {
			out = append(out, pr)
		}
	}
	return out
}

// Regions are those the config and flags name, then the usual ones.
func (p *places) Regions() []string {
	var out []string
	for _, r := range append(append([]string{p.f.region, p.cfg.Region}, p.envSettings(func(e config.EnvConfig) string { return e.Region })...), commonRegions...) {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func (p *places) envSettings(get func(config.EnvConfig) string) []string {
	var out []string
	for _, name := range p.cfg.EnvNames() {
		if e, ok := p.cfg.EnvSettings(name); ok {
			out = append(out, get(e))
		}
	}
	return out
}

// commonRegions are offered by :region's completion (any region of the
// right shape is accepted).
var commonRegions = []string{
	"us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1",
	"eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-central-2", "eu-north-1", "eu-south-1",
	"ap-south-1", "ap-southeast-1", "ap-southeast-2", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
	"sa-east-1", "me-central-1", "af-south-1",
}

// closeAll stops every session opened (the console's last one, and any a
// switch left behind) and waits up to d in all for their readers.
func (p *places) closeAll(d time.Duration) {
	p.mu.Lock()
	open := slices.Clone(p.open)
	p.mu.Unlock()
	for _, s := range open {
		s.Close()
	}
	deadline := time.Now().Add(d)
	for _, s := range open {
		if s.Wait(max(time.Until(deadline), 0)) != nil {
			return
		}
	}
}

// demoEnvs are the envs the demo seeds besides the start env: those the
// config names that have no endpoint of their own (they live on the demo's
// server, under their own table names).
func (p *places) demoEnvs() []string {
	var out []string
	for _, e := range p.Envs() {
		if strings.EqualFold(e, p.startEnv) {
			continue
		}
		if own, _ := p.cfg.EnvSettings(e); own.EndpointURL == "" {
			out = append(out, e)
		}
	}
	return out
}

// openHistory opens the command history file: its lines, and what was
// wrong with it (the console says so and starts anyway).
func openHistory() (*history.File, []string, error) {
	path, err := history.DefaultPath()
	if err != nil {
		return nil, nil, err
	}
	return history.Open(path)
}
