package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/demo/ddblocal"
)

// helperProfile writes script as an executable helper and an AWS config
// file whose profile "helper" runs it as credential_process, and points
// the SDK at that file alone.
func helperProfile(t *testing.T, script string) (path string) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "helper.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config")
	body := fmt.Sprintf("[profile helper]\nregion = us-east-1\ncredential_process = %s --token s3cr3t\n", path)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "none"))
	for _, k := range []string{"AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB"} {
		t.Setenv(k, "")
	}
	return path
}

const helperCreds = `printf '{"Version":1,"AccessKeyId":"AKIDHELPER","SecretAccessKey":"helper-secret"}\n'`

// outputs collects what OnCredentialProcess hears.
type outputs struct {
	mu  sync.Mutex
	got []CredentialProcessOutput
}

func (o *outputs) add(out CredentialProcessOutput) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.got = append(o.got, out)
}

func (o *outputs) all() []CredentialProcessOutput {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]CredentialProcessOutput(nil), o.got...)
}

// swapStdio replaces os.Stdin with a pipe holding "intruder" and os.Stderr
// with a pipe whose contents are returned by the func it gives back: what
// the SDK's own runner would have passed to the helper.
func swapStdio(t *testing.T) (stderrText func() string) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inW.WriteString("intruder\n"); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	oldIn, oldErr := os.Stdin, os.Stderr
	os.Stdin, os.Stderr = inR, errW
	var once sync.Once
	var text string
	restore := func() {
		once.Do(func() {
			os.Stdin, os.Stderr = oldIn, oldErr
			errW.Close()
			b, _ := io.ReadAll(errR)
			text = string(b)
			inR.Close()
			errR.Close()
		})
	}
	t.Cleanup(restore)
	return func() string { restore(); return text }
}

// A helper's stderr (a title escape, a clear-screen, a warning) is kept
// and handed over escaped; nothing reaches our stderr; its stdin is not
// ours (it reads EOF, not the "intruder" on our stdin); and the call that
// needed its credentials succeeds against DynamoDB Local.
func TestCredentialProcessStderrCapturedAndInert(t *testing.T) {
	endpoint := ddblocal.TestEndpoint(t)
	helperProfile(t, `IFS= read -r line; rc=$?
printf '\033]0;pwned\007\033[2Jwarning: ExpiredToken soon\n' >&2
printf 'stdin=[%s] rc=%s\n' "$line" "$rc" >&2
`+helperCreds+"\n")
	ourStderr := swapStdio(t)
	var heard outputs
	var debug strings.Builder
	conn, err := Connect(context.Background(), ConnOptions{Profile: "helper", Endpoint: endpoint, OnCredentialProcess: heard.add, DebugLog: &debug})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{Limit: awsInt32(1)}); err != nil {
		t.Fatalf("call with the helper's credentials: %v", err)
	}
	if s := ourStderr(); s != "" {
		t.Errorf("the helper wrote to our stderr: %q", s)
	}
	got := heard.all()
	if len(got) != 1 {
		t.Fatalf("OnCredentialProcess heard %d runs, want 1 (the provider must have run): %+v", len(got), got)
	}
	out := got[0]
	if out.Err != nil || out.Profile != "helper" || !strings.HasSuffix(out.Program, "helper.sh") {
		t.Errorf("output = %+v", out)
	}
	if strings.Contains(out.Program, "s3cr3t") || strings.Contains(out.Stderr, "s3cr3t") {
		t.Errorf("the command's arguments are shown: %+v", out)
	}
	if !strings.Contains(out.Stderr, `\x1b]0;pwned\x07\x1b[2Jwarning: ExpiredToken soon`) {
		t.Errorf("stderr = %q, want the escapes made visible and the warning kept", out.Stderr)
	}
	if strings.ContainsAny(out.Stderr, "\x1b\a\n") {
		t.Errorf("stderr is not inert: %q", out.Stderr)
	}
	if !strings.Contains(debug.String(), "ExpiredToken soon") || strings.Contains(debug.String(), "\x1b") {
		t.Errorf("debug log = %q, want the helper's stderr there, inert", debug.String())
	}
	if !strings.Contains(out.Stderr, `stdin=[] rc=1`) {
		t.Errorf("the helper's stdin was not empty (EOF at once): %q", out.Stderr)
	}
}

// A helper that fails is named (profile and program, not its arguments)
// with its last stderr line, in the error of the call that needed it.
func TestCredentialProcessFailureNamesCommandAndLastLine(t *testing.T) {
	path := helperProfile(t, `echo "looking up token" >&2
printf 'token expired: run \033[31mhelper login\033[0m\n\n' >&2
exit 1
`)
	var heard outputs
	// Never contacted: credentials fail first. No database needed.
	conn, err := Connect(context.Background(), ConnOptions{Profile: "helper", Endpoint: "http://127.0.0.1:9", OnCredentialProcess: heard.add})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	if err == nil {
		t.Fatal("ListTables succeeded with a failing helper")
	}
	want := fmt.Sprintf(`credential_process of profile "helper" (%s) failed: exit status 1: token expired: run \x1b[31mhelper login\x1b[0m`, path)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v\nwant it to contain %s", err, want)
	}
	if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("error shows the arguments or a raw escape: %q", err)
	}
	got := heard.all()
	if len(got) != 1 || got[0].Err == nil || !strings.Contains(got[0].Stderr, `looking up token\ntoken expired`) {
		t.Errorf("OnCredentialProcess heard %+v", got)
	}
}

// A hung helper (and the child it started) is killed when the connection
// is closed, and the call waiting on it fails saying so.
func TestCredentialProcessKilledOnClose(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pids")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	helperProfile(t, fmt.Sprintf(`sleep 1000 &
echo "$$ $!" > %s
wait
`, fifo))
	conn, err := Connect(context.Background(), ConnOptions{Profile: "helper", Endpoint: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{})
		done <- err
	}()
	// Opening the FIFO blocks until the helper opens it to write: then it
	// is running and has started its child.
	b, err := os.ReadFile(fifo)
	if err != nil {
		t.Fatal(err)
	}
	var shPID, childPID int
	if _, err := fmt.Sscan(string(b), &shPID, &childPID); err != nil {
		t.Fatalf("pids %q: %v", b, err)
	}
	if !alive(childPID) {
		t.Fatalf("child %d not running before Close", childPID)
	}
	conn.Close()
	err = <-done
	if err == nil || !strings.Contains(err.Error(), "stopped: the connection was closed") {
		t.Errorf("ListTables after Close: %v", err)
	}
	// The shell was waited for when the call returned; its child was sent
	// SIGKILL with the group and dies as soon as it is scheduled.
	if alive(shPID) {
		t.Errorf("helper %d still running", shPID)
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(childPID) {
		if time.Now().After(deadline) {
			t.Fatalf("the helper's child %d outlived Close", childPID)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A later lookup fails at once rather than starting another helper.
	if _, err := conn.DB.ListTables(context.Background(), &dynamodb.ListTablesInput{}); err == nil || !strings.Contains(err.Error(), "connection was closed") {
		t.Errorf("ListTables on a closed connection: %v", err)
	}
}

// alive reports whether pid is a process that is neither gone nor a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func awsInt32(v int32) *int32 { return &v }
