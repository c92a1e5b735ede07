// Over 400 lines on purpose: main's flags, config, connection and start-up order,
// which is a contract read top to bottom (docs/ARCHITECTURE.md).

// Command opsdeck is a terminal operations console for five DynamoDB-backed
// services: live state, a live tail of every table's changes, and guarded
// one-key fixes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"opsdeck/config"
	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/data/stream"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
	"opsdeck/gcpace"
	"opsdeck/themes"
	"opsdeck/ui"
	"opsdeck/ui/screen"
	"opsdeck/ui/session"
	"opsdeck/views"
)

// flags are the command line; an empty value means "not given", so the
// config file and the AWS environment variables can fill it.
type flags struct {
	profile, region, endpoint, env, configPath string
	theme, debugLog                            string
	readOnly, demo, demoRolling, version       bool
	demoRate                                   float64
	demoStreams                                string
}

// demoRolling, set by demo_rolling.go in a build with -tags demorolling,
// puts the demo's live tail behind a front that rolls and splits shards
// as production's do (test support, kept out of the ordinary binary).
var demoRolling func(endpoint string, logf func(string, ...any)) rollingDemo

// rollingDemo is what main needs of it.
type rollingDemo interface {
	client() *http.Client        // carries the console's requests
	tap(stream.Sink) stream.Sink // sees what the reader hands the console
	watch(ctx context.Context, stopSim func(), conn *data.Conn, tables data.Tables)
}

func parseFlags(args []string) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("opsdeck", flag.ContinueOnError)
	fs.StringVar(&f.profile, "profile", "", "AWS shared-config profile (default $AWS_PROFILE)")
	fs.StringVar(&f.region, "region", "", "AWS region (default $AWS_REGION)")
	fs.StringVar(&f.endpoint, "endpoint-url", "", "DynamoDB endpoint, e.g. http://127.0.0.1:8000 for DynamoDB Local\n(default $AWS_ENDPOINT_URL_DYNAMODB, then $AWS_ENDPOINT_URL)")
	fs.StringVar(&f.env, "env", "", "environment name that fills {env} in table names (default from config, else dev)")
	fs.StringVar(&f.configPath, "config", "", "config file (default "+config.DefaultPath()+")")
	fs.StringVar(&f.theme, "theme", "", "colour theme: dark, light, high-contrast or auto")
	fs.StringVar(&f.debugLog, "debug-log", "", "append the AWS SDK's and opsdeck's log lines to this file (nothing is logged to the terminal)")
	fs.BoolVar(&f.readOnly, "read-only", false, "offer no actions; the data layer refuses every write")
	fs.BoolVar(&f.demo, "demo", false, "start DynamoDB Local, create and seed the demo tables, run the traffic simulator, open the console")
	fs.Float64Var(&f.demoRate, "demo-rate", 2, "with --demo: simulated transitions per second")
	fs.StringVar(&f.demoStreams, "demo-streams", "documents", "with --demo: which tables get a stream: documents (as the service documents say: wallcrawler-sessions and the events table; the other panes poll) or all")
	if demoRolling != nil {
		fs.BoolVar(&f.demoRolling, "demo-rolling", false, "with --demo: read the streams through a front that rolls shards over every minute and splits them (SIGUSR1: stop the simulator and log the check)")
	}
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	// The flag package's own output (a bare list on stderr) is replaced:
	// run prints the whole help to stdout on -h/--help, one line on error.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(helpOut, fs)
		}
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if f.demoStreams != "documents" && f.demoStreams != "all" {
		return f, fmt.Errorf("--demo-streams %q: want documents or all", f.demoStreams)
	}
	if f.endpoint != "" {
		if err := data.CheckEndpoint("--endpoint-url", f.endpoint); err != nil {
			return f, err
		}
	}
	return f, nil
}

// startupGCDone gives the collector back once the first screen settles
// (main holds it off until then).
var startupGCDone = func() {}

func main() {
	// Go's collector lets the heap grow to twice the live data between
	// collections; with 100k rows loaded that doubles the console's peak
	// RSS. A soft limit (never a kill) keeps it near the live set at the
	// cost of more GC work while loading. GOMEMLIMIT, when set, wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(views.SoftMemoryLimit)
	}
	// Start-up allocates ten-odd megabytes (the SDK's clients, the panes)
	// and the collector would run three times before the first rows, its
	// workers taking one of two cores from the first Query's goroutine.
	// It is off until the first screen settles (run restores it; the soft
	// memory limit still holds meanwhile).
	startupGCDone = gcpace.Hold()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "iam-policy" {
		return runIAMPolicy(args[1:], os.Stdout, os.Stderr)
	}
	f, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "opsdeck:", err, "(opsdeck --help lists the flags)")
		return 2
	}
	if f.version {
		fmt.Fprintln(helpOut, versionText())
		return 0
	}
	if err := start(f); err != nil {
		fmt.Fprintln(os.Stderr, "opsdeck:", err)
		return 1
	}
	return 0
}

func start(f flags) error {
	began := time.Now()
	widths := make(chan time.Duration, 1) // warm.go
	go func() { warmWidths(); widths <- time.Since(began) }()
	if path := os.Getenv("OPSDECK_CPUPROFILE"); path != "" {
		stop, err := cpuProfile(path)
		if err != nil {
			return err
		}
		defer stop()
	}
	cfg, err := config.Load(firstNonEmpty(f.configPath, config.DefaultPath()), f.configPath != "")
	if err != nil {
		return err
	}
	env := firstNonEmpty(f.env, cfg.Env, "dev")
	// A bad table override stops the start before anything is started.
	if _, err := data.ResolveTables(env, cfg.Tables); err != nil {
		return fmt.Errorf("%s: %w", cfg.Where(firstTableLine(cfg)), err)
	}
	if err := checkAlerts(cfg); err != nil {
		return err
	}
	keys := ui.DefaultKeys()
	if err := keys.Apply(keyBindings(cfg), keyLines(cfg), cfg.Path); err != nil {
		return err
	}
	themeName := firstNonEmpty(f.theme, cfg.Theme)
	theme, err := themes.Pick(themeName, darkBackground(), themes.NoColor())
	if err != nil {
		return err
	}
	// With "auto" the console asks the terminal for its background and
	// switches; the COLORFGBG guess above is used until it answers.
	autoTheme := themeName == "" || themeName == "auto"

	var logw io.Writer = io.Discard
	if f.debugLog != "" {
		lf, err := os.OpenFile(f.debugLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("debug log: %w", err)
		}
		defer lf.Close()
		logw = lf
	}
	boot := newStartupLog(logw)
	boot.phase("config, keys, theme", began)
	go func() { boot.line(began.Add(<-widths), -1, "cell width table built (beside the above)") }()
	defer boot.exit()
	// However the session ends, no half-written export stays (exports.go).
	defer trackExports(logw)()

	// One context for everything that runs behind the UI (the demo server,
	// the simulator, the stream reader) and the UI itself. SIGTERM and
	// SIGHUP end it so DynamoDB Local is stopped even when the terminal
	// goes away; so does SIGINT from outside (Ctrl-C typed is a key inside
	// the UI). Once the console runs, they first ask it to quit, so that a
	// write in flight is finished or abandoned on record (quit_signals.go).
	// The program's own signal handler is off: on SIGTERM it would race
	// this context, and when the context won, its blocked send hung the
	// exit for good.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	quitSig := watchQuitSignals(cancel)
	defer quitSig.stop()

	// The places the console can be: the start env now, any other on
	// :env, :profile or :region (where.go).
	helpers := &helperNotes{}
	// A role with mfa_serial asks for its code in a dialog; an ask made
	// before the program runs (the first page's) waits for Attach below.
	mfa := &ui.MFAPrompts{}
	pl := &places{cfg: cfg, f: f, startEnv: env, life: ctx, logw: logw, onCall: boot.call, helpers: helpers, mfa: mfa}
	// However the session ends, every reader stops, and before the demo
	// server does (below, after the program), so their last calls do not
	// fail noisily; the exit never hangs on one.
	defer pl.closeAll(2 * time.Second)
	var scopes ui.Scopes
	if f.demoRolling && !f.demo {
		return errors.New("--demo-rolling needs --demo")
	}
	if f.demo {
		if _, installed := ddblocal.Installed(); !installed {
			// `make demo` installs it first; a bare `opsdeck --demo` does
			// it here, and says so (Start installs, with this progress).
			if _, err := ddblocal.InstallProgress(ctx, os.Stderr); err != nil {
				return err
			}
		}
		started := step(os.Stderr, "opsdeck: starting DynamoDB Local (a few seconds)")
		srv, err := ddblocal.Start(ctx, ddblocal.Options{Log: logw})
		started()
		if err != nil {
			return err
		}
		defer srv.Stop()
		pl.demoEndpoint = srv.Endpoint()
		if f.profile == "" {
			// The demo's server accepts any credentials; a developer's
			// AWS_PROFILE must not be needed (or used) for it.
			os.Unsetenv("AWS_PROFILE")
		}
		demoConn, err := data.Connect(ctx, data.ConnOptions{Endpoint: srv.Endpoint(), Region: "us-east-1", DebugLog: logw})
		if err != nil {
			return err
		}
		// Every env of the config that has no endpoint of its own lives on
		// the demo's server too, so `:env` has somewhere to go. Only the
		// tables whose names carry {env} (the events table) are its own;
		// the others are the start env's, which one simulator moves.
		for _, e := range append([]string{env}, pl.demoEnvs()...) {
			et, err := data.ResolveTables(e, cfg.Tables)
			if err != nil {
				return fmt.Errorf("%s: %w", cfg.Where(firstTableLine(cfg)), err)
			}
			seeded := step(os.Stderr, "opsdeck: creating and seeding the demo tables of env "+e+" (a few seconds)")
			report, err := demo.Prepare(ctx, demoConn, et, demo.SeedOptions{StreamsOnAll: f.demoStreams == "all"})
			seeded()
			if err != nil {
				return err
			}
			if e != env {
				continue
			}
			scopes = scopesFrom(report)
			demoOverview(cfg, report, &scopes)
			sim := demo.NewSimulator(demoConn, et, demo.SimOptions{Rate: f.demoRate, Logf: logger(logw, "sim")})
			simCtx, stopSim := context.WithCancel(ctx)
			defer stopSim()
			go sim.Run(simCtx)
			if f.demoRolling {
				// The start env's sessions read through the rolling front.
				pl.rolling = demoRolling(srv.Endpoint(), logger(logw, "demo"))
				go pl.rolling.watch(ctx, stopSim, demoConn, et)
			}
		}
		// ECS has no emulator: the demo answers StopTask itself, so a
		// release is watched to the end (the task's stop lands on the row).
		startTables, err := data.ResolveTables(env, cfg.Tables)
		if err != nil {
			return err
		}
		demoECS, err := demo.StartECS(ctx, demoConn, startTables, logger(logw, "ecs"))
		if err != nil {
			return err
		}
		pl.demoECS = demoECS.Endpoint()
	}

	connecting := time.Now()
	sess, err := pl.Open(ctx, session.Target{Env: env})
	if err != nil {
		return err
	}
	conn := sess.Conn
	boot.phase("connect (AWS config, clients)", connecting)

	// The live tail: the session's reader hands records to its feed, which
	// batches them into the program. Stream discovery (DescribeTable of
	// every table, DescribeStream, an iterator per shard) is a burst of
	// calls the first rows do not need: started beside the first page it
	// slowed that page several times over, on the server and on our two
	// cores. It waits until the first page has been answered and drawn (or
	// failed, or there was none to load), or tailStartLatest at most. A
	// change written between the first page's read and the stream's first
	// iterator reaches the pane with the item's next change or a reload.
	tailGo := make(chan struct{})
	boot.event("stream budget: " + sess.TailOptions().Budget())
	go func() {
		select {
		case <-boot.settled:
		case <-time.After(tailStartLatest):
		case <-ctx.Done():
			return
		}
		startupGCDone()
		boot.event("stream reader started")
		close(tailGo)
	}()
	sess.StartTail(tailGo)

	hist, histLines, histErr := openHistory()
	m := ui.New(ui.Options{
		Session:   sess,
		Connector: pl,
		MFA:       mfa,
		ReadOnly:  f.readOnly,
		Protected: cfg.Protected,
		// Permission before the confirm (the probe writes nothing).
		ProbeWrites: true,
		Actions: action.Options{
			RetryMax: cfg.Actions.RetryMax,
			StaleRun: time.Duration(cfg.Actions.StaleRunMinutes) * time.Minute,
			Operator: action.CurrentOperator(conn.Profile),
		},
		Theme:     theme,
		AutoTheme: autoTheme,
		NoColor:   themes.NoColor(),
		Keys:      keys,
		Scopes:    withOverview(scopes, cfg),

		History:      hist,
		HistoryLines: histLines,
		HistoryErr:   histErr,

		StreamBuffer:     cfg.Stream.Buffer,
		FallbackInterval: cfg.Stream.FallbackInterval,
		DebugLog:         logw,
	})
	boot.event("console built")
	profile, fullProfile := colorProfile(os.Stdout, os.Environ())
	in := terminalInput()
	width, height := screen.Size(os.Stdout)
	scr, err := screen.Open(screen.Options{In: in, Out: terminalOut{File: os.Stdout, log: boot}, Width: width, Height: height, Profile: profile, Env: os.Environ()})
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	defer scr.Close()
	m.SendToTerminal(scr.Send)
	// ctrl+l draws every cell again; ctrl+z (and SIGTSTP) suspends (suspend.go).
	stopper := newSuspender(scr, os.Stdout, logw)
	m.ControlTerminal(ui.TerminalControl{Repaint: scr.Repaint, Suspend: stopper.Suspend})
	// The program reads keys and runs the loop; the screen draws (ui/screen
	// says why). Its own tick, still running, only flushes what it writes
	// itself (the bell, the clipboard): once a second.
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithoutRenderer(), tea.WithFPS(1),
		tea.WithColorProfile(profile), tea.WithWindowSize(width, height), tea.WithOutput(terminalOut{File: os.Stdout, log: boot})}
	if in != nil {
		// A terminal that goes away ends the session as SIGHUP does
		// (terminal_in.go says why SIGHUP may never come).
		opts = append(opts, tea.WithInput(newTerminalIn(in, func() {
			fmt.Fprintln(logw, "terminal closed (its input ended): quitting")
			quitSig.request("terminal closed")
		})))
	}
	p := tea.NewProgram(timedModel{Model: m, log: boot, procs: newProcs(boot.settled), screen: scr}, opts...)
	quitSig.attach(p.Send)
	helpers.attach(p.Send)
	mfa.Attach(p.Send)
	scr.Follow(ctx, os.Stdout, func(w, h int) { p.Send(tea.WindowSizeMsg{Width: w, Height: h}) })
	stopper.watch(ctx, func(w, h int) { p.Send(tea.WindowSizeMsg{Width: w, Height: h}) })
	if fullProfile != nil {
		go func() {
			if full := fullProfile(); full != profile {
				scr.SetProfile(full) // cells drawn meanwhile are redrawn in full colour
				p.Send(tea.ColorProfileMsg{Profile: full})
			}
		}()
	}
	// The first page's query goes out now rather than once the program has
	// set up the terminal and started its loop: it is what the operator is
	// waiting for. The program is then given no Init command to run again.
	go runInit(m.Init(), p.Send)
	boot.event("Init run (the first page's query is on its way)")
	final, err := p.Run()
	// The terminal is given back now, before the readers are waited for.
	if cerr := scr.Close(); cerr != nil {
		fmt.Fprintf(logw, "terminal: %v\n", cerr)
	}
	if tm, ok := final.(timedModel); ok {
		if um, ok := tm.Model.(ui.Model); ok && um.Farewell() != "" {
			// The write a quit waited for: what it came to, on the terminal.
			fmt.Fprintln(os.Stderr, "opsdeck: "+um.Farewell())
		}
	}
	if path := os.Getenv("OPSDECK_MEMPROFILE"); path != "" {
		// What the console holds at the end (its rows): the model is still
		// referenced here, so the profile's in-use figures include it.
		writeHeapProfile(path, logw)
		runtime.KeepAlive(final)
	}
	// The readers stop (and are waited for, 2 s at most) before the demo
	// server's deferred stop runs.
	pl.closeAll(2 * time.Second)
	if errors.Is(err, tea.ErrProgramPanic) {
		// The program library printed the panic and its stack on the
		// alternate screen, which Close has just left.
		return fmt.Errorf("%w: its stack was shown on the console's screen, now closed; run with TEA_DEBUG=1 to keep it in a file", err)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// streamOptions is the config file's stream section as the reader takes it.
func streamOptions(c config.Stream, logf func(string, ...any)) stream.Options {
	o := stream.Options{
		PollInterval:       c.PollInterval,
		IdlePollMax:        c.IdlePollMax,
		TableIdleRate:      c.TableIdleRate,
		SlowPollInterval:   c.SlowInterval,
		MaxCallsPerSecond:  c.MaxCallsPerSec,
		ThrottleBackoff:    c.ThrottleBackoff,
		ThrottleBackoffMax: c.ThrottleMax,
		Logf:               logf,
	}
	if c.Background == "off" {
		o.Background = stream.RateOff
	}
	switch c.Etiquette {
	case "shared":
		o.Etiquette = stream.EtiquetteShared
	case "local":
		o.Etiquette = stream.EtiquetteLocal
	}
	return o
}

// cpuProfile writes a Go CPU profile of the whole session to path (for
// performance work: `go tool pprof bin/opsdeck path`).
func cpuProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("OPSDECK_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("OPSDECK_CPUPROFILE: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// writeHeapProfile writes the heap in use to path (OPSDECK_MEMPROFILE);
// failures go to the debug log, the session is over anyway.
func writeHeapProfile(path string, logw io.Writer) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(logw, "OPSDECK_MEMPROFILE: %v\n", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintf(logw, "OPSDECK_MEMPROFILE: %v\n", err)
	}
}

// colorProfile is the terminal's colour profile as the program library
// would detect it, but without asking tmux: inside tmux the library runs
// `tmux info` (a subprocess, tens of milliseconds) before the first frame
// is drawn. The first frames use the profile from the environment and
// terminfo; full, when not nil, gives the complete answer (tmux included)
// for the program to switch to.
func colorProfile(out io.Writer, env []string) (fast colorprofile.Profile, full func() colorprofile.Profile) {
	var noTmux []string
	inTmux := false
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMUX=") {
			inTmux = kv != "TMUX="
			continue
		}
		noTmux = append(noTmux, kv)
	}
	fast = colorprofile.Detect(out, noTmux)
	if !inTmux {
		return fast, nil
	}
	return fast, func() colorprofile.Profile { return colorprofile.Detect(out, env) }
}

// tailStartLatest bounds how long the stream reader waits for the first
// screen before it starts anyway.
const tailStartLatest = 2 * time.Second

// runInit runs the console's Init command as the program would have: a
// batch's commands each on a goroutine of its own, every other message sent
// to the program (which queues it until its loop runs).
func runInit(cmd tea.Cmd, send func(tea.Msg)) {
	if cmd == nil {
		return
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			go runInit(c, send)
		}
		return
	}
	if msg != nil {
		send(msg)
	}
}

func scopesFrom(r demo.SeedReport) ui.Scopes {
	d := r.Defaults
	return ui.Scopes{
		ProjectID:     d.SessionsProject,
		SessionStatus: d.SessionsStatus,
		UserID:        d.RunsUser,
		InboxUser:     d.InboxUser,
		Audience:      d.Audience,
		Customer:      d.Customer,
		Consumer:      d.Consumer,
		SandboxStatus: d.SandboxStatus,
	}
}

func keyBindings(cfg *config.Config) map[string][]string {
	out := make(map[string][]string, len(cfg.Keys))
	for action, spec := range cfg.Keys {
		out[action] = spec.Keys
	}
	return out
}

func keyLines(cfg *config.Config) map[string]int {
	out := make(map[string]int, len(cfg.Keys))
	for action, spec := range cfg.Keys {
		out[action] = spec.Line
	}
	return out
}

// firstTableLine points a table-override error at the `tables:` block.
func firstTableLine(cfg *config.Config) int {
	if l, ok := cfg.Lines["tables"]; ok {
		return l
	}
	return 0
}

func logger(w io.Writer, prefix string) func(string, ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(w, prefix+": "+format+"\n", args...)
	}
}

// darkBackground guesses the terminal background without querying it (a
// query would race the UI for stdin). COLORFGBG is set by many terminals as
// "fg;bg"; a light background has bg 7 or 15.
func darkBackground() bool {
	v := os.Getenv("COLORFGBG")
	for i := len(v) - 1; i >= 0; i-- {
		if v[i] == ';' {
			bg := v[i+1:]
			return bg != "7" && bg != "15"
		}
	}
	return true
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
