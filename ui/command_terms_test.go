package ui

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
	"opsdeck/views"
)

// Comparison terms after the argument are kept as typed; an option of the
// command stays an option; a term never stands for the argument; a bad
// term is an error with the usage.
func TestParseTerms(t *testing.T) {
	cmd, err := ParseCommand(`table orders status=open total>100 created=now-1d..now index=by-status`)
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Arg != "orders" || !equalTerms(cmd.TermList(), "status=open", "total>100", "created=now-1d..now", "index=by-status") {
		t.Fatalf("parsed %+v", cmd.Args)
	}
	cmd, err = ParseCommand("inbox u-1 status=failed ttl<now")
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Opt("status") != "failed" || !equalTerms(cmd.TermList(), "ttl<now") {
		t.Fatalf("inbox parsed %+v", cmd.Args)
	}
	// A quoted value keeps its quotes for the term parser, which reads
	// them as "a string, even if it looks like a number"; quoted spaces
	// stay in one term.
	cmd, err = ParseCommand(`table orders ref="100" note="a b" total>5`)
	if err != nil {
		t.Fatal(err)
	}
	if !equalTerms(cmd.TermList(), `ref="100"`, `note="a b"`, "total>5") {
		t.Fatalf("quoted terms parsed %q", cmd.TermList())
	}
	for i, want := range []bool{true, true, false} {
		term, err := data.ParseTerm(cmd.TermList()[i], time.Now())
		if err != nil || term.Quoted != want {
			t.Errorf("term %q: quoted %v, want %v (%v)", cmd.TermList()[i], term.Quoted, want, err)
		}
	}
	// An id holding '=' is still the argument: terms come after it.
	cmd, err = ParseCommand("runs dXNlcg==")
	if err != nil || cmd.Arg != "dXNlcg==" || len(cmd.TermList()) != 0 {
		t.Fatalf("runs dXNlcg==: %+v %v", cmd.Args, err)
	}
	for _, c := range []struct{ line, want string }{
		{"table orders total>now-1x", "unit must be"},
		{"table orders =5", "no attribute"},
		{"runs u-1 colour=red", `unknown attribute "colour" of graph-runs`},
		{"table orders " + strings.Repeat("a=1 ", views.MaxTerms+1), "at most"},
		{"sessions p-1 status<x", "too many arguments"}, // :sessions takes no terms
	} {
		_, err := ParseCommand(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "usage:") {
			t.Errorf("%q: error %v, want %q and the usage", c.line, err, c.want)
		}
	}
}

func equalTerms(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}
