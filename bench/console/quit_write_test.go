//go:build linux

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/internal/dbtest"
)

// heldWrites is a proxy in front of DynamoDB Local that holds every
// UpdateItem until release is closed (arrived says when one is held), and
// an ECS stand-in that counts StopTask.
type heldWrites struct {
	proxy, ecs *httptest.Server
	arrived    chan struct{}
	release    chan struct{}
	mu         sync.Mutex
	stops      []string
}

func newHeldWrites(t *testing.T, backend string) *heldWrites {
	h := &heldWrites{arrived: make(chan struct{}, 4), release: make(chan struct{})}
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	h.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".UpdateItem") {
			h.arrived <- struct{}{}
			<-h.release
		}
		req, _ := http.NewRequestWithContext(context.WithoutCancel(r.Context()), r.Method, backend+r.URL.RequestURI(), bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := client.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	h.ecs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Task string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		h.mu.Lock()
		h.stops = append(h.stops, in.Task)
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		_ = json.NewEncoder(w).Encode(map[string]any{"task": map[string]any{"taskArn": in.Task, "desiredStatus": "STOPPED"}})
	}))
	t.Cleanup(func() {
		select {
		case <-h.release:
		default:
			close(h.release)
		}
		h.proxy.Close()
		h.ecs.Close()
	})
	return h
}

// SIGTERM or SIGHUP while a release's UpdateItem is on its way: the built
// console says it finishes the write and stays; once the write comes back
// it stops the task, writes both audit lines and exits by itself, saying
// what the write came to. It used to exit at once, with no audit line and
// no StopTask.
func TestASignalDuringAWriteFinishesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ops, _ := binaries(t)
	ctx := context.Background()
	dw := dbtest.New(t, dbtest.Options{Tag: "qw"})
	endpoint, conn, tables := dw.Endpoint, dw.Conn, dw.Tables
	var cfg strings.Builder
	cfg.WriteString("tables:\n")
	for _, id := range data.TableIDs() {
		fmt.Fprintf(&cfg, "  %s: %s\n", id, tables.Name(id))
	}
	config := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			id := "sess_" + strings.ReplaceAll(sig.String(), " ", "")[:4]
			task := "arn:aws:ecs:us-east-1:123456789012:task/wallcrawler-browsers/" + id
			now := time.Now().UTC()
			item := data.Item{
				"sessionId": &types.AttributeValueMemberS{Value: id}, "projectId": &types.AttributeValueMemberS{Value: "proj-quit"},
				"status": &types.AttributeValueMemberS{Value: "RUNNING"}, "internalStatus": &types.AttributeValueMemberS{Value: "READY"},
				"createdAt":  &types.AttributeValueMemberS{Value: now.Add(-time.Hour).Format(time.RFC3339)},
				"updatedAt":  &types.AttributeValueMemberS{Value: now.Add(-time.Minute).Format(time.RFC3339)},
				"expiresAt":  &types.AttributeValueMemberN{Value: fmt.Sprint(now.Add(time.Hour).Unix())},
				"ecsTaskArn": &types.AttributeValueMemberS{Value: task},
			}
			if _, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tables.Name(data.TableSessions)), Item: item}); err != nil {
				t.Fatal(err)
			}
			h := newHeldWrites(t, endpoint)
			c := launchEnv(t, "", []string{"AWS_ENDPOINT_URL_ECS=" + h.ecs.URL}, ops, "--endpoint-url", h.proxy.URL, "--config", config)
			if _, err := c.until(tabBar, time.Minute, "tab bar"); err != nil {
				t.Fatal(err)
			}
			c.send(":session " + id + "\r")
			row := func(s *Screen) bool {
				for i := 3; i < rows-2; i++ {
					if l := s.Line(i); strings.Contains(l, id) && strings.Contains(l, "RUNNING") {
						return s.Contains("Sessions · session " + id)
					}
				}
				return false
			}
			if _, err := c.until(row, 30*time.Second, "the session's row"); err != nil {
				t.Fatal(err)
			}
			c.send("x")
			if _, err := c.until(func(s *Screen) bool { return s.Contains("Release session") }, 30*time.Second, "the dialog"); err != nil {
				t.Fatal(err)
			}
			c.send("y")
			select {
			case <-h.arrived:
			case <-time.After(30 * time.Second):
				t.Fatalf("no UpdateItem; screen:\n%s", c.screen())
			}
			c.mu.Lock()
			c.closed = true // it quits by itself; nothing to stop
			c.mu.Unlock()
			exited := make(chan error, 1)
			go func() { exited <- c.cmd.Wait() }()
			_ = c.cmd.Process.Signal(sig)
			if _, err := c.until(func(s *Screen) bool { return s.Contains("finishing 1 write") }, 10*time.Second, "the quit waiting for the write"); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				t.Fatalf("the console exited with the write in flight: %v", err)
			default:
			}
			close(h.release)
			select {
			case err := <-exited:
				if err != nil {
					t.Errorf("exit: %v", err)
				}
			case <-time.After(20 * time.Second):
				_ = c.cmd.Process.Kill()
				t.Fatalf("the console did not exit after its write; screen:\n%s", c.screen())
			}
			// Read to the end before closing: closing the pty's master
			// first drops what the console wrote last (the farewell), and
			// the reader ends by itself once no process holds the terminal.
			select {
			case <-c.done:
			case <-time.After(10 * time.Second):
			}
			c.ptm.Close()
			<-c.done
			if !strings.Contains(string(c.raw), "opsdeck: released "+id) {
				t.Errorf("the terminal was not told what the write came to; it ends %q", c.rawTail())
			}
			entries, err := action.ReadAudit(filepath.Join(c.home, ".local", "state", "opsdeck", "audit.log"), 0)
			if err != nil || len(entries) != 2 || entries[0].Result != "ok" || entries[0].Target != id ||
				entries[1].Step != "stop-ecs-task" || entries[1].Result != "ok" {
				t.Errorf("audit (%v): %+v", err, entries)
			}
			h.mu.Lock()
			stops := append([]string(nil), h.stops...)
			h.mu.Unlock()
			if len(stops) != 1 || stops[0] != task {
				t.Errorf("StopTask sent for %q, want once for %s", stops, task)
			}
		})
	}
}
