package ui

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseCommand(t *testing.T) {
	ok := []struct {
		in   string
		want Command
	}{
		{"sessions", parsed(VerbSessions, "")},
		{"  sessions   proj_1 ", parsed(VerbSessions, "proj_1")},
		{"sessions status=running", parsed(VerbSessions, "", "status", "RUNNING")},
		{"sessions status=WEIRD", parsed(VerbSessions, "", "status", "WEIRD")},
		{"SESSIONS proj_1", parsed(VerbSessions, "proj_1")},
		{"session sess_abc", parsed(VerbSession, "sess_abc")},
		{"runs 12345", parsed(VerbRuns, "12345")},
		{"run c8a91e", parsed(VerbRun, "c8a91e")},
		{"inbox user-1", parsed(VerbInbox, "user-1")},
		{"inbox user-1 type=order.", parsed(VerbInbox, "user-1", "type", "order.")},
		{"inbox status=FAILED user-1", parsed(VerbInbox, "user-1", "status", "failed")},
		{"inbox u type=order. status=fail", parsed(VerbInbox, "u", "type", "order.", "status", "fail")},
		{"delegations did:web:svc", parsed(VerbDelegations, "did:web:svc")},
		{"subscriptions did:mailto:a", parsed(VerbSubscriptions, "did:mailto:a")},
		{"consumers did:key:z6", parsed(VerbConsumers, "did:key:z6")},
		{"sandboxes", parsed(VerbSandboxes, "")},
		{"sandboxes status=Allocated", parsed(VerbSandboxes, "", "status", "allocated")},
		{"sandboxes track=track-1", parsed(VerbSandboxes, "", "track", "track-1")},
		{"sandboxes key=k=v", parsed(VerbSandboxes, "", "key", "k=v")},
		{"stream", parsed(VerbStream, "")},
		{"stream Sessions", parsed(VerbStream, "sessions")},
		{"q", parsed(VerbQuit, "")},
		{"quit", parsed(VerbQuit, "")},
		// An id that contains '=' but is no option (base64 padding).
		{"session YWJj==", parsed(VerbSession, "YWJj==")},
		// Quotes keep spaces inside one argument.
		{`runs "user with space"`, parsed(VerbRuns, "user with space")},
		{`runs "a\"b"`, parsed(VerbRuns, `a"b`)},
	}
	for _, tc := range ok {
		got, err := ParseCommand(tc.in)
		if err != nil {
			t.Errorf("ParseCommand(%q): unexpected error %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCommand(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}

	bad := []struct {
		in, wantErr string
	}{
		{"", "empty command"},
		{"   ", "empty command"},
		{"sesions", "did you mean :sessions"},
		{"frobnicate", "unknown command \"frobnicate\""},
		{"session", ":session needs an argument"},
		{"runs", ":runs needs an argument"},
		{"run", ":run needs an argument"},
		{"inbox", ":inbox needs an argument"},
		{"inbox u type=a type=b", "type= given twice"},
		{"inbox u type=", "type= needs a value"},
		{"inbox u track=x", "unknown attribute \"track\" of events (options: type=, status=)"},
		{"delegations", "needs an argument"},
		{"subscriptions", "needs an argument"},
		{"consumers", "needs an argument"},
		{"sessions p1 p2", "too many arguments"},
		{"sessions foo=bar baz", "too many arguments"},
		{"sessions p1 status=RUNNING", "not both"},
		{"sandboxes status=a track=b", "not both"},
		{"sandboxes status=a status=b", "given twice"},
		{"sandboxes box1", "takes no argument"},
		{"stream nosuchtable", "unknown table \"nosuchtable\""},
		{"q now", "takes no argument"},
		{"session x status=RUNNING", "takes no options"},
		{`runs "open`, "unterminated quote"},
		// Hostile input is reported inert, never echoed raw.
		{"\x1b[2Jevil", `unknown command "\x1b[2Jevil"`},
	}
	for _, tc := range bad {
		_, err := ParseCommand(tc.in)
		if err == nil {
			t.Errorf("ParseCommand(%q): want error containing %q, got none", tc.in, tc.wantErr)
			continue
		}
		if !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseCommand(%q) error = %q, want it to contain %q", tc.in, err, tc.wantErr)
		}
		if strings.ContainsAny(err.Error(), "\x1b\n") {
			t.Errorf("ParseCommand(%q) error is not one inert line: %q", tc.in, err)
		}
	}
}

func TestComplete(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"se", []string{"session", "sessions"}},
		{"sa", []string{"sandbox", "sandboxes"}},
		{"sandboxes st", []string{"sandboxes status="}},
		{"sandboxes status=a", []string{"sandboxes status=allocated", "sandboxes status=available"}},
		{"sandboxes status=al", []string{"sandboxes status=allocated"}},
		{"sessions status=R", []string{"sessions status=RUNNING"}},
		{"stream s", []string{"stream sandboxes", "stream sessions", "stream subscriptions"}},
		{"runs u", []string{"runs u1", "runs u2"}},
		{"nosuch x", nil},
	}
	ids := func(v Verb, _ int) []string {
		if v == "runs" {
			return []string{"u2", "u1", "x9"}
		}
		return nil
	}
	for _, tc := range cases {
		got := Complete(tc.in, ids)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Complete(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCompletionQuotesWhatTheTokenizerWouldSplit: an id with a space, a
// newline or a quote is completed in quotes and parses back unchanged.
func TestCompletionQuotesWhatTheTokenizerWouldSplit(t *testing.T) {
	for _, id := range []string{"sess plain", "sess\nline", `sess"q`, "sess_\u202eok", "sess\u2028sep"} {
		ids := func(Verb, int) []string { return []string{id} }
		got := Complete("session ", ids)
		if len(got) != 1 {
			t.Fatalf("%q: completions %q", id, got)
		}
		cmd, err := ParseCommand(got[0])
		if err != nil || cmd.Arg != id {
			t.Fatalf("%q: completed to %q, parsed back as %q (%v)", id, got[0], cmd.Arg, err)
		}
	}
}
