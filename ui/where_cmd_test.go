package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo/ddblocal"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/session"
	"opsdeck/ui/uitest"
	"opsdeck/views"
)

// bare is a console with no database (pure command-line tests).
func bare(t *testing.T, o Options) Model {
	t.Helper()
	o.Timer = uitest.Timer
	if o.Keys.Quit.Keys() == nil {
		o.Keys = keymap.Default()
	}
	m := New(o)
	m.setSize(120, 40)
	return m
}

func TestWhereCommandsWithoutAConnector(t *testing.T) {
	m := bare(t, Options{Env: "dev"})
	for _, line := range []string{"env prod", "profile ops", "region eu-west-1"} {
		m, _ = runLine(t, m, line)
		if !strings.Contains(m.Flash(), "needs a console started by opsdeck") || m.where.env != "dev" {
			t.Errorf("%s: flash %q env %s", line, m.Flash(), m.where.env)
		}
	}
}

func TestEnvWithoutANameSaysWhere(t *testing.T) {
	places := &testPlaces{life: context.Background(), places: map[string]testPlace{"dev": {}, "prod": {}, "qa": {}}}
	m := bare(t, Options{Env: "dev", Connector: places})
	m, _ = runLine(t, m, "env")
	if f := m.Flash(); !strings.Contains(f, "env dev") || !strings.Contains(f, "(envs: dev, prod, qa)") {
		t.Fatalf("flash %q", f)
	}
	if len(places.asked) != 0 {
		t.Fatalf(":env without a name connected to %v", places.asked)
	}
}

// :profile and :region keep the env and change their part; an unknown
// profile (the AWS shared files do not name it) says so and changes
// nothing. The connection is real: the clients are built by data.Connect.
func TestProfileAndRegionSwitch(t *testing.T) {
	w := newActWorld(t)
	dir := t.TempDir()
	cfg, creds := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	os.WriteFile(cfg, []byte("[profile ops]\nregion = us-east-1\n"), 0o600)
	os.WriteFile(creds, []byte("[ops]\naws_access_key_id = AKIDLOCAL\naws_secret_access_key = local\n"), 0o600)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	t.Setenv("AWS_PROFILE", "")

	w.session("sess-where-1", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	ctx := context.Background()
	places := &testPlaces{life: ctx, places: map[string]testPlace{
		"dev": {endpoint: ddblocal.TestEndpoint(t), tables: w.tables, noTail: true},
	}}
	defer places.closeAll()
	first, err := places.Open(ctx, session.Target{Env: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	o := w.options()
	o.Session, o.Connector = first, places
	m := start(t, o, 120, 40)
	if m.slotOf(views.PaneSessions).Status().Rows != 1 {
		t.Fatal("no row at start")
	}

	m, _ = runLine(t, m, "profile nosuch")
	if f := m.Flash(); !strings.Contains(f, `unknown AWS profile "nosuch"`) || !strings.Contains(f, "nothing changed") {
		t.Fatalf("unknown profile: %q", f)
	}
	if m.Session() != first || m.where.profile != "" {
		t.Fatal("an unknown profile changed the session")
	}

	m, _ = runLine(t, m, "profile ops")
	if m.Session() == first || m.where.profile != "ops" || m.where.env != "dev" {
		t.Fatalf("after :profile ops: profile %q env %q", m.where.profile, m.where.env)
	}
	if st := m.slotOf(views.PaneSessions).Status(); st.Rows != 1 || st.Err != "" {
		t.Fatalf("the pane did not load again through the new session: %+v", st)
	}
	m, _ = runLine(t, m, "region eu-west-1")
	if m.where.region != "eu-west-1" || m.where.profile != "ops" {
		t.Fatalf("after :region: region %q profile %q", m.where.region, m.where.profile)
	}
	want := []session.Target{{Env: "dev"}, {Env: "dev", Profile: "nosuch", Region: "us-east-1"},
		{Env: "dev", Profile: "ops", Region: "us-east-1"}, {Env: "dev", Profile: "ops", Region: "eu-west-1"}}
	if !slices.Equal(places.asked, want) {
		t.Fatalf("targets asked %+v, want %+v", places.asked, want)
	}
	if !strings.Contains(stripANSI(m.Render()), "dev · ops · eu-west-1") {
		t.Errorf("tab bar does not say where:\n%s", stripANSI(m.Render()))
	}
}

// While a switch is connecting, actions and scans wait: the rows they
// would act on are about to be another env's.
func TestActionsWaitForAPendingSwitch(t *testing.T) {
	w := newActWorld(t)
	w.session("sess-pending", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	places := &testPlaces{life: context.Background(), places: map[string]testPlace{"dev": {}, "prod": {}}}
	o := w.options()
	o.Connector = places
	m := start(t, o, 120, 40)
	nm, _ := m.run("env prod") // the connection's Cmd is not run: still pending
	m = nm.(Model)
	if m.where.pending != "env prod" || !strings.Contains(m.Flash(), "connecting to env prod") {
		t.Fatalf("pending %q flash %q", m.where.pending, m.Flash())
	}
	m, _ = press(t, m, "x")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "actions wait until the switch is done") {
		t.Fatalf("an action during a switch: mode %s flash %q", m.Mode(), m.Flash())
	}
	m, _ = runLine(t, m, "scan sessions")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "a scan waits until the switch is done") {
		t.Fatalf("a scan during a switch: mode %s flash %q", m.Mode(), m.Flash())
	}
}

// The badge says PROD or PROTECTED, in text, exactly when the confirmation
// asks for the id typed; NO_COLOR keeps the text.
func TestBadgeFollowsTypedConfirmation(t *testing.T) {
	for _, tc := range []struct {
		env       string
		protected []string
		badge     string
	}{
		{"dev", nil, ""},
		{"prod", nil, "PROD"},
		{"staging", []string{"staging"}, "PROTECTED"},
		{"qa", []string{"staging"}, ""},
	} {
		for _, noColor := range []bool{false, true} {
			th := themes.Dark()
			if noColor {
				th = themes.Plain()
			}
			m := bare(t, Options{Env: tc.env, Protected: tc.protected, Theme: th, NoColor: noColor})
			if got := m.where.badge(); got != tc.badge {
				t.Errorf("%s %v: badge %q, want %q", tc.env, tc.protected, got, tc.badge)
			}
			scr := stripANSI(m.Render())
			lines := strings.Split(scr, "\n")
			status := lines[len(lines)-2]
			if tc.badge != "" && (!strings.Contains(lines[0], tc.badge) || !strings.Contains(status, tc.badge)) {
				t.Errorf("%s (no colour %v): badge missing:\n%s\n%s", tc.env, noColor, lines[0], status)
			}
			if tc.badge == "" && (strings.Contains(scr, "PROD") || strings.Contains(scr, "PROTECTED")) {
				t.Errorf("%s: a badge where no typed confirmation is asked:\n%s", tc.env, scr)
			}
		}
	}
}

// :env, :profile and :region complete from the connector's names.
func TestWhereCompletion(t *testing.T) {
	places := &testPlaces{life: context.Background(), places: map[string]testPlace{"dev": {}, "prod": {}, "production-eu": {}}}
	m := bare(t, Options{Env: "dev", Connector: places})
	got := complete("env pro", m.completionIDs, m.completionOptIDs)
	if strings.Join(got, "|") != "env prod|env production-eu" {
		t.Fatalf("env completion %q", got)
	}
	got = complete("region eu", m.completionIDs, m.completionOptIDs)
	if strings.Join(got, "|") != "region eu-west-1" {
		t.Fatalf("region completion %q", got)
	}
	got = complete("", m.completionIDs, m.completionOptIDs)
	for _, c := range []string{"env", "profile", "region"} {
		if !slices.Contains(got, c) {
			t.Errorf("command completion lacks %s: %q", c, got)
		}
	}
}

// Ids in the live tail's records are offered too: a run user whose run
// was only seen going by in the stream completes :runs.
func TestCompletionOffersIDsSeenInTheTail(t *testing.T) {
	conn, err := data.Connect(context.Background(), data.ConnOptions{Endpoint: "http://127.0.0.1:1", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	tables, _ := data.ResolveTables("dev", nil)
	s := session.New(context.Background(), conn, session.Spec{Tables: tables, NoTail: true})
	defer s.Close()
	m := bare(t, Options{Session: s})
	rec := stream.Record{Table: data.TableGraphRuns, EventName: "INSERT",
		Keys: data.Item{"PK": sv("USER#u-777"), "SK": sv("RUN#r-1")},
		New:  data.Item{"PK": sv("USER#u-777"), "SK": sv("RUN#r-1"), "runId": sv("r-1"), "status": sv("UPLOADED")}}
	nm, cmd := m.Update(livefeed.BatchMsg{Records: []stream.Record{rec}})
	m, _ = settle(t, nm.(Model), cmd)
	if got := complete("runs u-7", m.completionIDs, m.completionOptIDs); len(got) != 1 || got[0] != "runs u-777" {
		t.Fatalf(":runs completion %q", got)
	}
	if got := complete("run r-", m.completionIDs, m.completionOptIDs); len(got) != 1 || got[0] != "run r-1" {
		t.Fatalf(":run completion %q", got)
	}
}
