package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"opsdeck/config"
	"opsdeck/ui/session"
)

const whereConfig = `env: dev
profile: top
region: us-east-1
protected: [staging]
envs:
  dev: { color: 34 }
  staging:
    profile: stg
    region: eu-west-1
    color: "#d70000"
  prod:
    endpoint_url: https://dynamodb.eu-central-1.amazonaws.com
    read_only: true
`

func testPlacesFrom(t *testing.T, f flags) *places {
	t.Helper()
	cfg, err := config.Parse("c.yaml", []byte(whereConfig))
	if err != nil {
		t.Fatal(err)
	}
	return &places{cfg: cfg, f: f, startEnv: firstNonEmpty(f.env, cfg.Env), life: context.Background()}
}

func TestPlacesSettingsPrecedence(t *testing.T) {
	p := testPlacesFrom(t, flags{profile: "flagged", endpoint: "http://127.0.0.1:8000"})

	// The start env: flags first.
	s, err := p.spec(session.Target{Env: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Conn.Profile != "flagged" || s.Conn.Region != "us-east-1" || s.Conn.Endpoint != "http://127.0.0.1:8000" || s.Color != "34" || s.Protected {
		t.Fatalf("dev: %+v", s)
	}
	// Another env: its own settings first, then the flags (the endpoint
	// stays local), then the top level.
	s, err = p.spec(session.Target{Env: "STAGING"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Env != "staging" || s.Conn.Profile != "stg" || s.Conn.Region != "eu-west-1" || s.Conn.Endpoint != "http://127.0.0.1:8000" || !s.Protected || s.Color != "#d70000" {
		t.Fatalf("staging: %+v", s)
	}
	if s.Tables.Env != "staging" || !strings.Contains(s.Tables.Name("events"), "-staging-") {
		t.Fatalf("staging tables: %v", s.Tables.Name("events"))
	}
	// prod: its own endpoint, read-only and protected by config.
	s, err = p.spec(session.Target{Env: "prod"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Conn.Endpoint != "https://dynamodb.eu-central-1.amazonaws.com" || !s.Conn.ReadOnly || !s.Protected {
		t.Fatalf("prod: %+v", s)
	}
	// :profile and :region override one part for the env.
	s, _ = p.spec(session.Target{Env: "staging", Profile: "other", Region: "ap-south-1"})
	if s.Conn.Profile != "other" || s.Conn.Region != "ap-south-1" {
		t.Fatalf("overrides: %+v", s.Conn)
	}
}

func TestPlacesRefuseUnknownEnvAndBadRegion(t *testing.T) {
	p := testPlacesFrom(t, flags{})
	_, err := p.Open(context.Background(), session.Target{Env: "qa"})
	var ue *session.UnknownError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown env "qa" (known: dev, prod, staging)`) {
		t.Fatalf("unknown env: %v", err)
	}
	_, err = p.Open(context.Background(), session.Target{Env: "dev", Region: "Europe"})
	if err == nil || !strings.Contains(err.Error(), `region "Europe" does not look like an AWS region`) {
		t.Fatalf("bad region: %v", err)
	}
	if len(p.open) != 0 {
		t.Fatal("a refused target opened a session")
	}
}

func TestPlacesReadOnlyFlagHoldsEverywhere(t *testing.T) {
	p := testPlacesFrom(t, flags{readOnly: true})
	for _, env := range []string{"dev", "staging", "prod"} {
		s, err := p.spec(session.Target{Env: env})
		if err != nil || !s.Conn.ReadOnly {
			t.Fatalf("%s: read-only %v (%v)", env, s.Conn.ReadOnly, err)
		}
	}
}

func TestPlacesDemo(t *testing.T) {
	p := testPlacesFrom(t, flags{demo: true})
	p.demoEndpoint = "http://127.0.0.1:9999"
	s, _ := p.spec(session.Target{Env: "staging"})
	if s.Conn.Endpoint != p.demoEndpoint || s.Conn.StreamsEndpoint != p.demoEndpoint {
		t.Fatalf("a demo env without an endpoint of its own is not on the demo server: %+v", s.Conn)
	}
	s, _ = p.spec(session.Target{Env: "prod"})
	if s.Conn.Endpoint == p.demoEndpoint {
		t.Fatal("an env with its own endpoint was moved onto the demo server")
	}
	if got := strings.Join(p.demoEnvs(), ","); got != "staging" {
		t.Fatalf("demo seeds %s besides dev", got)
	}
}

func TestPlacesNames(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	p := testPlacesFrom(t, flags{env: "scratch"})
	if got := strings.Join(p.Envs(), ","); got != "scratch,dev,prod,staging" {
		t.Errorf("Envs = %s", got)
	}
	if got := strings.Join(p.Profiles(), ","); got != "top,stg" {
		t.Errorf("Profiles = %s", got)
	}
	if r := p.Regions(); r[0] != "us-east-1" || r[1] != "eu-west-1" || len(r) < 10 {
		t.Errorf("Regions = %v", r)
	}
}
