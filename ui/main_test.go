package ui

import (
	"context"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/uitest"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }

// fixedNow anchors the seeded data and the console's clock, so relative
// times ("3m ago") in golden files never depend on the wall clock.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// world is the demo data set, seeded once per test binary under its own
// table prefix. Tests only read it; a test that needs different data gets
// its own prefix.
type world struct {
	conn   *data.Conn
	tables data.Tables
	prefix string
	rep    demo.SeedReport
}

var (
	worldOnce sync.Once
	theWorld  world
	worldErr  error
	prefixSeq atomic.Int64
)

// uniquePrefix is a table prefix no other test (or test binary) uses, of a
// fixed length (dbtest.Prefix), so screen() can swap it for a constant of
// the same width.
func uniquePrefix(tag string) string { return dbtest.Prefix("t" + tag) }

func seeded(t *testing.T) world {
	t.Helper()
	ep := ddblocal.TestEndpoint(t) // before the Once: it may end the test
	worldOnce.Do(func() {
		w, err := dbtest.Shared(ep, dbtest.Options{Tag: "tui"})
		if err != nil {
			worldErr = err
			return
		}
		rep, err := demo.Seed(context.Background(), w.Conn, w.Tables, demo.SeedOptions{Now: fixedNow})
		if err != nil {
			worldErr = err
			return
		}
		theWorld = world{conn: w.Conn, tables: w.Tables, prefix: w.Prefix, rep: rep}
	})
	if worldErr != nil {
		t.Fatalf("seeding the demo world: %v", worldErr)
	}
	return theWorld
}

// displayConn is conn with a fixed endpoint for the status bar: DynamoDB
// Local's port changes between runs and must not reach golden files.
func displayConn(c *data.Conn) *data.Conn {
	d := *c
	d.Endpoint = "http://dynamodb-local:8000"
	return &d
}

// options builds console options over the seeded world with the demo's
// default scopes.
func (w world) options() Options {
	d := w.rep.Defaults
	return Options{
		Store:  data.NewStore(w.conn, w.tables),
		Conn:   displayConn(w.conn),
		Tables: w.tables,
		Env:    "dev",
		Theme:  themes.Dark(),
		Keys:   keymap.Default(),
		Now:    func() time.Time { return fixedNow },
		Scopes: Scopes{
			ProjectID: d.SessionsProject, UserID: d.RunsUser, InboxUser: d.InboxUser,
			Audience: d.Audience, Customer: d.Customer, Consumer: d.Consumer,
			SandboxStatus: d.SandboxStatus,
		},
	}
}

// withClient returns options whose store talks through rt (fault
// injection in front of the real server).
func (w world) withClient(t *testing.T, rt http.RoundTripper) Options {
	t.Helper()
	conn, err := data.Connect(context.Background(), data.ConnOptions{
		Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1",
		HTTPClient: &http.Client{Transport: rt},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := w.options()
	o.Store = data.NewStore(conn, w.tables)
	return o
}

// settle runs cmd the way the program would — every message it yields is
// fed back into the model, batches fan out — until only timers are left
// (uitest.Settle). It is synchronous, so tests need no sleeps: when it
// returns, every load the keys started has been answered. Timers are not
// run: a test that needs one to go off delivers its message, or fires it
// with uitest.Fire.
func settle(t *testing.T, m Model, cmd tea.Cmd) (Model, bool) {
	t.Helper()
	if m.ctx.Timer == nil {
		t.Fatal("settle: build the model with Options.Timer = uitest.Timer (start does), or it waits on real timers")
	}
	m, res := uitest.Settle(t, m, cmd)
	return m, res.Quit
}

// start builds the console at a size, with timers the test fires
// (uitest.Timer), and loads its first pane, running both the first
// frame's commands and Init's, as the program does.
func start(t *testing.T, o Options, w, h int) Model {
	t.Helper()
	if o.Timer == nil {
		o.Timer = uitest.Timer
	}
	m := New(o)
	nm, sized := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m, _ = settle(t, nm.(Model), tea.Batch(sized, m.Init()))
	return m
}

// keyMsg builds the key press a terminal would send for a key name as the
// keymap spells it ("enter", "shift+tab", "ctrl+c", "G", "space").
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "space":
		return tea.KeyPressMsg{Code: ' ', Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("keyMsg: unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// press sends keys one by one, settling after each.
func press(t *testing.T, m Model, keys ...string) (Model, bool) {
	t.Helper()
	quit := false
	for _, k := range keys {
		nm, cmd := m.Update(keyMsg(k))
		var q bool
		m, q = settle(t, nm.(Model), cmd)
		quit = quit || q
	}
	return m, quit
}

// typeText types a string into whatever has focus.
func typeText(t *testing.T, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		var k string
		if r == ' ' {
			k = "space"
		} else {
			k = string(r)
		}
		m, _ = press(t, m, k)
	}
	return m
}

// runLine runs ":line" + enter.
func runLine(t *testing.T, m Model, line string) (Model, bool) {
	t.Helper()
	m, _ = press(t, m, ":")
	m = typeText(t, m, line)
	return press(t, m, "enter")
}

// screen is the rendered frame without styling, with the per-run table
// prefix replaced so golden files are stable.
func screen(m Model, prefix string) string {
	s := stripANSI(m.Render())
	return strings.ReplaceAll(s, prefix, strings.Repeat("T", len(prefix)-1)+"-")
}
