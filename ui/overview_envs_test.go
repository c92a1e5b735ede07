package ui

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/termcells"
	"opsdeck/ui/session"
)

// envsRig: three envs — alpha and beta on DynamoDB Local under their own
// table prefixes, with different numbers of running sessions, and gamma,
// whose endpoint refuses connections. The console runs in alpha.
type envsRig struct {
	places *testPlaces
	opts   Options
	alpha  data.Tables
}

func newEnvsRig(t *testing.T, denied bool) *envsRig {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ep := ddblocal.TestEndpoint(t)
	conn, err := data.ConnectLocal(ctx, ep)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := data.ResolveTables("dev", nil)
	mk := func(tag string, running int) data.Tables {
		tables := base.WithPrefix(uniquePrefix(tag))
		if err := demo.CreateTables(ctx, conn, tables, demo.CreateOptions{SkipTTL: true}); err != nil {
			t.Fatal(err)
		}
		w := &actWorld{t: t, ctx: ctx, conn: conn, tables: tables, tenant: "project_" + tag}
		for i := 0; i < running; i++ {
			w.session(fmt.Sprintf("sess-%s-%d", tag, i), "RUNNING", "READY", fixedNow.Add(-time.Duration(i+1)*time.Minute))
		}
		return tables
	}
	alpha, beta := mk("ea", 3), mk("eb", 7)
	places := &testPlaces{life: ctx, places: map[string]testPlace{
		"alpha": {endpoint: ep, tables: alpha, noTail: true},
		"beta":  {endpoint: ep, tables: beta, noTail: true},
		"gamma": {endpoint: "http://127.0.0.1:1", tables: base.WithPrefix(uniquePrefix("eg")), noTail: true},
	}}
	if denied {
		// delta: an endpoint whose every answer is the refusal a role
		// without dynamodb:Query gets.
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#AccessDeniedException","message":"User: arn:aws:sts::123456789012:assumed-role/ro/x is not authorized to perform: dynamodb:Query"}`)
		}))
		t.Cleanup(srv.Close)
		places.places["delta"] = testPlace{endpoint: srv.URL, tables: base.WithPrefix(uniquePrefix("ed")), noTail: true}
	}
	t.Cleanup(places.closeAll)
	first, err := places.Open(ctx, session.Target{Env: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Store: first.Store, Conn: displayConn(first.Conn), Tables: alpha, Env: "alpha",
		Session: first, Connector: places, Now: func() time.Time { return fixedNow }}
	return &envsRig{places: places, opts: o, alpha: alpha}
}

// runningIn reads, from the terminal's cells of one block (columns
// x0..x1), the number on the RUNNING line.
func runningIn(scr *termcells.Screen, h, x0, x1 int) string {
	for y := 0; y < h; y++ {
		l := strings.TrimSpace(scr.Span(y, x0, x1))
		if rest, ok := strings.CutPrefix(l, "RUNNING"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// `:overview envs` side by side: each env's block counts its own tables
// through its own connection (alpha 3 running sessions, beta 7), gamma's
// block says it cannot be reached, and b (back) closes the two connections the
// screen opened and returns to the Overview.
func TestOverviewEnvsSideBySide(t *testing.T) {
	r := newEnvsRig(t, false)
	const w, h = 132, 40
	m := start(t, r.opts, w, h)
	m = typeText(t, m, ":overview envs")
	m, _ = press(t, m, "enter")
	if m.Mode() != "dialog" {
		t.Fatalf("mode %s, flash %q", m.Mode(), m.Flash())
	}
	scr := termcells.Draw(m.Render(), w, h)
	text := scr.String()
	bw := (w - envGap*2) / 3
	cols := map[string]int{}
	for i, env := range []string{"alpha", "beta", "gamma"} {
		x0 := i * (bw + envGap)
		cols[env] = x0
		found := false
		for y := 0; y < h; y++ {
			if strings.TrimSpace(scr.Span(y, x0, x0+bw)) == "▌"+env {
				found = true
			}
		}
		if !found {
			t.Errorf("no block headed %s at column %d:\n%s", env, x0, text)
		}
	}
	if got := runningIn(scr, h, cols["alpha"], cols["alpha"]+bw); got != "3" {
		t.Errorf("alpha RUNNING %q, want 3:\n%s", got, text)
	}
	if got := runningIn(scr, h, cols["beta"], cols["beta"]+bw); got != "7" {
		t.Errorf("beta RUNNING %q, want 7:\n%s", got, text)
	}
	var gamma strings.Builder
	for y := 0; y < h; y++ {
		gamma.WriteString(strings.TrimSpace(scr.Span(y, cols["gamma"], w)) + " ")
	}
	if g := gamma.String(); !strings.Contains(g, "cannot reach http://127.0.0.1:1") || strings.Contains(g, "RUNNING") {
		t.Errorf("gamma's block: %q", g)
	}

	// Two connections were opened for the screen (beta, gamma); the
	// console's own (alpha) was reused, not opened again.
	r.places.mu.Lock()
	opened := append([]*session.Session(nil), r.places.opened[1:]...)
	r.places.mu.Unlock()
	if len(opened) != 2 {
		t.Fatalf("%d connections opened for the screen, want 2", len(opened))
	}
	m, _ = press(t, m, "b")
	if m.Mode() != "normal" {
		t.Fatalf("b left mode %s", m.Mode())
	}
	for _, s := range opened {
		select {
		case <-s.Done():
		case <-time.After(5 * time.Second):
			t.Errorf("%s's connection not closed on leaving", s.Env)
		}
	}
	back := termcells.Draw(m.Render(), w, h).String()
	if !strings.Contains(back, "Overview · counted") {
		t.Errorf("b did not return to a counted Overview:\n%s", back)
	}
	if r.places.opened[0].Conn == nil {
		t.Error("the console's own connection was touched")
	}
}

// Narrow: the blocks are stacked, each the whole width, in env order; an
// env whose policy refuses the counts (delta) says so in its block.
func TestOverviewEnvsStackedWhenNarrow(t *testing.T) {
	r := newEnvsRig(t, true)
	const w, h = 80, 70
	m := start(t, r.opts, w, h)
	m = typeText(t, m, ":overview envs")
	m, _ = press(t, m, "enter")
	scr := termcells.Draw(m.Render(), w, h)
	lines := scr.Lines()
	at := map[string]int{}
	for y, l := range lines {
		if s := strings.TrimSpace(l); strings.HasPrefix(s, "▌") {
			at[strings.TrimPrefix(s, "▌")] = y
		}
	}
	if !(at["alpha"] > 0 && at["alpha"] < at["beta"] && at["beta"] < at["delta"] && at["delta"] < at["gamma"]) {
		t.Fatalf("blocks not stacked in order (%v):\n%s", at, scr.String())
	}
	if got := runningIn(scr, at["beta"], 0, w); got != "3" {
		t.Errorf("alpha's stacked block RUNNING %q, want 3", got)
	}
	if got := runningIn(scr, at["delta"], 0, w); got != "3" {
		t.Errorf("the first RUNNING above delta %q, want alpha's 3", got)
	}
	below := strings.Join(lines[at["beta"]:at["delta"]], "\n")
	if !strings.Contains(below, "RUNNING") || !strings.Contains(below, " 7") {
		t.Errorf("beta's stacked block lacks its 7 running:\n%s", below)
	}
	if d := strings.Join(strings.Fields(strings.Join(lines[at["delta"]:at["gamma"]], " ")), " "); !strings.Contains(d, "not allowed: dynamodb:Query on table/") || strings.Contains(d, "RUNNING") {
		t.Errorf("delta's block: %q", d)
	}
	if tail := strings.Join(lines[at["gamma"]:], " "); !strings.Contains(strings.Join(strings.Fields(tail), " "), "cannot reach http://127.0.0.1:1") {
		t.Errorf("gamma's stacked block:\n%s", tail)
	}
	if m, _ = press(t, m, "esc"); m.Mode() != "normal" {
		t.Errorf("esc left mode %s", m.Mode())
	}
}
