package data

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/demo/ddblocal"
)

// Browsing a table no document names ("ledger"): it is created here with
// the raw API, known to opsdeck only through DescribeTable, and read
// through the planner. opCounter, in front of the real server, proves a
// planned read never scans.

// opCounter counts the DynamoDB operations that pass it.
type opCounter struct {
	mu  sync.Mutex
	ops map[string]int
}

func (c *opCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	c.mu.Lock()
	if c.ops == nil {
		c.ops = map[string]int{}
	}
	c.ops[op]++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (c *opCounter) count(op string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ops[op]
}

// ledger is one test's unmodeled table.
type ledger struct {
	store *Store
	name  string
	ops   *opCounter
	now   time.Time
	items []Item
}

// newLedger creates the table — key tenant (S) + seq (N); GSI by-state
// (state S, amount N, INCLUDE note); GSI by-ref (ref S, KEYS_ONLY); LSI
// by-created (tenant, created N, ALL); a NEW_AND_OLD_IMAGES stream; TTL
// on expires — and writes its items.
func newLedger(t *testing.T) *ledger {
	t.Helper()
	ops := &opCounter{}
	ctx := context.Background()
	conn, err := Connect(ctx, ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: ops}})
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("ledger-%d-%d", time.Now().UnixNano()%1e9, tablePrefixSeq.Add(1))
	ks := func(pk, sk string) []types.KeySchemaElement {
		out := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			out = append(out, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return out
	}
	def := func(n string, ty types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: ty}
	}
	_, err = conn.DB.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   ks("tenant", "seq"),
		AttributeDefinitions: []types.AttributeDefinition{def("tenant", "S"), def("seq", "N"), def("state", "S"),
			def("amount", "N"), def("ref", "S"), def("created", "N")},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("by-state"), KeySchema: ks("state", "amount"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"note"}}},
			{IndexName: aws.String("by-ref"), KeySchema: ks("ref", ""),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("by-created"), KeySchema: ks("tenant", "created"),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	if _, err := conn.DB.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	l := &ledger{store: NewStore(conn, Tables{}), name: name, ops: ops, now: time.Now().Truncate(time.Second)}
	l.items = ledgerItems(l.now)
	if err := batchWrite(ctx, conn, name, l.items); err != nil {
		t.Fatal(err)
	}
	return l
}

// ledgerItems are 62 items with every shape a filter can meet: sparse
// index keys, an attribute that is a number on some items and a string
// on others, numeric-looking strings, missing attributes.
func ledgerItems(now time.Time) []Item {
	r := rand.New(rand.NewSource(26))
	states := []string{"open", "closed", "held", ""}
	notes := []string{"alpha", "beta", "100", "alphabet", ""}
	var out []Item
	for i := 0; i < 60; i++ {
		it := Item{
			"tenant":  S("t" + strconv.Itoa(i%3)),
			"seq":     N(int64(i)),
			"created": N(now.Add(-10*time.Hour + time.Duration(i)*10*time.Minute).Unix()),
			"ref":     S("r-" + strconv.Itoa(i%5)),
		}
		if st := states[r.Intn(len(states))]; st != "" {
			it["state"] = S(st)
			if r.Intn(5) > 0 {
				it["amount"] = N(int64(r.Intn(500)))
			}
		}
		if n := notes[r.Intn(len(notes))]; n != "" {
			it["note"] = S(n)
		}
		switch r.Intn(3) {
		case 0:
			it["total"] = N(int64(r.Intn(300)))
		case 1:
			it["total"] = S(strconv.Itoa(r.Intn(300)))
		}
		out = append(out, it)
	}
	// The same digits as a string and as a number: quoting picks one.
	out = append(out,
		Item{"tenant": S("t1"), "seq": N(100), "created": N(now.Unix()), "total": S("100"), "note": S("100")},
		Item{"tenant": S("t1"), "seq": N(101), "created": N(now.Unix()), "total": N(100), "note": S("100")})
	return out
}

// describe registers the ledger as opsdeck would after :table NAME.
func (l *ledger) describe(t *testing.T) TableSchema {
	t.Helper()
	info, err := l.store.DescribeTable(context.Background(), l.name)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := describedSchema(info.Schema.ID); !ok {
		t.Fatalf("Store.DescribeTable left %s unregistered", info.Schema.ID)
	}
	return info.Schema
}

// readAll pages through a scope (7 items a page) and returns its ids.
func (l *ledger) readAll(t *testing.T, sc Scope) []string {
	t.Helper()
	var ids []string
	var cursor Cursor
	for pages := 0; ; pages++ {
		p, err := l.store.Page(context.Background(), sc, PageRequest{Limit: 7, Cursor: cursor})
		if err != nil {
			t.Fatalf("%s: %v", sc.Plan(), err)
		}
		for _, r := range p.Items {
			ids = append(ids, r.ID())
		}
		if cursor = p.Next; cursor == nil || pages > 100 {
			return ids
		}
	}
}

// want is the ids of the ledger's items sc.Matches accepts.
func (l *ledger) want(sc Scope) []string {
	var ids []string
	for _, it := range l.items {
		if sc.Matches(it) {
			ids = append(ids, Decode(sc.Table, it).ID())
		}
	}
	return ids
}

func sameIDs(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestDescribeUnmodeledTable(t *testing.T) {
	l := newLedger(t)
	info, err := DescribeTable(context.Background(), l.store.Conn().DB, l.name)
	if err != nil {
		t.Fatal(err)
	}
	s := info.Schema
	if s.ID != UnmodeledID(l.name) || s.NameTemplate != l.name || info.Status != "ACTIVE" || info.ARN == "" {
		t.Errorf("identity: id %q name %q status %q arn %q", s.ID, s.NameTemplate, info.Status, info.ARN)
	}
	if s.PK != (KeyAttr{"tenant", TypeS}) || s.SK == nil || *s.SK != (KeyAttr{"seq", TypeN}) {
		t.Errorf("keys: %+v %+v", s.PK, s.SK)
	}
	byState, ok1 := s.Index("by-state")
	byRef, ok2 := s.Index("by-ref")
	byCreated, ok3 := s.Index("by-created")
	if !ok1 || !ok2 || !ok3 || len(s.Indexes) != 3 {
		t.Fatalf("indexes: %+v", s.Indexes)
	}
	if byState.Local || byState.PK != (KeyAttr{"state", TypeS}) || byState.SK == nil || *byState.SK != (KeyAttr{"amount", TypeN}) ||
		byState.Projection.Type != ProjectInclude || !slices.Equal(byState.Projection.NonKey, []string{"note"}) {
		t.Errorf("by-state: %+v", byState)
	}
	if byRef.Local || byRef.SK != nil || byRef.Projection.Type != ProjectKeysOnly {
		t.Errorf("by-ref: %+v", byRef)
	}
	if !byCreated.Local || byCreated.PK.Name != "tenant" || byCreated.SK == nil || *byCreated.SK != (KeyAttr{"created", TypeN}) || byCreated.Projection.Type != ProjectAll {
		t.Errorf("by-created: %+v", byCreated)
	}
	if s.Stream != StreamNewAndOld || info.StreamARN == "" {
		t.Errorf("stream: %q %q", s.Stream, info.StreamARN)
	}
	if s.TTLAttr != "expires" || info.TTLStatus != "ENABLED" || info.TTLErr != nil {
		t.Errorf("ttl: %q %q %v", s.TTLAttr, info.TTLStatus, info.TTLErr)
	}
	if info.ItemCount != int64(len(l.items)) || info.SizeBytes <= 0 {
		t.Errorf("count %d size %d, want %d items", info.ItemCount, info.SizeBytes, len(l.items))
	}

	// Registered, it is a table like a modeled one: its name, its records.
	RegisterSchema(s)
	if got := (Tables{}).Name(s.ID); got != l.name {
		t.Errorf("Tables.Name = %q", got)
	}
	r, found, err := l.store.Get(context.Background(), s.ID, Item{"tenant": S("t1"), "seq": N(4)})
	if err != nil || !found {
		t.Fatalf("Get: %v %v", found, err)
	}
	if r.ID() != "t1 · 4" || r.Table() != s.ID || len(r.Issues()) != 0 || !EqualValues(r.Item()["ref"], S("r-4")) {
		t.Errorf("record: id %q table %q issues %v", r.ID(), r.Table(), r.Issues())
	}

	if _, err := DescribeTable(context.Background(), l.store.Conn().DB, l.name+"-none"); !IsNotFound(err) {
		t.Errorf("missing table: %v", err)
	}
}

func TestDescribeToleratesRefusedTTL(t *testing.T) {
	l := newLedger(t)
	deny := &denyTransport{op: "DescribeTimeToLive", table: l.name}
	conn, err := Connect(context.Background(), ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", HTTPClient: &http.Client{Transport: deny}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := DescribeTable(context.Background(), conn.DB, l.name)
	if err != nil {
		t.Fatal(err)
	}
	if deny.denied != 1 || !IsAccessDenied(info.TTLErr) || info.TTLStatus != "" || info.Schema.TTLAttr != "" || info.Schema.PK.Name != "tenant" {
		t.Errorf("ttl refused: err %v status %q attr %q", info.TTLErr, info.TTLStatus, info.Schema.TTLAttr)
	}
}

func TestListTablesPages(t *testing.T) {
	l := newLedger(t)
	ctx := context.Background()
	db := l.store.Conn().DB
	for i := 0; i < 3; i++ {
		n := fmt.Sprintf("%s-x%d", l.name, i)
		if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(n), BillingMode: types.BillingModePayPerRequest,
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}},
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: "S"}}}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_, _ = db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(n)})
		})
	}
	before := l.ops.count("ListTables")
	paged, err := listTablesPaged(ctx, db, 2)
	if err != nil {
		t.Fatal(err)
	}
	calls := l.ops.count("ListTables") - before
	whole, err := l.store.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mine := 0
	for _, n := range paged {
		if strings.HasPrefix(n, l.name) {
			mine++
		}
	}
	if mine != 4 || !slices.Equal(paged, whole) || calls < (len(paged)+1)/2 {
		t.Errorf("paged %d names (%d mine) in %d calls; whole %d", len(paged), mine, calls, len(whole))
	}
}

// TestPlannedReads: each operator, every kind of read, no Scan.
func TestPlannedReads(t *testing.T) {
	l := newLedger(t)
	schema := l.describe(t)
	scansBefore := l.ops.count("Scan")
	now := l.now
	cases := []struct {
		terms string
		plan  string // Scope.Plan's prefix
	}{
		{"tenant=t1", "Query " + l.name + " · tenant = t1"},
		{"tenant=t1 seq=4", "GetItem " + l.name},
		{"tenant=t1 seq<10", "Query " + l.name + " · tenant = t1 · seq < 10"},
		{"tenant=t1 seq<=10", "Query " + l.name + " · tenant = t1 · seq <= 10"},
		{"tenant=t1 seq>40", "Query " + l.name + " · tenant = t1 · seq > 40"},
		{"tenant=t1 seq>=40", "Query " + l.name + " · tenant = t1 · seq >= 40"},
		{"tenant=t2 seq=10..30", "Query " + l.name + " · tenant = t2 · seq between 10 and 30"},
		{"state=open", "Query by-state · state = open"},
		{"state=open amount>100", "Query by-state · state = open · amount > 100"},
		{"state=held note^=alpha", "Query by-state · state = held · filter note begins with alpha"},
		{"ref=r-3", "Query by-ref · ref = r-3"},
		{"tenant=t0 created>=now-1h", "Query by-created · tenant = t0 · created >= " + strconv.FormatInt(now.Add(-time.Hour).Unix(), 10)},
		{"tenant=t0 index=by-created", "Query by-created · tenant = t0"},
		{"tenant=t1 total>100", "Query " + l.name + " · tenant = t1 · filter total > 100"},
		{`tenant=t1 total="100"`, "Query " + l.name + ` · tenant = t1 · filter total = "100"`},
		{`tenant=t1 total=100`, "Query " + l.name + ` · tenant = t1 · filter total = 100`},
		{"tenant=t1 note!=alpha", "Query " + l.name + " · tenant = t1 · filter note != alpha"},
		{"tenant=t1 total=50..200 note<beta", "Query " + l.name + " · tenant = t1 · filter total between 50 and 200 and note < beta"},
		{"state=open note!=beta seq>=3", "Query by-state · state = open · filter note != beta and seq >= 3"},
		// by-state does not project total: the table is read instead.
		{"state=open total!=x tenant=t2", "Query " + l.name + " · tenant = t2 · filter state = open and total != x"},
	}
	for _, c := range cases {
		terms, rest, err := ParseTerms(strings.Fields(c.terms), now)
		if err != nil || len(rest) > 0 {
			t.Fatalf("%s: %v %v", c.terms, rest, err)
		}
		sc, err := PlanQuery(schema, terms)
		if err != nil {
			t.Errorf("%s: %v", c.terms, err)
			continue
		}
		if !strings.HasPrefix(sc.Plan(), c.plan) {
			t.Errorf("%s: plan %q, want %q…", c.terms, sc.Plan(), c.plan)
		}
		got, want := l.readAll(t, sc), l.want(sc)
		if len(want) == 0 || !sameIDs(got, want) {
			t.Errorf("%s: read %v, want %v", c.terms, got, want)
		}
	}
	if n := l.ops.count("Scan") - scansBefore; n != 0 {
		t.Errorf("%d Scan calls for planned reads", n)
	}

	// No partition key: refused with the keys that would make it a Query.
	terms, _, _ := ParseTerms([]string{"total>100", "seq=3"}, now)
	_, err := PlanQuery(schema, terms)
	var need *NeedKeyError
	if !errors.As(err, &need) {
		t.Fatalf("no key: %v", err)
	}
	msg := err.Error()
	for _, w := range []string{"tenant= (table)", "state= (by-state)", "ref= (by-ref)", "tenant= (by-created)", ":scan " + l.name} {
		if !strings.Contains(msg, w) {
			t.Errorf("NeedKeyError %q lacks %q", msg, w)
		}
	}
	if n := l.ops.count("Scan") - scansBefore; n != 0 {
		t.Errorf("%d Scan calls after a refused plan", n)
	}
}

// TestScanWithTerms: the explicit scan sends the planned filter; what
// comes back is what Matches accepts.
func TestScanWithTerms(t *testing.T) {
	l := newLedger(t)
	schema := l.describe(t)
	terms, _, _ := ParseTerms([]string{"total>100", "note!=beta"}, l.now)
	where, err := PlanScan(schema, terms)
	if err != nil {
		t.Fatal(err)
	}
	items, err := l.store.ScanTable(context.Background(), schema.ID, ScanOptions{Segments: 2, Where: where.Project("total")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		if _, extra := it["note"]; extra {
			t.Errorf("projection ignored: %v", it)
		}
		got = append(got, Decode(schema.ID, it).ID())
	}
	if want := l.want(where); len(want) == 0 || !sameIDs(got, want) {
		t.Errorf("scan %v, want %v", got, want)
	}
	if !strings.HasPrefix(where.Plan(), "Scan "+l.name+" · filter total > 100 and note != beta") {
		t.Errorf("plan %q", where.Plan())
	}
}

// TestPlanAgreesWithMatches: for assorted term sets, the planned Query
// returns exactly the items Matches accepts out of the whole table, and so
// does the explicit Scan with the same terms: query, scan and live tail
// agree.
func TestPlanAgreesWithMatches(t *testing.T) {
	l := newLedger(t)
	schema := l.describe(t)
	r := rand.New(rand.NewSource(2026))
	ops := []string{"=", "!=", "<", "<=", ">", ">=", "^="}
	pick := func(vs ...string) string { return vs[r.Intn(len(vs))] }
	numv := func(hi int) string { return strconv.Itoa(r.Intn(hi)) }
	term := func() string {
		switch r.Intn(9) {
		case 0:
			return "tenant=" + pick("t0", "t1", "t2", "t3")
		case 1:
			if r.Intn(3) == 0 {
				a, b := r.Intn(70), r.Intn(70)
				return fmt.Sprintf("seq=%d..%d", min(a, b), max(a, b))
			}
			return "seq" + pick(ops[:6]...) + numv(70)
		case 2:
			return "state" + pick("=", "=", "!=", "^=") + pick("open", "closed", "held", "o")
		case 3:
			return "amount" + pick(ops[:6]...) + numv(500)
		case 4:
			return "created" + pick(ops[1:6]...) + pick("now", "now-1h", "now-5h", "now-2d", "now+30m")
		case 5:
			return "note" + pick(ops...) + pick("alpha", "100", `"100"`, "b", "alphabet")
		case 6:
			if r.Intn(3) == 0 {
				return "total=" + pick("10..200", `"1".."3"`, "0..99")
			}
			return "total" + pick(ops[:6]...) + pick(numv(300), `"`+numv(300)+`"`)
		case 7:
			return "ref=" + pick("r-0", "r-1", "r-4")
		}
		return "index=" + pick("by-created", "by-state", "by-ref")
	}
	planned, indexes := 0, map[string]int{}
	for i := 0; i < 250; i++ {
		words := []string{term()}
		for n := r.Intn(4); n > 0; n-- {
			words = append(words, term())
		}
		terms, _, err := ParseTerms(words, l.now)
		if err != nil {
			t.Fatalf("%v: %v", words, err)
		}
		if sc, err := PlanQuery(schema, terms); err == nil {
			planned++
			indexes[sc.Index]++
			if got, want := l.readAll(t, sc), l.want(sc); !sameIDs(got, want) {
				t.Errorf("%v → %s: query %v, Matches %v", words, sc.Plan(), got, want)
			}
		}
		if i%5 != 0 {
			continue // a scan per term set would be slow; every fifth
		}
		if where, err := PlanScan(schema, terms); err == nil {
			items, err := l.store.ScanTable(context.Background(), schema.ID, ScanOptions{Where: where}, nil)
			if err != nil {
				t.Fatalf("%v: scan: %v", words, err)
			}
			var got []string
			for _, it := range items {
				got = append(got, Decode(schema.ID, it).ID())
			}
			if want := l.want(where); !sameIDs(got, want) {
				t.Errorf("%v → %s: scan %v, Matches %v", words, where.Plan(), got, want)
			}
		}
	}
	if planned < 60 || len(indexes) < 4 {
		t.Errorf("only %d term sets planned, on %v: the sample proves little", planned, indexes)
	}
}
