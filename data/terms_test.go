package data

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

var termNow = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func TestParseTerm(t *testing.T) {
	unix := func(d time.Duration) string { return itoa(termNow.Add(d).Unix()) }
	cases := []struct {
		in   string
		want Term
	}{
		{"status=open", Term{Attr: "status", Op: OpEq, Value: "open"}},
		{"status!=open", Term{Attr: "status", Op: OpNe, Value: "open"}},
		{"total<100", Term{Attr: "total", Op: OpLt, Value: "100"}},
		{"total<=100", Term{Attr: "total", Op: OpLe, Value: "100"}},
		{"total>1.5e3", Term{Attr: "total", Op: OpGt, Value: "1.5e3"}},
		{"total>=-2", Term{Attr: "total", Op: OpGe, Value: "-2"}},
		{"name^=ord", Term{Attr: "name", Op: OpBegins, Value: "ord"}},
		{"seq=10..20", Term{Attr: "seq", Op: OpBetween, Value: "10", High: "20"}},
		{`id="100"`, Term{Attr: "id", Op: OpEq, Value: "100", Quoted: true}},
		{`path="a..b"`, Term{Attr: "path", Op: OpEq, Value: "a..b", Quoted: true}},
		{`"a=b"=x`, Term{Attr: "a=b", Op: OpEq, Value: "x"}},
		{"timestamp#event_id^=2026-", Term{Attr: "timestamp#event_id", Op: OpBegins, Value: "2026-"}},
		{"ttl<now", Term{Attr: "ttl", Op: OpLt, Value: unix(0)}},
		{"ttl<now-1h", Term{Attr: "ttl", Op: OpLt, Value: unix(-time.Hour)}},
		{"ttl>now+30m", Term{Attr: "ttl", Op: OpGt, Value: unix(30 * time.Minute)}},
		{"at=now-2d..now", Term{Attr: "at", Op: OpBetween, Value: unix(-48 * time.Hour), High: unix(0)}},
		{`note="now"`, Term{Attr: "note", Op: OpEq, Value: "now", Quoted: true}},
		{"index=by-state", Term{Op: OpIndex, Value: "by-state"}},
		{`"index"=x`, Term{Attr: "index", Op: OpEq, Value: "x"}},
		{"empty=", Term{Attr: "empty", Op: OpEq, Value: ""}},
	}
	for _, c := range cases {
		got, err := ParseTerm(c.in, termNow)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	for _, word := range []string{"open", "user-123", ""} {
		if _, err := ParseTerm(word, termNow); !errors.Is(err, ErrNotTerm) {
			t.Errorf("%q: %v, want ErrNotTerm", word, err)
		}
	}
	for _, bad := range []string{"=x", "ttl<now-1", "ttl<now-1y", "ttl<now*2", "ttl<now-h", "seq=..3", "seq=3..", "index=", "ttl<now+2000000000w", "ttl<now-5300w"} {
		if _, err := ParseTerm(bad, termNow); err == nil || errors.Is(err, ErrNotTerm) {
			t.Errorf("%q: %v, want an error", bad, err)
		}
	}
	terms, rest, err := ParseTerms([]string{"user-1", "ttl<now", "prod"}, termNow)
	if err != nil || len(terms) != 1 || strings.Join(rest, " ") != "user-1 prod" {
		t.Errorf("ParseTerms: %v %v %v", terms, rest, err)
	}
}

func itoa(n int64) string { return N(n).(*types.AttributeValueMemberN).Value }

func TestLooksNumeric(t *testing.T) {
	for s, want := range map[string]bool{"1": true, "-0.5": true, "1e3": true, "2E-4": true, ".5": true, "5.": true,
		"": false, "-": false, "0x10": false, "1_000": false, "Inf": false, "NaN": false, " 1": false, "1e": false, "1.2.3": false, "+1": false} {
		if looksNumeric(s) != want {
			t.Errorf("looksNumeric(%q) = %v", s, !want)
		}
	}
}

// TestTermsEncodingRoundTrips: any attribute and value survive Scope.Terms,
// even ones made of the encoding's own bytes.
func TestTermsEncodingRoundTrips(t *testing.T) {
	terms := []Term{
		{Attr: "a", Op: OpEq, Type: TypeS, Value: "3:abc"},
		{Attr: "1:x", Op: OpBetween, Type: TypeN, Value: "1", High: "22"},
		{Attr: "ü\x00\x1f", Op: OpNe, Type: TypeS, Value: ""},
	}
	got := decodeTerms(encodeTerms(terms))
	if len(got) != len(terms) {
		t.Fatalf("%+v", got)
	}
	for i := range terms {
		if got[i] != terms[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], terms[i])
		}
	}
	for _, junk := range []string{"9:a", "x:y", "1:a1:", "-1:"} {
		_ = decodeTerms(junk) // must not panic
	}
}

func ledgerSchema() TableSchema {
	return TableSchema{
		ID: UnmodeledID("ledger"), NameTemplate: "ledger",
		PK: KeyAttr{"tenant", TypeS}, SK: &KeyAttr{"seq", TypeN},
		Indexes: []Index{
			{Name: "by-state", PK: KeyAttr{"state", TypeS}, SK: &KeyAttr{"amount", TypeN}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"note"}}},
			{Name: "by-code", PK: KeyAttr{"code", TypeS}, Projection: Projection{Type: ProjectAll}},
			{Name: "by-created", PK: KeyAttr{"tenant", TypeS}, SK: &KeyAttr{"created", TypeN}, Projection: Projection{Type: ProjectAll}, Local: true},
		},
	}
}

func plan(t *testing.T, schema TableSchema, words string) (Scope, error) {
	t.Helper()
	defer func() {
		if _, ok := describedSchema(schema.ID); !ok {
			t.Errorf("PlanQuery left %s unregistered", schema.ID)
		}
	}()
	terms, rest, err := ParseTerms(strings.Fields(words), termNow)
	if err != nil || len(rest) > 0 {
		t.Fatalf("%s: %v %v", words, rest, err)
	}
	return PlanQuery(schema, terms)
}

func TestPlanQueryChoosesTheRead(t *testing.T) {
	schema := ledgerSchema()
	cases := []struct{ terms, plan string }{
		{"tenant=t1", "Query ledger · tenant = t1"},
		{"tenant=t1 seq=4", "GetItem ledger · tenant = t1 · seq = 4"},
		{"tenant=t1 seq=4 note=x", "Query ledger · tenant = t1 · seq = 4 · filter note = x"},
		{"tenant=t1 created>5", "Query by-created · tenant = t1 · created > 5"},
		{"tenant=t1 created>5 seq<3", "Query ledger · tenant = t1 · seq < 3 · filter created > 5"},
		{"code=100", `Query by-code · code = "100"`},
		{"state=open amount=1..9 note>b", "Query by-state · state = open · amount between 1 and 9 · filter note > b"},
		{"state=open note^=al", "Query by-state · state = open · filter note begins with al"},
		{"state=open tenant=t1", "Query ledger · tenant = t1 · filter state = open"},
		{"tenant=t1 index=by-created", "Query by-created · tenant = t1"},
		{"code=c total>=now-1h", "Query by-code · code = c · filter total >= " + itoa(termNow.Add(-time.Hour).Unix())},
		{`tenant=t1 total="100" n!=7`, `Query ledger · tenant = t1 · filter total = "100" and n != 7`},
	}
	for _, c := range cases {
		sc, err := plan(t, schema, c.terms)
		if err != nil || sc.Plan() != c.plan {
			t.Errorf("%s: %q %v, want %q", c.terms, sc.Plan(), err, c.plan)
		}
	}
	// With index= dropped, the LSI still answers: the table's sort key
	// is a plain attribute there.
	if sc, err := plan(t, schema, "tenant=t1 seq>1 seq<5"); err != nil || sc.Index != "by-created" {
		t.Errorf("two seq terms: %s %v", sc.Plan(), err)
	}
	// A key declared S keeps digits as a string; a number key refuses text.
	if sc, _ := plan(t, schema, "code=100"); !EqualValues(sc.pkValue(), S("100")) {
		t.Errorf("S key sent as %v", sc.pkValue())
	}
	if _, err := plan(t, schema, "tenant=t1 seq=abc"); err == nil || !strings.Contains(err.Error(), "number key") {
		t.Errorf("text on a number key: %v", err)
	}
}

func TestPlanQueryRefusals(t *testing.T) {
	schema := ledgerSchema()
	_, err := plan(t, schema, "total>3 seq=1")
	var need *NeedKeyError
	if !errors.As(err, &need) || !strings.Contains(err.Error(), "give one of: tenant= (table), state= (by-state), code= (by-code), tenant= (by-created)") ||
		!strings.Contains(err.Error(), ":scan ledger TERMS") {
		t.Errorf("no key: %v", err)
	}
	_, err = plan(t, schema, "code=x index=by-state")
	if !errors.As(err, &need) || need.Forced != "by-state" || len(need.Options) != 1 || need.Options[0] != (KeyOption{Attr: "state", Index: "by-state"}) {
		t.Errorf("forced index without its key: %v", err)
	}
	for words, want := range map[string]string{
		"tenant=t1 index=nope":         "no index nope",
		"tenant=t1 index=a index=b":    "give one index",
		"state=open amount>1 amount<5": "takes one condition",
		"state=open amount!=4":         "takes one condition",
		"state=open total>1":           "does not hold total",
		"tenant=t1 total=9..1":         "lower bound is above",
		"tenant=t1 total=\"b\"..\"a\"": "lower bound is above",
	} {
		if _, err := plan(t, schema, words); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", words, err, want)
		}
	}
	if _, err := PlanScan(schema, []Term{{Op: OpIndex, Value: "by-state"}}); err == nil {
		t.Error("PlanScan took index=")
	}
}

// TestTermsMatchAsDynamoDB: the live tail's evaluation of each operator,
// as DynamoDB Local answered (TestPlanAgreesWithMatches proves it there).
func TestTermsMatchAsDynamoDB(t *testing.T) {
	item := Item{"n": N(5), "s": S("abc"), "digits": S("100")}
	cases := []struct {
		word string
		want bool
	}{
		{"n=5", true}, {"n=5.0", true}, {`n="5"`, false}, {"n!=5", false}, {"n!=6", true},
		{"missing!=1", true}, {"missing=1", false}, {"missing<1", false},
		{`s!=5`, true}, {"s<5", false}, {"s>ab", true}, {"s^=ab", true}, {"n^=5", false},
		{"n=1..5", true}, {"n=6..9", false}, {"s=a..b", true},
		{"digits=100", false}, {`digits="100"`, true}, {"digits>=10", false}, {`digits>="10"`, true},
	}
	for _, c := range cases {
		term, err := ParseTerm(c.word, termNow)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := PlanScan(TableSchema{ID: UnmodeledID("x"), PK: KeyAttr{"k", TypeS}}, []Term{term})
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.Matches(item); got != c.want {
			t.Errorf("%s on %v: %v", c.word, item, got)
		}
	}
}

func TestWhereOnAModeledScope(t *testing.T) {
	terms, _, _ := ParseTerms([]string{"ttl<now", "retry_count>=2"}, termNow)
	sc, err := EventsByUser("u-1").Where(terms...)
	if err != nil {
		t.Fatal(err)
	}
	want := "Query events · user_id = u-1 · filter ttl < " + itoa(termNow.Unix()) + " and retry_count >= 2"
	if sc.Plan() != want || sc == EventsByUser("u-1") {
		t.Errorf("plan %q, want %q", sc.Plan(), want)
	}
	in := Item{"user_id": S("u-1"), "timestamp#event_id": S("x"), "ttl": N(termNow.Unix() - 1), "retry_count": N(2)}
	if !sc.Matches(in) {
		t.Error("matching item refused")
	}
	in["retry_count"] = N(1)
	if sc.Matches(in) {
		t.Error("retry_count 1 accepted")
	}
	// A documented S attribute keeps digits a string.
	st, _ := ParseTerm("status=1", termNow)
	if sc, err := EventsByUser("u-1").Where(st); err != nil || sc.FilterTerms()[0].Type != TypeS {
		t.Errorf("documented S attribute: %+v %v", sc.FilterTerms(), err)
	}
	key, _ := ParseTerm("user_id=u-2", termNow)
	if _, err := EventsByUser("u-1").Where(key); err == nil {
		t.Error("a key attribute became a filter term")
	}
	// A whole-key scope with terms is a Query, not an unfiltered GetItem.
	get := SessionByID("s-1")
	tt, _ := ParseTerm("status=RUNNING", termNow)
	if f, _ := get.Where(tt); !get.IsGet() || f.IsGet() {
		t.Error("terms on a GetItem scope must make it a Query")
	}
}

// FuzzTerms: no word, however hostile, panics the parser, the planner,
// the encoding or the live tail's test, and a planned scope keeps its
// terms through Scope.Terms.
func FuzzTerms(f *testing.F) {
	for _, s := range []string{"a=1", "seq=1..2", `x="1"..."2"`, "ttl<now-1h", "index=by-state", "tenant=t state^=o", `"=\x00"!=`, "a=..", "a<=now+99999999999w"} {
		f.Add(s)
	}
	schema := ledgerSchema()
	f.Fuzz(func(t *testing.T, line string) {
		terms, _, err := ParseTerms(strings.Fields(line), termNow)
		if err != nil {
			return
		}
		item := Item{"tenant": S("t"), "seq": N(1), "state": S("open"), "amount": N(3), "note": S("n")}
		if sc, err := PlanQuery(schema, terms); err == nil {
			_ = sc.Matches(item)
			_ = sc.Plan()
			if got := decodeTerms(encodeTerms(sc.FilterTerms())); len(got) != len(sc.FilterTerms()) {
				t.Fatalf("terms lost: %q", sc.Terms)
			}
		}
		if sc, err := PlanScan(schema, terms); err == nil {
			_ = sc.Matches(item)
			var e Expr
			_ = sc.filterExpr(&e)
		}
	})
}
