//go:build linux

package console

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo"
	"opsdeck/internal/dbtest"
)

// The e2e recipes of issue 23, through tmux: the built console runs in a
// private tmux server (its own socket, no config file) against DynamoDB
// Local, and what tmux shows (capture-pane) must be what the console meant
// to draw. tmux is the terminal the stale lines were seen in: it
// honours scroll regions and insert/delete line, so a renderer that scrolls
// content over lines it thinks unchanged leaves rows where the hint and the
// column header belong, or scrolls the tab bar away.

// tmuxWorld is a project of e2eSessions sessions, the newest e2eRunning
// RUNNING, the others COMPLETED, in tables of their own (streams on, so another writer's changes reach the screen).
type tmuxWorld struct {
	conn    *data.Conn
	tables  data.Tables
	config  string
	args    []string
	project string
}

const (
	e2eProject  = "proj-e2e"
	e2eSessions = 120 // more than a screen: the project's list pages
	// e2eRunning is fewer than a screen: the RUNNING list ends in blank
	// rows, lines alike that a renderer scrolling its lines can mistake
	// for one another.
	e2eRunning = 30
)

// e2eID is session i's id, as long as the demo's (19 characters).
func e2eID(i int) string { return fmt.Sprintf("sess_a%013d", i) }

func newTmuxWorld(t *testing.T) *tmuxWorld {
	t.Helper()
	ctx := context.Background()
	dw := dbtest.New(t, dbtest.Options{Env: "e2e", Tag: "tx", StreamsOnAll: true}) // skips without Java
	endpoint, conn := dw.Endpoint, dw.Conn
	w := &tmuxWorld{conn: conn, tables: dw.Tables, project: e2eProject}
	var template data.Item
	for it := range demo.SampleSessions(1, time.Now()) {
		template = it
	}
	now := time.Now().UTC()
	var batch []types.WriteRequest
	table := w.tables.Name(data.TableSessions)
	for i := range e2eSessions {
		it := make(data.Item, len(template))
		for k, v := range template {
			it[k] = v
		}
		// Newest first: session 0 is the newest, at the top of the list.
		at := now.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)
		it["sessionId"] = &types.AttributeValueMemberS{Value: e2eID(i)}
		it["projectId"] = &types.AttributeValueMemberS{Value: e2eProject}
		it["status"] = &types.AttributeValueMemberS{Value: "RUNNING"}
		if i >= e2eRunning {
			it["status"] = &types.AttributeValueMemberS{Value: "COMPLETED"}
		}
		it["internalStatus"] = &types.AttributeValueMemberS{Value: "READY"}
		it["createdAt"] = &types.AttributeValueMemberS{Value: at}
		it["updatedAt"] = &types.AttributeValueMemberS{Value: at}
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
		if len(batch) == 25 || i == e2eSessions-1 {
			if err := writeBatch(ctx, conn.DB, table, batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	var cfg strings.Builder
	cfg.WriteString("tables:\n")
	for _, id := range data.TableIDs() {
		fmt.Fprintf(&cfg, "  %s: %s\n", id, w.tables.Name(id))
	}
	w.config = filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(w.config, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	w.args = []string{"--endpoint-url", endpoint, "--config", w.config}
	return w
}

// setStatus sets a session's status, as another writer (the service) would.
func (w *tmuxWorld) setStatus(id, status string) error {
	_, err := w.conn.DB.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName:                 aws.String(w.tables.Name(data.TableSessions)),
		Key:                       data.Item{"sessionId": &types.AttributeValueMemberS{Value: id}},
		UpdateExpression:          aws.String("SET #s = :s, updatedAt = :u"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: data.Item{":s": &types.AttributeValueMemberS{Value: status}, ":u": &types.AttributeValueMemberS{Value: time.Now().UTC().Format(time.RFC3339)}},
	})
	return err
}

// tmuxServer is a private tmux server: its own socket, no config file.
type tmuxServer struct {
	t    *testing.T
	sock string
}

func newTmuxServer(t *testing.T) *tmuxServer {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		noTmux(t, err)
	}
	s := &tmuxServer{t: t, sock: fmt.Sprintf("opsdeck-e2e-%d", os.Getpid())}
	t.Cleanup(func() { _, _ = s.run("kill-server") })
	// A session of its own holds the server up between consoles (a server
	// with no session left exits, racing the next new-session).
	s.must("new-session", "-d", "-s", "hold", "cat")
	return s
}

func (s *tmuxServer) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	return string(out), err
}

func (s *tmuxServer) must(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return out
}

// start runs the console in a new tmux session named name, 160×48, in a
// clean environment (TERM is tmux's own), and stops it at the end.
func (s *tmuxServer) start(name, bin string, args ...string) {
	s.t.Helper()
	home := s.t.TempDir()
	cmd := []string{"new-session", "-d", "-s", name, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "--", "env", "-i"}
	for _, kv := range cleanEnv(home) {
		if !strings.HasPrefix(kv, "TERM=") {
			cmd = append(cmd, kv)
		}
	}
	cmd = append(cmd, "TERM=tmux-256color", bin, "--debug-log", filepath.Join(home, "debug.log"))
	s.must(append(cmd, args...)...)
	// remain-on-exit: a console that dies leaves its last screen to read.
	s.must("set-option", "-t", name, "remain-on-exit", "on")
}

// stop ends the console of session name as a closing terminal would.
func (s *tmuxServer) stop(name string) { _, _ = s.run("kill-session", "-t", name) }

// capture is what tmux shows in the pane, one string per row.
func (s *tmuxServer) capture(name string) []string {
	s.t.Helper()
	out := s.must("capture-pane", "-p", "-t", name)
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// send types keys (literally) into the pane; "Enter" and other key names
// go through sendKey.
func (s *tmuxServer) send(name, keys string) { s.must("send-keys", "-t", name, "-l", keys) }
func (s *tmuxServer) sendKey(name, key string) {
	s.must("send-keys", "-t", name, key)
}

// until polls tmux's screen until cond holds, and fails the test with the
// screen when deadline passes first. check, when not nil, is held against
// every screen seen on the way: an invariant no frame may break.
func (s *tmuxServer) until(t *testing.T, name string, within time.Duration, what string, check func([]string) string, cond func([]string) bool) []string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		scr := s.capture(name)
		if check != nil {
			if bad := check(scr); bad != "" {
				t.Fatalf("waiting for %s: %s; tmux shows:\n%s", what, bad, strings.Join(scr, "\n"))
			}
		}
		if cond(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %v; tmux shows:\n%s", what, within, strings.Join(scr, "\n"))
		}
		// Poll: tmux answers a capture in about a millisecond; a short
		// pause keeps the two shared cores for the console.
		time.Sleep(20 * time.Millisecond)
	}
}

var sessID = regexp.MustCompile(`sess_[A-Za-z0-9_]+`)

// idsOn lists the session ids on rows from..to-1 of scr.
func idsOn(scr []string, from, to int) []string {
	var ids []string
	for i := from; i < to && i < len(scr); i++ {
		ids = append(ids, sessID.FindAllString(scr[i], -1)...)
	}
	return ids
}

// listIDs lists the sessions on the list's rows: below the header, above
// the status bar (the last row may echo a command naming one).
func listIDs(scr []string) []string { return idsOn(scr, headerRows, len(scr)-2) }

func tmuxTabBar(scr []string) bool { return len(scr) > 0 && strings.Contains(scr[0], "1 Sessions") }

// frameIntact is the shape every frame of a session list has once its tab
// bar is drawn, h rows high: the tab bar on row 0, no session on the rows
// of the title, hint and column header, the status bar (env …) on the row
// above the key hints, every session on at most one row.
func frameIntact(h int) func([]string) string {
	return func(scr []string) string {
		if len(scr) != h {
			return fmt.Sprintf("%d rows, not %d", len(scr), h)
		}
		if !tmuxTabBar(scr) {
			return "row 0 is not the tab bar"
		}
		// The title (row 1) may name a session; the tab bar, the hint and
		// the header name none.
		if ids := append(idsOn(scr, 0, 1), idsOn(scr, 2, headerRows)...); len(ids) > 0 {
			return fmt.Sprintf("sessions %v on the rows of the tab bar, hint and header", ids)
		}
		if !strings.HasPrefix(strings.TrimSpace(scr[h-2]), "env ") {
			return "no status bar on the row above the key hints"
		}
		seen := map[string]bool{}
		for _, id := range listIDs(scr) {
			if seen[id] {
				return fmt.Sprintf("%s on two rows", id)
			}
			seen[id] = true
		}
		return ""
	}
}

// headerRows is how many rows above the list belong to the tab bar, the
// title, the hint and the column header.
const headerRows = 4

// listRows is how many session rows an h-row screen has room for: all but
// the header rows, the status bar and the key hints.
func listRows(h int) int { return h - headerRows - 2 }

var rowCount = regexp.MustCompile(`(\d+) rows`)

// titleRows is the row count the title states, -1 when it states none.
func titleRows(scr []string) int {
	m := rowCount.FindStringSubmatch(scr[1])
	if m == nil {
		return -1
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// TestScreenIsTrueInTmux runs issue 23's e2e recipes through tmux (the
// emoji row is TestEmojiRowStaysAlignedInTmux, in ui/screen). Each fails
// when tmux shows a session on the tab bar, hint or header rows, a session
// on two rows, a removed session still RUNNING, a row count other than the
// title's, no tab bar or no status bar. Against the renderer the issue
// traced, the stale-rows recipe fails in about half the runs (3 of 5 with
// the build before the fix, 2 of 4 with ui/screen's SetScrollOptim(true)):
// the defect needs a frame whose line the renderer finds further down the
// old one, which depends on when the keys arrive. The other three did not
// fail against it here; they hold the screen's shape in their cases, and
// the seeded differential test in ui/screen is what catches the defect
// every time.
func TestScreenIsTrueInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, runs tmux")
	}
	ops, _ := binaries(t)
	w := newTmuxWorld(t)
	tm := newTmuxServer(t)
	intact := frameIntact(rows)

	// Stale rows: right after the tab bar shows, `:session <id>`; no frame
	// on the way shows a session on the hint or header rows, and the last
	// shows that session alone. Each launch is a fresh console (the
	// first frames are where the stale rows were seen).
	t.Run("stale rows", func(t *testing.T) {
		start := time.Now()
		for n := range staleRowLaunches {
			name := fmt.Sprintf("stale%d", n)
			tm.start(name, ops, w.args...)
			scr := tm.until(t, name, time.Minute, "the tab bar", nil, tmuxTabBar)
			id := e2eID(7 + n)
			if n%2 == 1 {
				// Every other launch waits for the list's rows and looks up one
				// shown low on the screen: the renderer then finds the row's line
				// further up in the next frame, the move it used to make with a
				// real scroll.
				scr = tm.until(t, name, 20*time.Second, "the list's rows", intact, func(scr []string) bool {
					return len(listIDs(scr)) == e2eRunning
				})
				id = listIDs(scr)[(n*7)%e2eRunning]
			}
			tm.send(name, ":session "+id)
			tm.sendKey(name, "Enter")
			tm.until(t, name, 20*time.Second, "session "+id+" alone", intact, func(scr []string) bool {
				ids := listIDs(scr)
				return strings.Contains(scr[1], "session "+id) && len(ids) == 1 && ids[0] == id
			})
			tm.stop(name)
		}
		t.Logf("%d launches in %v", staleRowLaunches, time.Since(start).Round(time.Millisecond))
	})

	// Four removals: with no keys, four sessions of the RUNNING list set
	// to COMPLETED within a second by another writer. Then none of them
	// is on a RUNNING row, the title counts four rows fewer, and the list
	// shows as many sessions as it counts (a screenful at most), each
	// once, each RUNNING.
	tm.start("c", ops, w.args...)
	t.Run("four removals", func(t *testing.T) {
		start := time.Now()
		scr := tm.until(t, "c", time.Minute, "the RUNNING list, live", nil, func(scr []string) bool {
			return tmuxTabBar(scr) && strings.Contains(scr[1], "status RUNNING") && strings.Contains(scr[1], "live") &&
				len(listIDs(scr)) == e2eRunning
		})
		listed := listIDs(scr)
		loaded := titleRows(scr) // the rows of the pages read so far
		gone := []string{listed[0], listed[2], listed[5], listed[9]}
		for _, id := range gone {
			if err := w.setStatus(id, "COMPLETED"); err != nil {
				t.Fatal(err)
			}
		}
		tm.until(t, "c", 20*time.Second, "the four sessions off the RUNNING list", intact, func(scr []string) bool {
			n := titleRows(scr)
			if n != loaded-len(gone) {
				return false
			}
			for _, l := range scr[headerRows : rows-2] {
				for _, id := range gone {
					if strings.Contains(l, id) && strings.Contains(l, "RUNNING") {
						return false
					}
				}
				if ids := sessID.FindAllString(l, -1); len(ids) > 0 && !strings.Contains(l, "RUNNING") {
					return false
				}
			}
			return len(listIDs(scr)) == min(n, listRows(rows))
		})
		t.Logf("%v", time.Since(start).Round(time.Millisecond))
	})

	// Filter after the first page: every page loaded (L), the cursor at
	// the end of the list (G), then a filter. The tab bar stays, and the
	// rows shown are the ones the filter keeps.
	t.Run("filter after the first page", func(t *testing.T) {
		start := time.Now()
		tm.send("c", ":sessions "+e2eProject)
		tm.sendKey("c", "Enter")
		tm.until(t, "c", 20*time.Second, "the project's first page", intact, func(scr []string) bool {
			return strings.Contains(scr[1], "project "+e2eProject) && strings.Contains(scr[1], "more") &&
				len(listIDs(scr)) == listRows(rows)
		})
		tm.send("c", "L")
		scr := tm.until(t, "c", 20*time.Second, "every page", intact, func(scr []string) bool {
			return titleRows(scr) == e2eSessions && !strings.Contains(scr[1], "more")
		})
		top := listIDs(scr)[0]
		tm.send("c", "G")
		tm.until(t, "c", 10*time.Second, "the list scrolled to its end", intact, func(scr []string) bool {
			ids := listIDs(scr)
			return len(ids) > 0 && ids[0] != top
		})
		const filter = "0000011" // sess_a…0011 and sess_a…0110 to …0119
		tm.send("c", "/"+filter)
		tm.sendKey("c", "Enter")
		tm.until(t, "c", 10*time.Second, "the filtered rows", intact, func(scr []string) bool {
			ids := listIDs(scr)
			for _, id := range ids {
				if !strings.Contains(id, filter) {
					return false
				}
			}
			return len(ids) == 11
		})
		tm.sendKey("c", "Escape")
		t.Logf("%v", time.Since(start).Round(time.Millisecond))
	})

	// Resize under a writer: the window shrinks and grows while another
	// writer changes sessions of the list; after each size the screen is
	// whole at that size.
	t.Run("resize under a writer", func(t *testing.T) {
		start := time.Now()
		stopWriter := make(chan struct{})
		var once sync.Once
		stop := func() { once.Do(func() { close(stopWriter) }) }
		defer stop() // a failed size ends the writer too
		writerDone := make(chan error, 1)
		go func() {
			for i := 0; ; i++ {
				select {
				case <-stopWriter:
					writerDone <- nil
					return
				default:
				}
				if err := w.setStatus(e2eID(30+i%10), []string{"COMPLETED", "RUNNING"}[(i/10)%2]); err != nil {
					writerDone <- err
					return
				}
			}
		}()
		for _, size := range [][2]int{{120, 30}, {cols, rows}, {100, 24}, {cols, rows}} {
			tm.must("resize-window", "-t", "c", "-x", fmt.Sprint(size[0]), "-y", fmt.Sprint(size[1]))
			h := size[1]
			whole := frameIntact(h)
			tm.until(t, "c", 10*time.Second, fmt.Sprintf("a whole frame at %dx%d", size[0], h), nil, func(scr []string) bool {
				return whole(scr) == "" && len(listIDs(scr)) == listRows(h)
			})
		}
		stop()
		if err := <-writerDone; err != nil {
			t.Fatal(err)
		}
		t.Logf("%v", time.Since(start).Round(time.Millisecond))
	})
}

// staleRowLaunches is how many fresh consoles the stale-rows recipe runs:
// the 20.
const staleRowLaunches = 20
