package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/termcells"
	"opsdeck/views"
)

// browseRec is a RoundTripper in front of the real server: every
// operation, and the index each Query named, so a test checks what was
// read — a Query on the index the plan chose, never a Scan unless asked.
type browseRec struct {
	mu      sync.Mutex
	ops     []string
	indexes []string // IndexName of each Query ("" for the base table)
}

func (r *browseRec) RoundTrip(req *http.Request) (*http.Response, error) {
	op := req.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	ix := ""
	if op == "Query" && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		var in struct{ IndexName string }
		_ = json.Unmarshal(body, &in)
		ix = in.IndexName
	}
	r.mu.Lock()
	r.ops = append(r.ops, op)
	if op == "Query" {
		r.indexes = append(r.indexes, ix)
	}
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *browseRec) count(op string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, o := range r.ops {
		if o == op {
			n++
		}
	}
	return n
}

func (r *browseRec) lastIndex() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.indexes) == 0 {
		return "<no query>"
	}
	return r.indexes[len(r.indexes)-1]
}

// ledgerTable creates a table no document names: composite key (acct,
// entry), a GSI by-state (state, amount N), a stream with both images —
// and writes its items. It returns the physical name.
func ledgerTable(t *testing.T, db *dynamodb.Client) string {
	t.Helper()
	ctx := context.Background()
	name := uniquePrefix("br") + "ledger"
	s := func(n string) *string { return aws.String(n) }
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: s(name),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: s("acct"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: s("entry"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: s("state"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: s("amount"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: s("acct"), KeyType: types.KeyTypeHash},
			{AttributeName: s("entry"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: s("by-state"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: s("state"), KeyType: types.KeyTypeHash},
				{AttributeName: s("amount"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		BillingMode:         types.BillingModePayPerRequest,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []data.Item{
		ledgerItem("a-1", "e-01", "open", 50),
		withAttr(ledgerItem("a-1", "e-02", "open", 150), "apiToken", "tok-very-secret-value"),
		ledgerItem("a-1", "e-03", "closed", 300),
		withAttr(ledgerItem("a-2", "e-01", "open", 500), "memo", "\x1b]52;c;aGk=\x07pwned\x1b[2J"),
	} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: s(name), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return name
}

func ledgerItem(acct, entry, state string, amount int) data.Item {
	return data.Item{
		"acct": sv(acct), "entry": sv(entry), "state": sv(state),
		"amount": &types.AttributeValueMemberN{Value: strconv.Itoa(amount)},
	}
}

func withAttr(it data.Item, k, v string) data.Item {
	it[k] = sv(v)
	return it
}

// browseWorld is the demo world, a ledger table and a console reading
// both through a recorder.
func browseWorld(t *testing.T) (world, *browseRec, *dynamodb.Client, string, Options) {
	w := seeded(t)
	rec := &browseRec{}
	conn, err := data.Connect(context.Background(), data.ConnOptions{
		Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1",
		HTTPClient: &http.Client{Transport: rec},
	})
	if err != nil {
		t.Fatal(err)
	}
	name := ledgerTable(t, w.conn.DB)
	o := w.options()
	o.Store = data.NewStore(conn, w.tables)
	return w, rec, w.conn.DB, name, o
}

// cells is the screen as a terminal shows it.
func cells(m Model) []string { return termcells.Draw(m.Render(), m.width, m.height).Lines() }

// shownItems is the items the shown pane lists (what :export would write).
func shownItems(t *testing.T, m Model) []data.Item {
	t.Helper()
	if m.panes[m.active].Status().Visible == 0 {
		return nil
	}
	set, err := m.panes[m.active].export.ExportRows()
	if err != nil {
		t.Fatalf("rows: %v", err)
	}
	var out []data.Item
	for _, r := range set.Records(0, set.Len()) {
		out = append(out, r.Item)
	}
	return out
}

func keysOf(items []data.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, attr(it, "acct")+"/"+attr(it, "entry"))
	}
	slices.Sort(out)
	return out
}

func lineWith(lines []string, s string) (string, bool) {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return l, true
		}
	}
	return "", false
}

// TestBrowseAnyTable drives the console over a table no document names:
// the catalog lists it (and marks the demo's tables with their panes),
// enter shows its schema and b comes back, a key condition is a Query on
// the base table, a GSI's key a Query on the GSI (chosen by the planner),
// other terms a filter; no key condition is refused with the keys that
// would do and :scan offered, and nothing is scanned until :scan is
// answered y. The generic pane masks a secret by name, keeps a hostile
// value inert, offers no action, and exports.
func TestBrowseAnyTable(t *testing.T) {
	w, rec, _, name, o := browseWorld(t)
	m := start(t, o, 160, 40)

	// :tables — the catalog, through ListTables and DescribeTable.
	m, _ = runLine(t, m, "tables")
	if m.Active() != views.PaneTables {
		t.Fatalf("active %s after :tables", m.Active())
	}
	if rec.count("ListTables") == 0 || rec.count("DescribeTable") == 0 {
		t.Fatalf("catalog read nothing: ListTables %d, DescribeTable %d", rec.count("ListTables"), rec.count("DescribeTable"))
	}
	m, _ = press(t, m, "/")
	m = typeText(t, m, name)
	m, _ = press(t, m, "enter")
	scr := cells(m)
	row, ok := lineWith(scr[3:], name)
	if !ok {
		t.Fatalf("the catalog does not list %s:\n%s", name, strings.Join(scr, "\n"))
	}
	for _, want := range []string{"acct (S)", "entry (S)", "1: by-state", "NEW_AND_OLD_IMAGES", " 4 "} {
		if !strings.Contains(row, want) {
			t.Errorf("catalog row lacks %q: %q", want, row)
		}
	}
	// The demo's sessions table is marked with its pane.
	m, _ = press(t, m, "esc")
	m, _ = press(t, m, "/")
	m = typeText(t, m, w.tables.Name(data.TableSessions))
	m, _ = press(t, m, "enter")
	if row, ok := lineWith(cells(m)[3:], w.tables.Name(data.TableSessions)); !ok || !strings.HasSuffix(strings.TrimSpace(row), "Sessions") {
		t.Errorf("the sessions table is not marked with its pane: %q", row)
	}

	// enter → the schema; b → the catalog again.
	m, _ = press(t, m, "esc", "/")
	m = typeText(t, m, name)
	m, _ = press(t, m, "enter", "enter")
	scr = cells(m)
	for _, want := range []string{name + " · schema", "partition  acct (S)", "sort       entry (S)", "by-state  GSI  state (S) / amount (N)", "Stream     NEW_AND_OLD_IMAGES", "Not modeled by any pane"} {
		if _, ok := lineWith(scr, want); !ok {
			t.Errorf("schema view lacks %q:\n%s", want, strings.Join(scr, "\n"))
		}
	}
	m, _ = press(t, m, "b")
	if got := m.Pane(views.PaneTables).Title(); got != "Tables · account catalog" {
		t.Errorf("b from the schema: title %q", got)
	}

	// A key condition on the base table: a Query, title the plan, keys
	// first among the columns.
	m, _ = runLine(t, m, "table "+name+" acct=a-1")
	if got := keysOf(shownItems(t, m)); !slices.Equal(got, []string{"a-1/e-01", "a-1/e-02", "a-1/e-03"}) {
		t.Fatalf("acct=a-1 lists %v", got)
	}
	if ix := rec.lastIndex(); ix != "" {
		t.Errorf("acct=a-1 queried index %q, want the base table", ix)
	}
	scr = cells(m)
	if !strings.Contains(scr[1], "Tables · Query "+name+" · acct = a-1") {
		t.Errorf("title %q", scr[1])
	}
	if h := strings.Fields(scr[2]); len(h) < 4 || h[0] != "acct" || h[1] != "entry" {
		t.Errorf("header %q: want the keys first", scr[2])
	}
	// A secret by its attribute's name is masked; the value is nowhere.
	if strings.Contains(m.Render(), "tok-very-secret-value") {
		t.Error("the apiToken value is on screen")
	}
	if _, ok := lineWith(scr, "••••••"); !ok {
		t.Errorf("apiToken not shown masked:\n%s", strings.Join(scr, "\n"))
	}
	// No action on an unmodeled table's rows, whatever the key.
	for _, k := range []string{"x", "D", "R", "F", "K"} {
		m, _ = press(t, m, k)
		if m.Mode() != "normal" || m.Flash() != readOnlyNote {
			t.Errorf("%s on a generic row: mode %s, flash %q", k, m.Mode(), m.Flash())
		}
	}

	// The GSI's partition key: the planner reads by-state, with the
	// sort key's condition; the title names the index.
	m, _ = runLine(t, m, "table "+name+" state=open amount>100")
	if got := keysOf(shownItems(t, m)); !slices.Equal(got, []string{"a-1/e-02", "a-2/e-01"}) {
		t.Fatalf("state=open amount>100 lists %v", got)
	}
	if ix := rec.lastIndex(); ix != "by-state" {
		t.Errorf("state=open queried %q, want by-state", ix)
	}
	if got := m.Pane(views.PaneTables).Title(); got != "Tables · "+name+" · Query by-state · state = open · amount > 100" {
		t.Errorf("title %q", got)
	}
	// The hostile value is drawn inert: no escape reaches the terminal.
	if r := m.Render(); strings.Contains(r, "\x1b]52") || strings.Contains(r, "\x1b[2J") {
		t.Error("a hostile value reached the terminal raw")
	}

	// A term on no key: a FilterExpression on the base table's Query.
	m, _ = runLine(t, m, "table "+name+" acct=a-1 amount>=100")
	if got := keysOf(shownItems(t, m)); !slices.Equal(got, []string{"a-1/e-02", "a-1/e-03"}) {
		t.Fatalf("acct=a-1 amount>=100 lists %v", got)
	}
	if got := m.Pane(views.PaneTables).Title(); !strings.HasSuffix(got, "· filter amount >= 100") {
		t.Errorf("title %q: want the filter", got)
	}
	// The /-filter and a sort work on the generic columns.
	m, _ = press(t, m, "/")
	m = typeText(t, m, "state=closed")
	m, _ = press(t, m, "enter")
	if st := m.Pane(views.PaneTables).Status(); st.Visible != 1 || st.Rows != 2 {
		t.Errorf("/state=closed: %d of %d rows", st.Visible, st.Rows)
	}
	m, _ = press(t, m, "esc")

	// :export writes the rows shown, secrets masked.
	dir := t.TempDir()
	out := filepath.Join(dir, "ledger.jsonl")
	m, _ = runLine(t, m, "export "+out+" jsonl")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("export: %v (flash %q)", err, m.Flash())
	}
	if n := strings.Count(string(b), "\n"); n != 2 || strings.Contains(string(b), "tok-very-secret-value") || !strings.Contains(string(b), `"e-03"`) {
		t.Errorf("export wrote %d lines:\n%s", n, b)
	}

	// No key condition: refused, the keys that would do named, :scan
	// offered — and nothing scanned.
	m, _ = runLine(t, m, "table "+name+" amount>100")
	if st := m.Pane(views.PaneTables).Status(); !strings.Contains(st.Err, "acct=") || !strings.Contains(st.Err, "state=") || !strings.Contains(st.Err, ":scan") {
		t.Errorf("refusal %q", st.Err)
	}
	if _, ok := lineWith(cells(m), "no key condition"); !ok {
		t.Errorf("refusal not on screen:\n%s", strings.Join(cells(m), "\n"))
	}
	if n := rec.count("Scan"); n != 0 {
		t.Fatalf("%d Scan calls before :scan", n)
	}

	// :scan with the same terms: the cost dialog, then the matches.
	m, _ = runLine(t, m, "scan "+name+" amount>100")
	if m.Mode() != "dialog" {
		t.Fatalf(":scan opened %s (flash %q)", m.Mode(), m.Flash())
	}
	if rec.count("Scan") != 0 {
		t.Fatal("scanned before the answer")
	}
	m, _ = press(t, m, "y")
	if got := keysOf(shownItems(t, m)); !slices.Equal(got, []string{"a-1/e-02", "a-1/e-03", "a-2/e-01"}) {
		t.Fatalf("scan amount>100 lists %v", got)
	}
	if rec.count("Scan") == 0 {
		t.Fatal("no Scan after y")
	}
	if title := paneTitle(m.slotOf(views.PaneTables)); !strings.Contains(title, "scan of "+name) || !strings.Contains(title, "amount > 100") {
		t.Errorf("scan title %q", title)
	}
}

// TestTableThatDoesNotExist: the pane says so, and counts no table.
func TestTableThatDoesNotExist(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	m, _ = runLine(t, m, "table no-such-table-here a=1")
	st := m.Pane(views.PaneTables).Status()
	if !strings.Contains(st.Err, "does not exist") || st.Rows != 0 {
		t.Errorf("status %+v: want the error and no table counted", st)
	}
}

// TestTableOfModeledNameOpensItsPane: a physical name a pane models opens
// in that pane (its columns, its actions), and b returns.
func TestTableOfModeledNameOpensItsPane(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	sessions := w.tables.Name(data.TableSessions)
	m, _ = runLine(t, m, "table "+sessions+" status=RUNNING")
	if m.Active() != views.PaneSessions {
		t.Fatalf("active %s, flash %q", m.Active(), m.Flash())
	}
	if title := m.Pane(views.PaneSessions).Title(); !strings.Contains(title, "RUNNING") {
		t.Errorf("title %q does not say what is listed", title)
	}
	items := shownItems(t, m)
	if len(items) == 0 {
		t.Fatal("no RUNNING session listed")
	}
	for _, it := range items {
		if attr(it, "status") != "RUNNING" {
			t.Fatalf("a %s session under status=RUNNING", attr(it, "status"))
		}
	}
	m, _ = press(t, m, "b")
	if m.Active() != views.PaneSessions || strings.Contains(m.Pane(views.PaneSessions).Title(), "Query") {
		t.Errorf("b: active %s, title %q", m.Active(), m.Pane(views.PaneSessions).Title())
	}

	// A read the pane has no label of its own for is titled by its plan
	// (it once showed "Sandboxes · " and nothing after).
	m, _ = runLine(t, m, "table "+w.tables.Name(data.TableSandboxes)+" status=allocated allocated_at>0")
	if m.Active() != views.PaneSandboxes {
		t.Fatalf("active %s, flash %q", m.Active(), m.Flash())
	}
	if title := m.Pane(views.PaneSandboxes).Title(); !strings.Contains(title, "status = allocated") || !strings.Contains(title, "allocated_at > 0") {
		t.Errorf("sandboxes title %q does not show the plan", title)
	}
}

// TestInboxTermsFilterTheScope: `:inbox user ttl<now` lists the user's
// events whose TTL has passed (a server-side filter; the demo's events:
// user-12345 holds the Zapier document's expired example, the default
// inbox user none), and a term on an attribute the events do not document
// is refused with the pane left as it was.
func TestInboxTermsFilterTheScope(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	for _, user := range []string{"user-12345", w.rep.Defaults.InboxUser} {
		m, _ = runLine(t, m, "inbox "+user)
		all := shownItems(t, m)
		var want []string
		for _, it := range all {
			if n, ok := it["ttl"].(*types.AttributeValueMemberN); ok && lessThan(n.Value, fixedNow.Unix()) {
				want = append(want, attr(it, data.AttrEventSortKey))
			}
		}
		m, _ = runLine(t, m, "inbox "+user+" ttl<now")
		var have []string
		for _, it := range shownItems(t, m) {
			have = append(have, attr(it, data.AttrEventSortKey))
		}
		slices.Sort(want)
		slices.Sort(have)
		if len(all) == 0 || !slices.Equal(have, want) {
			t.Errorf("%s: ttl<now lists %v, want %v (of %d events)", user, have, want, len(all))
		}
		if user == "user-12345" && len(want) == 0 {
			t.Errorf("the demo's expired example event is not in %s's inbox", user)
		}
		if user != "user-12345" && len(want) != 0 {
			t.Errorf("%s has expired events: the test no longer shows the filter at work", user)
		}
		if title := m.Pane(views.PaneInbox).Title(); !strings.HasSuffix(title, " · where ttl<now") {
			t.Errorf("title %q", title)
		}
	}
	before := m.Pane(views.PaneInbox).Title()
	m, _ = runLine(t, m, "inbox user-1 colour=red")
	if !strings.Contains(m.Flash(), `unknown attribute "colour" of events`) || m.Pane(views.PaneInbox).Title() != before {
		t.Errorf("colour=red: flash %q, title %q", m.Flash(), m.Pane(views.PaneInbox).Title())
	}
}

// TestRunsTermsFilterTheScope: `:runs user environment=prod` lists only
// that user's runs in prod.
func TestRunsTermsFilterTheScope(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	user := w.rep.Defaults.RunsUser
	m, _ = runLine(t, m, "runs "+user)
	envs := map[string]int{}
	for _, it := range shownItems(t, m) {
		envs[attr(it, "environment")]++
	}
	m, _ = runLine(t, m, "runs "+user+" environment=prod")
	got := shownItems(t, m)
	if len(envs) < 2 || len(got) != envs["prod"] {
		t.Fatalf("environment=prod lists %d runs; the user's runs by environment: %v", len(got), envs)
	}
	for _, it := range got {
		if attr(it, "environment") != "prod" {
			t.Fatalf("a %q run under environment=prod", attr(it, "environment"))
		}
	}
}

// lessThan: the number n is below x (a number too large for int64 is not).
func lessThan(n string, x int64) bool {
	v, err := strconv.ParseInt(n, 10, 64)
	return err == nil && v < x
}
