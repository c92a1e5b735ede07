package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

func seenItem(kv ...string) data.Item {
	it := data.Item{}
	for i := 0; i+1 < len(kv); i += 2 {
		it[kv[i]] = &types.AttributeValueMemberS{Value: kv[i+1]}
	}
	return it
}

func TestSeenCollectsIdsByKind(t *testing.T) {
	s := NewSeen()
	s.Items(data.TableSessions, []data.Item{
		seenItem("sessionId", "sess-1", "projectId", "proj-a", "status", "RUNNING"),
		seenItem("sessionId", "sess-2", "projectId", "proj-b", "status", "RUNNING"),
	})
	s.Items(data.TableGraphRuns, []data.Item{seenItem("PK", "USER#u-7", "SK", "RUN#r-1", "runId", "r-1")})
	s.Items(data.TableEvents, []data.Item{seenItem("user_id", "u-inbox", "timestamp#event_id", "1#e", "event_id", "e", "event_type", "order.created")})
	s.Items(data.TableSandboxes, []data.Item{seenItem("PK", "SANDBOX#sb-1", "SK", "META", "sandbox_id", "sb-1", "allocated_to_track", "net-101", "idempotency_key", "idem-9")})
	s.Items(data.TableDelegations, []data.Item{seenItem("link", "bafy1", "audience", "did:key:aud")})
	s.Items(data.TableSubscriptions, []data.Item{seenItem("subscription", "sub", "provider", "did:web:p", "customer", "did:mailto:c")})
	s.Items(data.TableConsumers, []data.Item{seenItem("subscription", "sub", "provider", "did:web:p", "consumer", "did:key:cons")})

	for _, tc := range []struct {
		k    IDKind
		want string
	}{
		{data.KindSession, "sess-2,sess-1"}, // newest first
		{data.KindProject, "proj-b,proj-a"},
		{data.KindRunUser, "u-7"},
		{data.KindRun, "r-1"},
		{data.KindInboxUser, "u-inbox"},
		{data.KindEventType, "order.created"},
		{data.KindTrack, "net-101"},
		{data.KindSandbox, "idem-9"},
		{data.KindAudience, "did:key:aud"},
		{data.KindCustomer, "did:mailto:c"},
		{data.KindConsumer, "did:key:cons"},
	} {
		if got := strings.Join(s.Values(tc.k, "", 0), ","); got != tc.want {
			t.Errorf("kind %q: %q, want %q", tc.k, got, tc.want)
		}
	}
	if got := s.Values(data.KindSession, "SESS-1", 0); len(got) != 1 || got[0] != "sess-1" {
		t.Errorf("prefix, case ignored: %q", got)
	}
	// Seen again: newest again.
	s.Items(data.TableSessions, []data.Item{seenItem("sessionId", "sess-1", "projectId", "proj-a")})
	if got := strings.Join(s.Values(data.KindSession, "", 0), ","); got != "sess-1,sess-2" {
		t.Errorf("after re-seeing sess-1: %s", got)
	}
}

func TestSeenNeverKeepsSecrets(t *testing.T) {
	s := NewSeen()
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	s.Items(data.TableSessions, []data.Item{
		seenItem("sessionId", jwt, "projectId", "https://u:hunter2@example.com/p"),
		seenItem("sessionId", "sess-\x1b[2J", "projectId", "proj\u202e"),
		seenItem("sessionId", "sess-ok", "projectId", "Bearer abcdefghijklmnopqrstuvwxyz0123"),
		seenItem("sessionId", "bad\xff"),
	})
	// Control and invisible characters are kept (the command line shows
	// them inert: completion is how an untypeable id is reached); tokens
	// never.
	if got := s.Values(data.KindSession, "", 0); strings.Join(got, ",") != "bad\xff,sess-ok,sess-\x1b[2J" {
		t.Fatalf("sessions kept: %q", got)
	}
	if got := s.Values(data.KindProject, "", 0); strings.Join(got, ",") != "proj\u202e" {
		t.Fatalf("projects kept: %q", got)
	}
	s.Add(data.KindRun, jwt)
	if got := s.Values(data.KindRun, "", 0); len(got) != 0 {
		t.Fatalf("Add kept a token: %q", got)
	}
}

func TestSeenIsBounded(t *testing.T) {
	s := NewSeen()
	for i := 0; i < SeenPerKind+50; i++ {
		s.Add(data.KindRun, fmt.Sprintf("r-%04d", i))
	}
	got := s.Values(data.KindRun, "", 0)
	if len(got) != SeenPerKind || got[0] != fmt.Sprintf("r-%04d", SeenPerKind+49) || got[len(got)-1] != "r-0050" {
		t.Fatalf("%d kept, newest %q, oldest %q", len(got), got[0], got[len(got)-1])
	}
	if got := s.Values(data.KindRun, "", 3); len(got) != 3 {
		t.Fatalf("limit: %d", len(got))
	}
	var nilSeen *Seen
	nilSeen.Add(data.KindRun, "x") // no panic
	if nilSeen.Values(data.KindRun, "", 0) != nil {
		t.Fatal("nil Seen has values")
	}
}

// Every attribute the index reads is one the table's schema documents, so
// a renamed attribute cannot silently empty completion.
func TestSeenAttributesAreInTheSchema(t *testing.T) {
	for _, d := range data.Descriptors() {
		s := d.Schema
		for _, a := range d.IDs {
			if _, ok := s.Attrs[a.Attr]; !ok && s.PK.Name != a.Attr {
				t.Errorf("%s: %q is not in the schema", s.ID, a.Attr)
			}
		}
	}
}

// TestSeenPageKeepsOrderAndNewest: a page adds its values in the page's
// order (the last row newest), each once, and a page with more distinct
// values than a kind keeps leaves its newest ones.
func TestSeenPageKeepsOrderAndNewest(t *testing.T) {
	s := NewSeen()
	s.Add(data.KindProject, "proj_old")
	var page []data.Item
	for i := range SeenPerKind + 100 {
		page = append(page, seenItem("sessionId", fmt.Sprintf("sess_%04d", i), "projectId", "proj_big"))
	}
	page = append(page, seenItem("sessionId", "sess_0000", "projectId", "proj_old")) // seen again, last
	s.Items(data.TableSessions, page)
	if got := s.Values(data.KindProject, "", 0); len(got) != 2 || got[0] != "proj_old" || got[1] != "proj_big" {
		t.Fatalf("projects newest first: %q, want [proj_old proj_big]", got)
	}
	got := s.Values(data.KindSession, "", 0)
	if len(got) != SeenPerKind || got[0] != "sess_0000" || got[1] != fmt.Sprintf("sess_%04d", SeenPerKind+99) || got[len(got)-1] != "sess_0101" {
		t.Fatalf("%d sessions kept, newest %q, %q, oldest %q", len(got), got[0], got[1], got[len(got)-1])
	}
}

// BenchmarkSeenPage is one load-all page (1,000 sessions of one project)
// passing through the index: it runs on the reading goroutine of every
// page, so it must stay small beside the page's own decoding.
func BenchmarkSeenPage(b *testing.B) {
	page := make([]data.Item, 1000)
	for i := range page {
		page[i] = seenItem("sessionId", fmt.Sprintf("sess_%06d", i), "projectId", "bench-100k")
	}
	s := NewSeen()
	for b.Loop() {
		s.Items(data.TableSessions, page)
	}
}
