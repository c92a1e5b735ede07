package main

import (
	"strings"
	"testing"
)

// A malformed --endpoint-url is a startup error that names the flag, never
// an SDK error on every call once the console is up; and the message never
// repeats a password given in it.
func TestEndpointFlagIsCheckedAtStartup(t *testing.T) {
	bad := []struct{ value, want string }{
		{"localhost:8000", "--endpoint-url: \"localhost:8000\" must start with http:// or https://"},
		{"ftp://127.0.0.1:8000", "must start with http:// or https://"},
		{"http://", "has no host"},
		{"http://:8000", "has no host"},
		{"http://127.0.0.1:80 00", "--endpoint-url: the value given is not a URL"},
		{"http://127.0.0.1:8000/?x=1", "must not carry a query"},
		{"http://user:hunter2@127.0.0.1:8000/?x=1", `--endpoint-url: "http://***@127.0.0.1:8000/?x=1" must not carry a query`},
		{"http://user:hunter2@[::1", "--endpoint-url: the value given is not a URL"},
	}
	for _, tc := range bad {
		_, err := parseFlags([]string{"--endpoint-url", tc.value})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want …%s…", tc.value, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: the error shows the password: %v", tc.value, err)
		}
	}
	for _, ok := range []string{"http://127.0.0.1:8000", "https://dynamodb.eu-west-1.amazonaws.com", "http://u:p@localhost:8000/"} {
		if _, err := parseFlags([]string{"--endpoint-url", ok}); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}
