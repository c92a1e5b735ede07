package data

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Credentials in an endpoint URL never leave Connect: the Conn keeps the
// redacted form, and everything that shows or logs where it points (the
// status bar, error lines, the audit log) reads that.
func TestEndpointCredentialsAreRedacted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Connect(ctx, ConnOptions{Endpoint: "http://opsuser:hunter2@127.0.0.1:1", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]string{"Target": conn.Target(), "Endpoint": conn.Endpoint, "StreamsEndpoint": conn.StreamsEndpoint} {
		if got != "http://***@127.0.0.1:1" {
			t.Errorf("%s = %q, want the URL without its user information", what, got)
		}
	}
	// Port 1 refuses the connection: the error line names the endpoint
	// without the user or the password.
	_, err = conn.DB.ListTables(ctx, &dynamodb.ListTablesInput{})
	line := Describe(&OpError{Op: "ListTables", Endpoint: conn.Target(), Err: err})
	if err == nil || !strings.Contains(line, "127.0.0.1:1") || strings.Contains(line, "hunter2") || strings.Contains(line, "opsuser") {
		t.Errorf("Describe = %q", line)
	}
	// Even the raw SDK text, when Describe has nothing better, is scrubbed.
	raw := errors.New(`Post "http://tok3n@10.0.0.1:8000/": EOF`)
	if got := Describe(raw); strings.Contains(got, "tok3n") || !strings.Contains(got, "http://***@10.0.0.1:8000/") {
		t.Errorf("Describe(raw) = %q", got)
	}
}

// A malformed endpoint from the environment is refused by Connect, naming
// the variable, instead of failing every call later.
func TestConnectRefusesAMalformedEndpoint(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS", "")
	t.Setenv("AWS_ENDPOINT_URL", "localhost:8000")
	_, err := Connect(context.Background(), ConnOptions{Region: "us-east-1"})
	if err == nil || !strings.HasPrefix(err.Error(), "AWS_ENDPOINT_URL: ") || !strings.Contains(err.Error(), "http://") {
		t.Errorf("got %v", err)
	}
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB_STREAMS", "http://a:secret@")
	_, err = Connect(context.Background(), ConnOptions{Region: "us-east-1"})
	if err == nil || !strings.HasPrefix(err.Error(), "AWS_ENDPOINT_URL_DYNAMODB_STREAMS: ") || strings.Contains(err.Error(), "secret") {
		t.Errorf("got %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "",
		"http://127.0.0.1:8000":            "http://127.0.0.1:8000",
		"http://u:p@127.0.0.1:8000/x":      "http://***@127.0.0.1:8000/x",
		"https://token@dynamo.example/":    "https://***@dynamo.example/",
		"http://u:p@[::1":                  "(unreadable URL)",
		"secret-pasted-in-the-wrong-place": "(unreadable URL)",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
