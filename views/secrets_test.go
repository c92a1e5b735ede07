package views

import (
	"strings"
	"testing"
)

func TestMaskSecret(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZXNzXzEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
	cases := []struct {
		path   []string
		value  string
		secret bool
		hidden []string // must not appear in the masked form
		kept   []string // must still appear (useful for diagnosis)
	}{
		{[]string{"signingKey"}, jwt, true, []string{jwt[:10]}, nil},
		{[]string{"connectUrl"}, "wss://connect.example/v1/sessions/sess_1/cdp?token=" + jwt + "&x=1",
			true, []string{jwt[:10], "x=1"}, []string{"wss://connect.example/v1/sessions/sess_1/cdp", "token="}},
		{[]string{"seleniumRemoteUrl"}, "https://user:hunter2hunter2@grid.example:4444/wd/hub",
			true, []string{"hunter2"}, []string{"grid.example:4444/wd/hub", "user"}},
		{[]string{"connectUrl"}, "wss://connect.example/devtools/" + jwt, true, []string{jwt[:10]}, []string{"/devtools/"}},
		// Unparseable (control characters): masked whole.
		{[]string{"connectUrl"}, "wss://x/\x1b[2J?token=abcdefabcdef", true, []string{"abcdefabcdef"}, nil},
		// Nested copies (eventHistory envelopes) are masked by name too.
		{[]string{"eventHistory", "[0]", "detail", "signingKey"}, "secret-value", true, []string{"secret-value"}, nil},
		{[]string{"connectUrl"}, "wss://connect.example/v1/sessions/sess_1", false, nil, nil},
		{[]string{"projectId"}, "proj_1", false, nil, nil},
		{[]string{"signingKey"}, "", false, nil, nil},
	}
	for _, c := range cases {
		got, secret := MaskSecret(c.path, c.value)
		if secret != c.secret {
			t.Errorf("MaskSecret(%v, %q) secret = %v, want %v", c.path, c.value, secret, c.secret)
			continue
		}
		if !secret && got != c.value {
			t.Errorf("MaskSecret(%v) changed a non-secret: %q", c.path, got)
		}
		for _, h := range c.hidden {
			if strings.Contains(got, h) {
				t.Errorf("MaskSecret(%v) = %q still shows %q", c.path, got, h)
			}
		}
		for _, k := range c.kept {
			if !strings.Contains(got, k) {
				t.Errorf("MaskSecret(%v) = %q lost %q", c.path, got, k)
			}
		}
	}
}
