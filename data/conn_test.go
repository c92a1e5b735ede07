package data

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"opsdeck/demo/ddblocal"
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

// OnCall hears of every call with its service, operation and outcome, and
// of the credentials lookup once (later lookups come from the cache).
func TestOnCallReportsEachCall(t *testing.T) {
	var mu sync.Mutex
	var calls []Call
	conn, err := Connect(context.Background(), ConnOptions{
		Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1",
		OnCall: func(c Call) {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, c)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := conn.DB.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	_, missing := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("no-such-table-oncall")})
	if missing == nil {
		t.Fatal("DescribeTable of a missing table succeeded")
	}
	if _, err := conn.Streams.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, c := range calls {
		s := c.Service + "/" + c.Op
		if c.Err != nil {
			s += " failed"
		}
		if c.Took <= 0 || c.Start.IsZero() {
			t.Errorf("%s: start %v, took %v", s, c.Start, c.Took)
		}
		got = append(got, s)
	}
	want := []string{"/credentials", "DynamoDB/ListTables", "DynamoDB/DescribeTable failed", "DynamoDB Streams/ListStreams"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("calls reported:\n got %v\nwant %v", got, want)
	}
}

// TestLazyClientRetriesAFailure: a client that could not be built (its
// configuration failed to load) is tried again on the next use; one that
// was built is kept.
func TestLazyClientRetriesAFailure(t *testing.T) {
	calls := 0
	get := lazyClient(func() (*int, error) {
		calls++
		if calls == 1 {
			return nil, errors.New("token expired")
		}
		v := calls
		return &v, nil
	})
	if _, err := get(); err == nil {
		t.Fatal("the first build failed, no error returned")
	}
	a, err := get()
	if err != nil {
		t.Fatalf("not retried: %v", err)
	}
	b, _ := get()
	if a != b || calls != 2 {
		t.Fatalf("built %d times, want 2 (a success is kept)", calls)
	}
}
