//go:build linux

package console

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/views"
)

// The benchmarks of this package run the real opsdeck binary in a
// pseudo-terminal (160×48, TERM=xterm-256color) against DynamoDB Local and
// read its screen through Screen, as an operator would:
//
//	go test ./bench/console/ -run '^$' -bench . -benchtime 1x -timeout 30m
//
// Each test process seeds its world once (about a minute here): the demo
// tables plus 100,000 sessions of one project. Each benchmark is a whole
// workload: run them with -benchtime 1x. With OPSDECK_BENCH_PROFILE=dir the
// load-all and idle runs write profiles of the console there:
// loadall-console.cpu and idle-console.cpu (the whole run, start-up
// included), loadall-console.heap and idle-console.heap (the heap in use at
// the end). With OPSDECK_BENCH_BASELINE naming another opsdeck binary, every
// benchmark also measures that one, in the same process and world.

const patience = 2 * time.Minute

// tabBar: the first frame is drawn.
func tabBar(s *Screen) bool { return strings.Contains(s.Line(0), "1 Sessions") }

// anyOf: one of these session ids is on screen.
func anyOf(ids []string) func(*Screen) bool {
	set := map[string]bool{}
	for _, id := range ids {
		set[id] = true
	}
	return func(s *Screen) bool {
		for y := 2; y < rows; y++ {
			line := s.Line(y)
			for {
				i := strings.Index(line, "sess_")
				if i < 0 {
					break
				}
				end := i + 5
				for end < len(line) && line[end] != ' ' && line[end] != '\xe2' {
					end++
				}
				if set[line[i:end]] {
					return true
				}
				line = line[end:]
			}
		}
		return false
	}
}

// titleHas: the pane title line (row 1) contains every one of subs and
// none of the strings after "!".
func titleHas(subs ...string) func(*Screen) bool {
	return func(s *Screen) bool {
		t := s.Line(1)
		for _, sub := range subs {
			if neg, ok := strings.CutPrefix(sub, "!"); ok {
				if strings.Contains(t, neg) {
					return false
				}
			} else if !strings.Contains(t, sub) {
				return false
			}
		}
		return true
	}
}

func consoleArgs() []string {
	return []string{"--endpoint-url", world.endpoint, "--config", world.config}
}

// profilePath is where a run named name writes its CPU profile: in the
// directory OPSDECK_BENCH_PROFILE names, or nowhere when it is unset.
func profilePath(name string) string {
	dir := os.Getenv("OPSDECK_BENCH_PROFILE")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// startupRuns is how many launches of each program one iteration of
// BenchmarkStartup makes.
const startupRuns = 8

// BenchmarkStartup launches opsdeck and, in the same loop, the bare program
// (bench/console/bare: connect, the same first query, print), startupRuns
// times each per iteration, alternating which goes first. It reports the medians of launch → first frame (the tab
// bar on screen) and launch → first rows (a session id of the first page on
// screen) for opsdeck, launch → answer for the bare program, their ratio,
// and opsdeck's peak RSS at its first screen. Launch is the moment before
// exec; on screen is the moment the terminal read the bytes.
func BenchmarkStartup(b *testing.B) {
	ops, bare := binaries(b)
	setupWorld(b)
	table := world.tables.Name(data.TableSessions)

	// One untimed run of each: page cache, and DynamoDB Local's JIT.
	_, ids, err := runBare(b, bare, world.endpoint, table)
	if err != nil {
		b.Fatal(err)
	}
	if len(ids) == 0 {
		b.Fatal("the first query returned no sessions")
	}
	hasRows := anyOf(ids)
	once := func(bin string) startupRun {
		var r startupRun
		serverQuiet(b)
		c := launch(b, bin, consoleArgs()...)
		defer c.stop()
		f, err := c.until(tabBar, patience, "tab bar")
		if err != nil {
			b.Fatal(err)
		}
		first, err := c.until(hasRows, patience, "first rows")
		if err != nil {
			b.Fatal(err)
		}
		r.frame, r.rows, r.rss = ms(f), ms(first), c.peakRSS()
		// Then a project by command, once the console has settled (the
		// live tail up, as it is by the time anyone has typed a command):
		// the key that submits it → its rows.
		if _, err := c.until(titleHas("· live"), patience, "the live tail"); err != nil {
			b.Fatal(err)
		}
		c.send(":sessions " + bigProject)
		if _, err := c.until(func(s *Screen) bool { return strings.Contains(s.Line(rows-1), bigProject) }, patience, "the command typed"); err != nil {
			b.Fatal(err)
		}
		sent := time.Since(c.start)
		c.send("\r")
		at, err := c.until(titleHas("project "+bigProject, "rows (more"), patience, "the project's rows")
		if err != nil {
			b.Fatal(err)
		}
		r.command = ms(at - sent)
		c.stop()
		r.exec = -1
		if d, ok := c.execToMain(); ok {
			r.exec = ms(d)
		}
		r.phases = c.phases()
		return r
	}
	baseline := os.Getenv("OPSDECK_BENCH_BASELINE")
	once(ops)
	if baseline != "" {
		once(baseline)
	}

	var this, base startupSeries
	var bares []float64
	b.ResetTimer()
	for i := 0; i < b.N*startupRuns; i++ {
		steps := []func(){
			func() { this.add(once(ops)) },
			func() {
				serverQuiet(b)
				t, _, err := runBare(b, bare, world.endpoint, table)
				if err != nil {
					b.Fatal(err)
				}
				bares = append(bares, ms(t))
			},
		}
		if baseline != "" {
			steps = append(steps, func() { base.add(once(baseline)) })
		}
		for k := range steps { // each program goes first in turn
			steps[(i+k)%len(steps)]()
		}
	}
	b.StopTimer()
	this.report(b, "", median(bares))
	b.ReportMetric(median(bares), "bare-ms")
	b.ReportMetric(slices.Min(bares), "bare-min-ms")
	b.Logf("bare launch → answer ms: %v", round(bares))
	this.log(b, "")
	if baseline != "" {
		base.report(b, "base-", median(bares))
		base.log(b, "baseline ")
	}
}

// serverQuiet waits until DynamoDB Local answers the first page's own
// Query (a screenful of RUNNING sessions, projected) promptly five times
// in a row. A console stopped a moment ago leaves work behind in the
// server — its project's quota count reads many pages (builds before
// BulkPageItems sent them without a Limit, and DynamoDB Local read the
// whole 100k partition for each), and DynamoDB Local finishes a query
// whose client has gone — and the next launch, of either program, would
// share the server's two cores with it.
func serverQuiet(b *testing.B) {
	b.Helper()
	store := data.NewStore(world.conn, world.tables)
	scope := data.SessionsByStatus(data.SessionRunning).Project(views.SessionListAttrs...)
	deadline := time.Now().Add(2 * time.Minute)
	for quick := 0; quick < 5; {
		if time.Now().After(deadline) {
			b.Logf("DynamoDB Local still slow after 2 minutes; measuring anyway")
			return
		}
		t0 := time.Now()
		_, err := store.Page(context.Background(), scope, data.PageRequest{Limit: views.FirstPageRows})
		if err == nil && time.Since(t0) < 30*time.Millisecond {
			quick++
		} else {
			quick = 0
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startupRun is one launch of a console in BenchmarkStartup, in ms.
type startupRun struct {
	frame, rows, command, exec, rss float64
	phases                          string
}

type startupSeries struct {
	frames, rows, commands, execs, rss []float64
	slowest                            string // the slowest run's phases
}

func (s *startupSeries) add(r startupRun) {
	if len(s.rows) == 0 || r.rows > slices.Max(s.rows) {
		s.slowest = r.phases
	}
	s.frames, s.rows, s.commands, s.rss = append(s.frames, r.frame), append(s.rows, r.rows), append(s.commands, r.command), append(s.rss, r.rss)
	if r.exec >= 0 {
		s.execs = append(s.execs, r.exec)
	}
}

func (s *startupSeries) report(b *testing.B, prefix string, bare float64) {
	b.ReportMetric(median(s.frames), prefix+"frame-ms")
	b.ReportMetric(median(s.rows), prefix+"rows-ms")
	b.ReportMetric(slices.Min(s.rows), prefix+"rows-min-ms")
	b.ReportMetric(median(s.rows)/bare, prefix+"rows/bare")
	b.ReportMetric(median(s.commands), prefix+"cmd-rows-ms")
	b.ReportMetric(median(s.rss), prefix+"peakRSS-MB")
	if len(s.execs) > 0 {
		b.ReportMetric(median(s.execs), prefix+"exec-ms")
	}
}

func (s *startupSeries) log(b *testing.B, who string) {
	b.Logf("%slaunch → first frame ms: %v", who, round(s.frames))
	b.Logf("%slaunch → first rows ms:  %v", who, round(s.rows))
	b.Logf("%senter on :sessions %s → its rows ms: %v", who, bigProject, round(s.commands))
	if len(s.execs) > 0 {
		b.Logf("%slaunch → main ms (exec, runtime, package init): %v", who, round(s.execs))
	}
	if s.slowest != "" {
		b.Logf("%sthe slowest run's start-up phases (--debug-log):\n%s", who, s.slowest)
	}
}

func round(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(int(x*10+0.5)) / 10
	}
	return out
}

// BenchmarkLoadAll opens the 100,000-session project in the console
// (`:sessions bench-100k`), presses L and waits until the title reads
// "100000 rows" with nothing loading. It reports rows/s from the key press
// to that frame, the CPU seconds the process used meanwhile, and its peak
// RSS. Beside it, in the same run, the data layer pages the same project
// (Store.SessionsByProject, decoding included) with the console's page size
// and with 1,000 a page: the rate the console could reach.
//
// The server is warmed first by reading the whole project once, as the
// data layer does. DynamoDB Local is a JVM: its first read of the 100k
// sessions ran with its query path still being compiled, spent about 1.5×
// the CPU of later reads (28 against 19 CPU-s) on a machine of two cores,
// and so slowed whichever build went first: the console at 3,963 rows/s
// and 4.0 CPU-s, against 5,318 and 3.1 in the next launch.
func BenchmarkLoadAll(b *testing.B) {
	ops, _ := binaries(b)
	setupWorld(b)
	readProject(b, data.SessionsByProject(bigProject).Project(views.SessionListAttrs...), 1000)
	for _, cb := range consolesToRun(ops) {
		name, ops := cb[0], cb[1]
		b.Run(name, func(b *testing.B) {
			var rates, cpus, peaks, keys []float64
			for i := 0; i < b.N; i++ {
				// A console measured before (of another build, or the
				// start-up benchmark's last launch) may have left a count
				// running in the server.
				serverQuiet(b)
				c := launchProfiled(b, profilePath("loadall-"+name), ops, consoleArgs()...)
				if _, err := c.until(tabBar, patience, "tab bar"); err != nil {
					b.Fatal(err)
				}
				c.send(":sessions " + bigProject + "\r")
				if _, err := c.until(titleHas("project "+bigProject, "rows (more", "!loading"), patience, "the project's first page"); err != nil {
					b.Fatal(err)
				}
				if _, err := c.until(func(s *Screen) bool { return !strings.Contains(s.Line(2), "loading") }, patience, "the quota line"); err != nil {
					b.Fatal(err)
				}
				cpu0, t0 := c.cpu(), time.Now()
				c.send("L")
				probe := probeKeys(c)
				at, err := c.until(titleHas(fmt.Sprintf("%d rows", bigSessions), "!loading", "!more"), 15*time.Minute, "all rows")
				keys = append(keys, probe()...)
				if err != nil {
					b.Fatal(err)
				}
				took := at - t0.Sub(c.start)
				rates = append(rates, bigSessions/took.Seconds())
				cpus = append(cpus, c.cpu()-cpu0)
				peaks = append(peaks, c.peakRSS())
				c.stop()
			}
			b.ReportMetric(median(rates), "rows/s")
			b.ReportMetric(median(cpus), "cpu-s")
			b.ReportMetric(median(peaks), "peakRSS-MB")
			if len(keys) > 0 {
				slices.Sort(keys)
				b.ReportMetric(median(keys), "key-frame-p50-ms")
				b.ReportMetric(keys[len(keys)*9/10], "key-frame-p90-ms")
				b.ReportMetric(keys[len(keys)-1], "key-frame-max-ms")
				b.Logf("%s: %d keys pressed during load-all, key → frame p50 %.1f ms, max %.1f ms", name, len(keys), median(keys), keys[len(keys)-1])
			}
		})
	}
	// The data layer alone, whole items at the old console's page size and
	// at 1,000, and as the console now reads them: its columns'
	// attributes, 1,000 a page.
	layers := []struct {
		name  string
		limit int32
		scope data.Scope
	}{
		{"limit=100", data.DefaultPageSize, data.SessionsByProject(bigProject)},
		{"limit=1000", 1000, data.SessionsByProject(bigProject)},
		{"projected/limit=1000", 1000, data.SessionsByProject(bigProject).Project(views.SessionListAttrs...)},
	}
	for _, layer := range layers {
		limit := layer.limit
		b.Run("data-layer/"+layer.name, func(b *testing.B) {
			var rates, cpus []float64
			for i := 0; i < b.N; i++ {
				cpu0, t0 := selfCPU(), time.Now()
				n := readProject(b, layer.scope, limit)
				rates = append(rates, float64(n)/time.Since(t0).Seconds())
				cpus = append(cpus, selfCPU()-cpu0)
			}
			b.ReportMetric(median(rates), "rows/s")
			b.ReportMetric(median(cpus), "cpu-s")
		})
	}
}

// readProject pages through scope, every session of the big project, with
// the data layer, limit items a page, and returns how many it read.
func readProject(b *testing.B, scope data.Scope, limit int32) int {
	b.Helper()
	store := data.NewStore(world.conn, world.tables)
	n := 0
	req := data.PageRequest{Limit: limit}
	for {
		p, err := store.Page(context.Background(), scope, req)
		if err != nil {
			b.Fatal(data.Describe(err))
		}
		n += len(p.Items)
		if p.Next == nil {
			break
		}
		req.Cursor = p.Next
	}
	if n != bigSessions {
		b.Fatalf("read %d sessions, want %d", n, bigSessions)
	}
	return n
}

// probeKeys presses ? every 400–600 ms while a load-all runs — the help
// screen opens, the next ? closes it — and times each key to the frame
// that shows its effect (the moment the terminal read it). The returned
// func stops the probing and gives the latencies in ms.
func probeKeys(c *console) func() []float64 {
	stop := make(chan struct{})
	done := make(chan []float64)
	helpShown := func(s *Screen) bool { return s.Contains("(? or esc closes)") }
	go func() {
		var lat []float64
		open := false
		// The gap between keys is random, 400–600 ms: a fixed 500 ms is
		// 15 renderer ticks (30 fps) exactly, so every key landed at the
		// same point of the tick cycle and measured that point, not the
		// range a person pressing keys meets.
		rnd := rand.New(rand.NewPCG(1, 2))
		for {
			select {
			case <-stop:
				if open {
					c.send("?")
				}
				done <- lat
				return
			case <-time.After(400*time.Millisecond + time.Duration(rnd.Int64N(int64(200*time.Millisecond)))):
			}
			want := !open
			sent := time.Since(c.start)
			c.send("?")
			at, err := c.until(func(s *Screen) bool { return helpShown(s) == want }, 5*time.Second, "the help screen toggled")
			if err != nil {
				done <- lat
				<-stop
				return
			}
			open = want
			lat = append(lat, float64(at-sent)/float64(time.Millisecond))
		}
	}()
	return func() []float64 {
		close(stop)
		return <-done
	}
}

// selfCPU is this process's CPU time so far, in seconds.
func selfCPU() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// consolesToRun names the binaries a benchmark measures: this build, and
// the one OPSDECK_BENCH_BASELINE names beside it.
func consolesToRun(ops string) [][2]string {
	out := [][2]string{{"console", ops}}
	if base := os.Getenv("OPSDECK_BENCH_BASELINE"); base != "" {
		out = append(out, [2]string{"baseline", base})
	}
	return out
}

// idleWindow is how long BenchmarkIdle watches.
const idleWindow = 60 * time.Second

// BenchmarkIdle opens the console on the demo's busiest project (as
// `opsdeck --demo` does), lets the first loads finish, then watches for a
// minute with nothing changing in the database, once no label on screen
// counts seconds. It reports the CPU seconds
// the process used, that as a share of one core, and the frames it drew:
// bursts of output to the terminal (a renderer writes a frame in one go;
// nothing is written when nothing changed).
func BenchmarkIdle(b *testing.B) {
	ops, _ := binaries(b)
	setupWorld(b)
	for _, cb := range consolesToRun(ops) {
		name, ops := cb[0], cb[1]
		b.Run(name, func(b *testing.B) { idle(b, name, ops) })
	}
}

// secondsLabel is a relative time counted in seconds.
var secondsLabel = regexp.MustCompile(`\b([0-9]+s ago|in [0-9]+s\b|just now)`)

func idle(b *testing.B, name, ops string) {
	project := world.report.Defaults.SessionsProject
	var cpus, frames, bytes []float64
	for i := 0; i < b.N; i++ {
		serverQuiet(b) // as in BenchmarkLoadAll
		c := launchProfiled(b, profilePath("idle-"+name), ops, consoleArgs()...)
		if _, err := c.until(tabBar, patience, "tab bar"); err != nil {
			b.Fatal(err)
		}
		c.send(":sessions " + project + "\r")
		if _, err := c.until(titleHas("project "+project, "rows", "!loading"), patience, "the project's rows"); err != nil {
			b.Fatal(err)
		}
		time.Sleep(5 * time.Second) // the quota and the stream reader's start
		// The demo world has sessions expiring a minute after it is seeded:
		// while one counts seconds on screen, the screen does change every
		// second. Idle is the screen with nothing but minute labels.
		settle := time.Now()
		if _, err := c.until(func(s *Screen) bool { return !secondsLabel.MatchString(strings.Join(s.Lines()[2:], "\n")) }, 4*time.Minute, "no label counting seconds"); err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: labels counting seconds gone after %s", name, time.Since(settle).Round(time.Second))
		cpu0 := c.cpu()
		f0, n0 := c.counters()
		time.Sleep(idleWindow)
		f1, n1 := c.counters()
		cpus = append(cpus, c.cpu()-cpu0)
		frames = append(frames, float64(f1-f0))
		bytes = append(bytes, float64(n1-n0))
		c.stop()
	}
	b.ReportMetric(median(cpus), "cpu-s")
	b.ReportMetric(100*median(cpus)/idleWindow.Seconds(), "%core")
	b.ReportMetric(median(frames), "frames")
	b.ReportMetric(median(bytes), "bytes")
}
