package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
	"opsdeck/ui/session"
	"opsdeck/views"
)

// testPlace is one env of testPlaces: where it is and how it is set.
type testPlace struct {
	endpoint  string
	tables    data.Tables
	protected bool
	color     string
	noTail    bool
}

// testPlaces is a Connector over real DynamoDB Local servers: each env is
// an endpoint and its tables. It records what it was asked.
type testPlaces struct {
	life   context.Context
	places map[string]testPlace

	mu     sync.Mutex
	asked  []session.Target
	opened []*session.Session
}

func (p *testPlaces) Open(ctx context.Context, t session.Target) (*session.Session, error) {
	p.mu.Lock()
	p.asked = append(p.asked, t)
	p.mu.Unlock()
	pl, ok := p.places[t.Env]
	if !ok {
		return nil, &session.UnknownError{What: "env", Name: t.Env, Known: p.Envs()}
	}
	region := t.Region
	if region == "" {
		region = "us-east-1"
	}
	s, err := session.Open(ctx, p.life, session.Spec{
		Env:  t.Env,
		Conn: data.ConnOptions{Endpoint: pl.endpoint, Region: region, Profile: t.Profile},
		// The tables of both places carry the same names: only the
		// endpoint tells them apart.
		Tables: pl.tables, Protected: pl.protected, Color: pl.color, NoTail: pl.noTail,
		Stream: stream.Options{Tables: []data.TableID{data.TableSessions}},
	})
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.opened = append(p.opened, s)
	p.mu.Unlock()
	return s, nil
}

func (p *testPlaces) Envs() []string {
	var out []string
	for e := range p.places {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}
func (p *testPlaces) Profiles() []string { return data.Profiles() }
func (p *testPlaces) Regions() []string  { return []string{"eu-west-1", "us-east-1"} }

func (p *testPlaces) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.opened {
		s.Close()
	}
}

// secondServer is a DynamoDB Local of this test's own, with the action
// tables under the same names as on the shared server.
func secondServer(t *testing.T, w *actWorld) *actWorld {
	t.Helper()
	srv := ddblocal.StartTest(context.Background(), t, ddblocal.Options{})
	conn, err := data.ConnectLocal(context.Background(), srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.CreateTables(context.Background(), conn, w.tables, demo.CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	b := *w
	b.conn = conn
	return &b
}

func endpointOf(c *data.Conn) string { return c.Endpoint }

// TestSwitchEnvAcrossTwoEndpoints: two DynamoDB Local servers with tables
// of the same names, one per env. The console starts on alpha with its live
// tail; `:env beta` re-connects: the Sessions pane's rows are then beta's
// (none of alpha's), a write to beta arrives through the tail, alpha's old
// reader has stopped, and the command history is still there.
func TestSwitchEnvAcrossTwoEndpoints(t *testing.T) {
	alpha := newActWorld(t)
	beta := secondServer(t, alpha)
	if endpointOf(alpha.conn) == endpointOf(beta.conn) {
		t.Fatal("the two servers share an endpoint")
	}
	for i := 0; i < 3; i++ {
		alpha.session(fmt.Sprintf("sess-alpha-%d", i), "RUNNING", "READY", fixedNow.Add(-time.Duration(i+1)*time.Hour))
	}
	for i := 0; i < 2; i++ {
		beta.session(fmt.Sprintf("sess-beta-%d", i), "RUNNING", "READY", fixedNow.Add(-time.Duration(i+1)*time.Hour))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	places := &testPlaces{life: ctx, places: map[string]testPlace{
		"alpha": {endpoint: endpointOf(alpha.conn), tables: alpha.tables},
		"beta":  {endpoint: endpointOf(beta.conn), tables: beta.tables, protected: true, color: "#d70000"},
	}}
	defer places.closeAll()
	first, err := places.Open(ctx, session.Target{Env: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	first.StartTail(nil)

	o := alpha.options()
	o.Session, o.Connector = first, places
	o.Timer = nil // the live driver runs real timers
	d := newLiveDriver(ctx, New(o))
	d.Start(120, 40)
	sessionIDs := func() []string {
		var ids []string
		for _, id := range d.Model.Pane(views.PaneSessions).(interface{ IDs() []string }).IDs() {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	d.until(t, "alpha's three sessions", func() bool { return len(sessionIDs()) == 3 })
	if got := strings.Join(sessionIDs(), ","); got != "sess-alpha-0,sess-alpha-1,sess-alpha-2" {
		t.Fatalf("alpha shows %s", got)
	}
	d.until(t, "alpha's tail live", func() bool {
		h, ok := d.Model.live.health[data.TableSessions]
		return ok && h.State == stream.StateLive
	})
	d.press(t, ":")
	for _, r := range "sessions " + alpha.tenant {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		d.Update(keyMsg(k))
	}
	d.press(t, "enter")

	// An unknown env says so and changes nothing.
	d.press(t, ":")
	for _, r := range "env nowhere" {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		d.Update(keyMsg(k))
	}
	d.press(t, "enter")
	d.until(t, "the unknown env's answer", func() bool { return d.Model.where.pending == "" })
	if f := d.Model.Flash(); !strings.Contains(f, `unknown env "nowhere" (known: alpha, beta)`) || !strings.Contains(f, "nothing changed") {
		t.Fatalf("unknown env: flash %q", f)
	}
	if d.Model.where.env != "alpha" || d.Model.Session() != first || len(sessionIDs()) != 3 {
		t.Fatalf("an unknown env changed something: env %s, rows %v", d.Model.where.env, sessionIDs())
	}

	// The switch.
	d.press(t, ":")
	for _, r := range "env beta" {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		d.Update(keyMsg(k))
	}
	var swapped *tailSwappedMsg
	prevSeen := d.Seen
	d.Seen = func(msg tea.Msg) {
		prevSeen(msg)
		if s, ok := msg.(tailSwappedMsg); ok {
			swapped = &s
		}
	}
	d.Update(keyMsg("enter"))
	d.until(t, "beta's sessions", func() bool {
		return d.Model.where.env == "beta" && !d.Model.slotOf(views.PaneSessions).Status().Loading && len(sessionIDs()) == 2
	})
	if got := strings.Join(sessionIDs(), ","); got != "sess-beta-0,sess-beta-1" {
		t.Fatalf("after :env beta the pane shows %s", got)
	}
	if d.Model.where.endpoint != endpointOf(beta.conn) || d.Model.Store().Conn().Endpoint != endpointOf(beta.conn) {
		t.Fatalf("not connected to beta's server: shown %s, store %s", d.Model.where.endpoint, d.Model.Store().Conn().Endpoint)
	}
	scr := stripANSI(d.Model.Render())
	lines := strings.Split(scr, "\n")
	if !strings.Contains(lines[0], " PROTECTED  beta · us-east-1 ") {
		t.Errorf("tab bar does not say where: %q", lines[0])
	}
	if sb := lines[len(lines)-2]; !strings.Contains(sb, "PROTECTED") || !strings.Contains(sb, "env beta") || !strings.Contains(sb, endpointOf(beta.conn)) {
		t.Errorf("status bar does not say where: %q", sb)
	}
	if wt := d.Model.View().WindowTitle; wt != "opsdeck · beta [PROTECTED] · us-east-1" {
		t.Errorf("window title %q", wt)
	}

	// alpha's reader stops before beta's starts.
	d.until(t, "the old reader to stop", func() bool { return swapped != nil })
	if swapped.err != nil {
		t.Fatalf("alpha's reader: %v", swapped.err)
	}
	select {
	case <-first.Done():
	default:
		t.Fatal("alpha's reader is still running after the switch")
	}

	// The tail follows: a write to beta arrives in the pane live; alpha's
	// rows never come back.
	d.until(t, "beta's tail live", func() bool {
		h, ok := d.Model.live.health[data.TableSessions]
		return ok && h.State == stream.StateLive
	})
	alpha.session("sess-alpha-late", "RUNNING", "READY", fixedNow.Add(-time.Minute))
	// A write that changes nothing makes no stream record, and the new
	// reader's first iterator may come after a first write: beta is
	// written every half second, each time changed, until the row is in.
	stop := make(chan struct{})
	wrote := make(chan struct{})
	it := beta.session("sess-beta-live", "RUNNING", "READY", fixedNow.Add(-time.Minute))
	go func() {
		defer close(wrote)
		for i := 0; ; i++ {
			it["updatedAt"] = sv(fmt.Sprint(i))
			_, _ = beta.conn.DB.PutItem(context.Background(), &dynamodb.PutItemInput{
				TableName: aws.String(beta.tables.Name(data.TableSessions)), Item: it})
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
	d.until(t, "beta's write to reach the pane through the tail", func() bool { return slices.Contains(sessionIDs(), "sess-beta-live") })
	close(stop)
	<-wrote
	if slices.ContainsFunc(sessionIDs(), func(id string) bool { return strings.HasPrefix(id, "sess-alpha") }) {
		t.Fatalf("alpha's rows in beta's pane: %v", sessionIDs())
	}
	if !slices.Contains(d.Model.history, "sessions "+alpha.tenant) || !slices.Contains(d.Model.history, "env beta") {
		t.Fatalf("history lost in the switch: %q", d.Model.history)
	}
}
