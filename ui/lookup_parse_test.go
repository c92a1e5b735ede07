package ui

import (
	"strings"
	"testing"

	"opsdeck/views"
)

// TestLookupCommandsParse: the lookup commands' specs, checked without a
// database — two positional arguments for :event, an argument or a
// provider= for :subscriptions and :consumers (never neither), and each
// usage on the help's list.
func TestLookupCommandsParse(t *testing.T) {
	ok := []struct {
		line string
		want Command
	}{
		{"event u1 2025-11-11T10:00:00Z#e1", Command{Verb: "event", Args: views.Args{Arg: "u1", Arg2: "2025-11-11T10:00:00Z#e1"}}},
		{"event u1 550e8400", Command{Verb: "event", Args: views.Args{Arg: "u1", Arg2: "550e8400"}}},
		{"subscriptions did:mailto:c provider=did:web:p", Command{Verb: "subscriptions", Args: views.Args{Arg: "did:mailto:c", Opts: [views.MaxOpts]views.Opt{{Key: "provider", Value: "did:web:p"}}}}},
		{"subscriptions provider=did:web:p", Command{Verb: "subscriptions", Args: views.Args{Opts: [views.MaxOpts]views.Opt{{Key: "provider", Value: "did:web:p"}}}}},
		{"subscriptions did:mailto:c", Command{Verb: "subscriptions", Args: views.Args{Arg: "did:mailto:c"}}},
		{"consumers provider=did:web:p", Command{Verb: "consumers", Args: views.Args{Opts: [views.MaxOpts]views.Opt{{Key: "provider", Value: "did:web:p"}}}}},
		{"subscription s-1", Command{Verb: "subscription", Args: views.Args{Arg: "s-1"}}},
		{"apikey ab12", Command{Verb: "apikey", Args: views.Args{Arg: "ab12"}}},
		{"context ctx_1", Command{Verb: "context", Args: views.Args{Arg: "ctx_1"}}},
		{"project p_1", Command{Verb: "project", Args: views.Args{Arg: "p_1"}}},
		{"sandbox abc", Command{Verb: "sandbox", Args: views.Args{Arg: "abc"}}},
		{"delegation bafy", Command{Verb: "delegation", Args: views.Args{Arg: "bafy"}}},
	}
	for _, tc := range ok {
		got, err := ParseCommand(tc.line)
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
	}
	bad := []struct{ line, says string }{
		{"event u1", ":event needs a second argument — usage: :event <userId> <sortKey|eventId>"},
		{"event u1 k extra", "too many arguments"},
		{"subscriptions", ":subscriptions needs an argument or an option"},
		{"consumers", ":consumers needs an argument or an option"},
		{"consumers did:key:z provider=did:web:p", "give a consumer or provider=, not both"},
		{"subscriptions c provider=", "provider= needs a value"},
		{"sandbox", ":sandbox needs an argument"},
	}
	for _, tc := range bad {
		_, err := ParseCommand(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: error %v, want %q", tc.line, err, tc.says)
		}
	}
	usages := strings.Join(Usage(), "\n")
	for _, u := range []string{":event <userId> <sortKey|eventId>", ":sandbox <sandbox_id>", ":delegation <link>",
		":apikey <apiKeyHash>", ":context <contextId>", ":project <projectId>",
		":subscriptions [customer] [provider=<did>]", ":subscription <subscription>", ":consumers <consumer>|provider=<did>"} {
		if !strings.Contains(usages, u) {
			t.Errorf("%s is not in the help's usage lines", u)
		}
	}
}
