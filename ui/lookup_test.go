package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"opsdeck/data"
	"opsdeck/views"
)

// The lookups by id, driven through the root model as an operator types
// them: each opens the pane that owns the table with exactly the item (or
// the records under the key) the id names, read by the query its
// document names, and an id that is not there says so plainly.

// firstOf reads one page of scope s from the world and returns its
// records: the tests take their ids from the demo data, never invent them.
func firstOf(t *testing.T, w world, s data.Scope) []data.Record {
	t.Helper()
	p, err := data.NewStore(w.conn, w.tables).Page(context.Background(), s, data.PageRequest{})
	if err != nil {
		t.Fatal(data.Describe(err))
	}
	if len(p.Items) == 0 {
		t.Fatalf("the demo world has nothing in %s", s)
	}
	return p.Items
}

// rowsOf walks every loaded row of the shown pane and returns attr of each.
func rowsOf(t *testing.T, m Model, attrName string) []string {
	t.Helper()
	p := m.slotOf(m.Active())
	n := p.Status().Rows
	m, _ = press(t, m, "g")
	var out []string
	for i := 0; i < n; i++ {
		it, ok := p.sel.Selected()
		if !ok {
			t.Fatalf("row %d not selectable", i)
		}
		out = append(out, attr(it, attrName))
		m, _ = press(t, m, "j")
	}
	return out
}

// lookupCase: a command line, the pane it must open, the title it must
// show, and the attribute whose value every row must have.
type lookupCase struct {
	line  string
	pane  views.PaneID
	title string
	attr  string
	want  []string // the attr of every row, in any order
}

func runLookup(t *testing.T, m Model, w world, tc lookupCase) Model {
	t.Helper()
	m, _ = runLine(t, m, tc.line)
	if f := m.Flash(); f != "" && strings.Contains(f, "usage") {
		t.Fatalf(":%s: %s", tc.line, f)
	}
	if m.Active() != tc.pane {
		t.Fatalf(":%s opened %s, want %s", tc.line, m.Active().Name(), tc.pane.Name())
	}
	if got := m.Pane(tc.pane).Title(); got != tc.title {
		t.Errorf(":%s: title %q, want %q", tc.line, got, tc.title)
	}
	if st := m.Pane(tc.pane).Status(); st.Err != "" {
		t.Fatalf(":%s: %s", tc.line, st.Err)
	}
	got := rowsOf(t, m, tc.attr)
	slices.Sort(got)
	want := slices.Clone(tc.want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf(":%s: rows with %s %q, want %q\n%s", tc.line, tc.attr, got, want, screen(m, w.prefix))
	}
	return m
}

func TestLookupsOpenTheirItemInTheOwningPane(t *testing.T) {
	w := seeded(t)
	d := w.rep.Defaults
	key := firstOf(t, w, data.APIKeysByProject(d.SessionsProject))[0].(data.APIKey)
	ctxRec := firstOf(t, w, data.ContextsOfProject(d.SessionsProject))[0].(data.BrowserContext)
	events := firstOf(t, w, data.EventsByUser(d.InboxUser))
	ev := events[len(events)-1].(data.Event) // not the newest: found by reading on
	sbx := firstOf(t, w, data.SandboxesByStatus(data.SandboxAllocated))[0].(data.Sandbox)
	link := firstOf(t, w, data.DelegationsByAudience(d.Audience))[0].(data.Delegation).Link
	sub := firstOf(t, w, data.SubscriptionsByCustomer(d.Customer))[0].(data.Subscription)

	m := start(t, w.options(), 140, 30)
	for _, tc := range []lookupCase{
		{"apikey " + key.APIKeyHash, views.PaneSessions, "API keys · key " + key.APIKeyHash, "apiKeyHash", []string{key.APIKeyHash}},
		{"context " + ctxRec.ContextID, views.PaneSessions, "Contexts · context " + ctxRec.ContextID, "contextId", []string{ctxRec.ContextID}},
		{"project " + d.SessionsProject, views.PaneSessions, "Project · " + d.SessionsProject, "projectId", []string{d.SessionsProject}},
		{"event " + d.InboxUser + " " + ev.EventID, views.PaneInbox, "Inbox · user " + d.InboxUser + " · event " + ev.EventID, "event_id", []string{ev.EventID}},
		{"event " + d.InboxUser + " " + ev.SortKey, views.PaneInbox, "Inbox · user " + d.InboxUser + " · event " + ev.SortKey, "timestamp#event_id", []string{ev.SortKey}},
		{"sandbox " + sbx.SandboxID, views.PaneSandboxes, "Sandbox · " + sbx.SandboxID, "sandbox_id", []string{sbx.SandboxID}},
		{"delegation " + link, views.PaneDelegations, "Delegation · " + link, "link", []string{link}},
		{"subscription " + sub.Subscription, views.PaneDelegations, "Subscription · " + sub.Subscription, "subscription", []string{sub.Subscription}},
	} {
		m = runLookup(t, m, w, tc)
	}

	// :project also puts the project in scope: the quota header is its,
	// and the other sub-views list its sessions, keys and contexts.
	m, _ = runLine(t, m, "project "+d.SessionsProject)
	if out := screen(m, w.prefix); !strings.Contains(out, "project "+d.SessionsProject+" · ") || !strings.Contains(out, "running / quota") {
		t.Errorf(":project: no quota header for the project:\n%s", out)
	}
	m, _ = press(t, m, "v")
	if got := m.slotOf(views.PaneSessions).Title(); got != "Sessions · project "+d.SessionsProject {
		t.Errorf("after :project, the next sub-view is %q", got)
	}
}

// TestLookupOfAMissingIDSaysSo: an id no item has leaves an empty table
// that names the id and what was looked for — not "no rows", not an
// error, and never a scan.
func TestLookupOfAMissingIDSaysSo(t *testing.T) {
	w := seeded(t)
	log := &queryLog{}
	m := start(t, w.withClient(t, log), 140, 30)
	d := w.rep.Defaults
	for _, tc := range []struct{ line, says string }{
		{"apikey " + strings.Repeat("0", 56) + "0000beef", "no API key with hash " + strings.Repeat("0", 56) + "0000beef"},
		{"context ctx_nope", "no browser context with id ctx_nope"},
		{"project proj_nope", "no project with id proj_nope"},
		{"event " + d.InboxUser + " 00000000-0000-4000-8000-000000000000", "no event 00000000-0000-4000-8000-000000000000 for user " + d.InboxUser},
		{"event " + d.InboxUser + " 2020-01-01T00:00:00.000000Z#x", "no event with key 2020-01-01T00:00:00.000000Z#x for user " + d.InboxUser},
		{"sandbox sbx-nope", "no sandbox with id sbx-nope"},
		{"delegation bafy-nope", "no delegation with link bafy-nope"},
		{"subscription sub-nope", "no subscription sub-nope"},
		{"subscriptions provider=did:web:nope", "no subscriptions with provider did:web:nope"},
		{"consumers provider=did:web:nope", "no consumers with provider did:web:nope"},
		{"subscriptions " + d.Customer + " provider=did:web:nope", "no subscriptions of customer " + d.Customer + " with provider did:web:nope"},
	} {
		m, _ = runLine(t, m, tc.line)
		out := screen(m, w.prefix)
		if !strings.Contains(out, tc.says) {
			t.Errorf(":%s does not say %q:\n%s", tc.line, tc.says, out)
		}
		if st := m.slotOf(m.Active()).Status(); st.Err != "" || st.Rows != 0 {
			t.Errorf(":%s: rows %d, error %q", tc.line, st.Rows, st.Err)
		}
	}

	// A raw key typed in place of its hash is looked up by the hash and
	// never shown: not in the title, not in the message (the data test
	// checks that the scope read holds only the hash).
	const raw = "wc_live_Zk8pQ2vN7xR4tY1mB6cH9jL3sD5fG0aE"
	m, _ = runLine(t, m, "apikey "+raw)
	out := screen(m, w.prefix)
	if strings.Contains(out, raw) || !strings.Contains(out, "API keys · key ••••••") || !strings.Contains(out, "no API key with the hash of the key typed") {
		t.Errorf(":apikey <raw key>:\n%s", out)
	}
}

// TestSubscriptionLookupsQueryTheNamedIndex: `:subscriptions <customer>
// provider=<did>` is the query the w3infra document marks in use — the
// customer index, customer = and provider = (the sort key by equality,
// not a prefix) — and the provisional provider lookups read the provider
// indexes of their own tables.
func TestSubscriptionLookupsQueryTheNamedIndex(t *testing.T) {
	w := seeded(t)
	// A customer with subscriptions at two providers, so that narrowing
	// to one is visible.
	var customer, provider string
	var want []string
	for _, c := range w.rep.Customers {
		subs := firstOf(t, w, data.SubscriptionsByCustomer(c))
		providers := map[string][]string{}
		for _, r := range subs {
			s := r.(data.Subscription)
			providers[s.Provider] = append(providers[s.Provider], s.Subscription)
		}
		if len(providers) > 1 {
			customer = c
			for p, ss := range providers {
				if provider == "" || p < provider {
					provider, want = p, ss
				}
			}
			break
		}
	}
	if customer == "" {
		t.Fatal("no demo customer has subscriptions at two providers")
	}
	log := &queryLog{}
	m := start(t, w.withClient(t, log), 140, 30)
	log.take()

	m = runLookup(t, m, w, lookupCase{"subscriptions " + customer + " provider=" + provider, views.PaneDelegations,
		"Subscriptions · customer " + customer + " · provider " + provider, "subscription", want})
	m = runLookup(t, m, w, lookupCase{"subscriptions " + customer + " provider=" + provider, views.PaneDelegations,
		"Subscriptions · customer " + customer + " · provider " + provider, "customer", slices.Repeat([]string{customer}, len(want))})
	qs := log.take()
	if len(qs) == 0 {
		t.Fatal("no Query sent")
	}
	for _, q := range qs {
		kc, _ := q["KeyConditionExpression"].(string)
		if q["IndexName"] != data.IndexSubscriptionsByCustomer || q["TableName"] != w.tables.Name(data.TableSubscriptions) ||
			strings.Count(kc, " = ") != 2 || strings.Contains(kc, "begins_with") || q["FilterExpression"] != nil {
			t.Errorf("customer and provider: %v", q)
		}
	}

	for _, tc := range []struct {
		line  string
		table data.TableID
		index string
		title string
	}{
		{"subscriptions provider=" + provider, data.TableSubscriptions, data.IndexSubscriptionsByProvider, "Subscriptions · provider " + provider},
		{"consumers provider=" + provider, data.TableConsumers, data.IndexConsumersByProvider, "Consumers · provider " + provider},
	} {
		m, _ = runLine(t, m, tc.line)
		if got := m.slotOf(views.PaneDelegations).Title(); got != tc.title {
			t.Errorf(":%s: title %q", tc.line, got)
		}
		rows := rowsOf(t, m, "provider")
		if len(rows) == 0 {
			t.Fatalf(":%s listed nothing", tc.line)
		}
		for _, p := range rows {
			if p != provider {
				t.Errorf(":%s listed a row of provider %q", tc.line, p)
			}
		}
		for _, q := range log.take() {
			if q["IndexName"] != tc.index || q["TableName"] != w.tables.Name(tc.table) {
				t.Errorf(":%s sent %v", tc.line, q)
			}
		}
	}
}

// TestLookupCommandsAreCompletedAndRefuseBadInput: every lookup command
// completes from a prefix, and a line missing what the lookup needs is
// refused with the command's usage, nothing read.
func TestLookupCommandsAreCompletedAndRefuseBadInput(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 140, 30)
	for _, tc := range []struct{ typed, want string }{
		{"apik", "apikey"}, {"conte", "context"}, {"proj", "project"}, {"even", "event"},
		{"sandbox", "sandbox"}, {"delegation", "delegation"}, {"subscription", "subscription"},
		{"subscriptions provi", "subscriptions provider="}, {"consumers prov", "consumers provider="},
	} {
		m, _ = press(t, m, ":")
		m = typeText(t, m, tc.typed)
		m, _ = press(t, m, "tab")
		if got := m.input.Value(); got != tc.want {
			t.Errorf("%q + tab = %q, want %q", tc.typed, got, tc.want)
		}
		m, _ = press(t, m, "esc")
	}
	// Arguments complete from the rows shown: the Inbox's user first,
	// then the ids of its events.
	d := w.rep.Defaults
	m, _ = runLine(t, m, "inbox "+d.InboxUser)
	shown := map[string]bool{}
	for _, id := range rowsOf(t, m, "event_id") {
		shown[id] = true
	}
	m, _ = press(t, m, ":")
	m = typeText(t, m, "event ")
	m, _ = press(t, m, "tab")
	if got := m.input.Value(); got != "event "+d.InboxUser {
		t.Errorf("event + tab = %q, want the Inbox's user", got)
	}
	m = typeText(t, m, " ")
	m, _ = press(t, m, "tab")
	got := m.input.Value()
	id, ok := strings.CutPrefix(got, "event "+d.InboxUser+" ")
	if !ok || !shown[id] {
		t.Errorf("the second argument completed to %q, not an event id on screen", got)
	}
	m, _ = press(t, m, "esc")

	for _, tc := range []struct{ line, says string }{
		{"event u1", "usage: :event <userId> <sortKey|eventId>"},
		{"event", "usage: :event"},
		{"apikey", "usage: :apikey <apiKeyHash>"},
		{"subscriptions", "usage: :subscriptions"},
		{"consumers did:key:z provider=did:web:p", "not both"},
		{"sandbox a b", "too many arguments"},
	} {
		m, _ = runLine(t, m, tc.line)
		if !strings.Contains(m.Flash(), tc.says) {
			t.Errorf(":%s: flash %q, want %q", tc.line, m.Flash(), tc.says)
		}
	}
}
