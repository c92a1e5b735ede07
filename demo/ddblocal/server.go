package ddblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options say how to run one DynamoDB Local.
type Options struct {
	// Port to listen on; 0 picks a free loopback port.
	Port int
	// DBPath keeps the data in that directory (it survives restarts);
	// empty runs -inMemory.
	DBPath string
	// Log receives java's output; nil discards it (the last few KB are
	// still kept for error messages).
	Log io.Writer
}

// Server is one running DynamoDB Local process.
type Server struct {
	mu   sync.Mutex
	opts Options
	dir  string // emulator install dir
	java string
	port int

	run *run // nil while stopped
}

// run is one java process. err is written before exited is closed, so
// anyone who has seen exited closed may read it without a lock.
type run struct {
	cmd    *exec.Cmd
	exited chan struct{}
	err    error
	out    *tailBuffer
	work   string // java's cwd: it drops a metadata file there
}

// startTimeout bounds how long a JVM may take to answer when the caller's
// context has no deadline. Two busy cores can make this several seconds.
const startTimeout = 2 * time.Minute

// Start installs DynamoDB Local if needed, starts it and waits until it
// answers ListTables.
func Start(ctx context.Context, o Options) (*Server, error) {
	java, err := FindJava(ctx)
	if err != nil {
		return nil, err
	}
	dir, err := Install(ctx)
	if err != nil {
		return nil, err
	}
	if o.DBPath != "" {
		abs, err := filepath.Abs(o.DBPath)
		if err != nil {
			return nil, err
		}
		o.DBPath = abs
		if err := os.MkdirAll(o.DBPath, 0o755); err != nil {
			return nil, fmt.Errorf("creating DynamoDB Local data dir: %w", err)
		}
	}
	s := &Server{opts: o, dir: dir, java: java, port: o.Port}
	// A free port found by listening and closing can be taken by someone
	// else before java binds it; with a port of our own choosing, try again.
	attempts := 1
	if o.Port == 0 {
		attempts = 3
	}
	for i := 0; ; i++ {
		if o.Port == 0 {
			if s.port, err = freePort(); err != nil {
				return nil, err
			}
		}
		err = s.start(ctx)
		if err == nil {
			return s, nil
		}
		if i+1 >= attempts || !errors.Is(err, errPortInUse) {
			return nil, err
		}
	}
}

// Endpoint is the server's URL, e.g. "http://127.0.0.1:8000".
func (s *Server) Endpoint() string {
	return "http://127.0.0.1:" + strconv.Itoa(s.port)
}

// Port is the TCP port the server listens on.
func (s *Server) Port() int { return s.port }

// PID is java's process id while running, else 0. Tests use it to prove no
// process is left behind.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run == nil || s.run.cmd.Process == nil {
		return 0
	}
	return s.run.cmd.Process.Pid
}

// Stop kills the server's process group and waits for it to exit. Calling it
// again, or on a server that died by itself, is fine.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopLocked()
}

// Restart stops the server and starts it again on the same port with the
// same data directory (with -inMemory the data is, of course, gone).
func (s *Server) Restart(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.stopLocked(); err != nil {
		return err
	}
	return s.startLocked(ctx)
}

func (s *Server) start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startLocked(ctx)
}

var errPortInUse = errors.New("port already in use")

func (s *Server) startLocked(ctx context.Context) error {
	if _, hasDeadline := ctx.Deadline(); !hasDeadline {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, startTimeout)
		defer cancel()
	}
	// Java binds every interface. Check the port first: otherwise another
	// server already on it would answer our readiness probe and we would
	// report success for a java that is about to die.
	if err := portFree(s.port); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "opsdeck-ddblocal-")
	if err != nil {
		return err
	}
	args := []string{
		"-Djava.library.path=" + filepath.Join(s.dir, libDirName),
		"-jar", filepath.Join(s.dir, jarName),
	}
	if s.opts.DBPath == "" {
		args = append(args, "-inMemory")
	} else {
		args = append(args, "-dbPath", s.opts.DBPath)
	}
	// -sharedDb: otherwise every access key/region pair sees its own
	// database, and the console, the demo and the tests would disagree.
	args = append(args, "-sharedDb", "-port", strconv.Itoa(s.port), "-disableTelemetry")

	// Not CommandContext: ctx bounds the start-up, not the server's life.
	cmd := exec.Command(s.java, args...)
	cmd.Dir = work
	r := &run{cmd: cmd, exited: make(chan struct{}), out: &tailBuffer{max: 16 << 10}, work: work}
	w := &teeWriter{tail: r.out, log: s.opts.Log}
	cmd.Stdout, cmd.Stderr = w, w
	detach(cmd)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(work)
		return fmt.Errorf("starting DynamoDB Local: %w", err)
	}
	s.run = r
	go func() {
		r.err = cmd.Wait()
		close(r.exited)
	}()

	if err := s.waitReady(ctx); err != nil {
		_ = s.stopLocked()
		return err
	}
	return nil
}

// waitReady polls ListTables until the server answers, the process exits or
// ctx ends.
func (s *Server) waitReady(ctx context.Context) error {
	r := s.run
	client := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := ping(ctx, client, s.Endpoint()); err == nil {
			return nil
		}
		select {
		case <-r.exited:
			out := r.out.String()
			if strings.Contains(out, "Address already in use") || strings.Contains(out, "BindException") {
				return fmt.Errorf("DynamoDB Local on port %d: %w\n%s", s.port, errPortInUse, out)
			}
			return fmt.Errorf("DynamoDB Local exited (%v) before answering on port %d:\n%s", r.err, s.port, out)
		case <-ctx.Done():
			return fmt.Errorf("DynamoDB Local did not answer on port %d: %w\n%s", s.port, ctx.Err(), r.out.String())
		case <-tick.C:
		}
	}
}

// stopLocked asks the process group to terminate, and kills it if it has
// not exited after a grace period.
func (s *Server) stopLocked() error {
	r := s.run
	if r == nil {
		return nil
	}
	s.run = nil
	defer os.RemoveAll(r.work)

	terminate(r.cmd)
	grace := time.NewTimer(10 * time.Second)
	defer grace.Stop()
	select {
	case <-r.exited:
	case <-grace.C:
		kill(r.cmd)
		<-r.exited
	}
	// Anything java left in its group goes too: no orphans.
	kill(r.cmd)
	return nil
}

// ping sends one ListTables request. DynamoDB Local wants an Authorization
// header but does not check the signature.
func ping(ctx context.Context, client *http.Client, endpoint string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint+"/", strings.NewReader(`{"Limit":1}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=opsdeck/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("TableNames")) {
		return fmt.Errorf("ListTables: HTTP %d: %s", resp.StatusCode, body)
	}
	return nil
}

// freePort asks the kernel for a port unused on every interface (java
// listens on all of them; we only talk to it over loopback).
func freePort() (int, error) {
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func portFree(port int) error {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return fmt.Errorf("DynamoDB Local on port %d: %w (%v)", port, errPortInUse, err)
	}
	return l.Close()
}

// teeWriter copies java's output to the tail buffer and the caller's log.
// A failing log (a closed file) is ignored: an error here would stop the
// copy, java's pipe would fill up and the server would hang.
type teeWriter struct {
	tail *tailBuffer
	log  io.Writer
}

func (t *teeWriter) Write(p []byte) (int, error) {
	t.tail.Write(p)
	if t.log != nil {
		_, _ = t.log.Write(p)
	}
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it; java's output can run
// for hours, the error message needs only its end.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}
