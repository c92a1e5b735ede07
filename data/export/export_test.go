package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func b(v []byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} }
func bo(v bool) types.AttributeValue  { return &types.AttributeValueMemberBOOL{Value: v} }
func null() types.AttributeValue      { return &types.AttributeValueMemberNULL{Value: true} }
func l(v ...types.AttributeValue) types.AttributeValue {
	if v == nil {
		v = []types.AttributeValue{} // as the SDK decodes an empty list
	}
	return &types.AttributeValueMemberL{Value: v}
}
func m(v map[string]types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: v}
}

// items covers every type, nesting, exact digits and hostile text.
func items() []data.Item {
	return []data.Item{
		{
			"sessionId": s("s-1"),
			"status":    s("RUNNING"),
			"expiresAt": n("1795424793"),
			"big":       n("123456789012345678901234567890.000000001"),
			"neg":       n("-0.5"),
			"blob":      b([]byte{0, 0xff, 0x1b, '[', '2', 'J'}),
			"flag":      bo(true),
			"off":       bo(false),
			"gone":      null(),
			"tags":      &types.AttributeValueMemberSS{Value: []string{"a", "b c"}},
			"nums":      &types.AttributeValueMemberNS{Value: []string{"1", "2.50"}},
			"blobs":     &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
			"list":      l(s("x"), n("7"), l(), m(map[string]types.AttributeValue{})),
			"nested":    m(map[string]types.AttributeValue{"deep": m(map[string]types.AttributeValue{"v": s("w")})}),
		},
		{
			"sessionId": s("s-\x1b[2J\u202eevil\u009b\U000E0041"),
			"note":      s("line1\nline2\ttab \"quoted\" \\ back <html> & \u2028"),
			"emoji":     s("ok 👍"),
		},
	}
}

func writeAll(t *testing.T, f Format, recs []Record, mask secret.Masker) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, f, []string{"SESSION", "STATUS"}, mask)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if w.Count() != len(recs) {
		t.Errorf("Count = %d, want %d", w.Count(), len(recs))
	}
	return buf.Bytes()
}

func recsOf(its []data.Item) []Record {
	out := make([]Record, len(its))
	for i, it := range its {
		out[i] = Record{Item: it}
	}
	return out
}

// inert checks that the text cannot drive a terminal: no C0 control but
// newline, no DEL, no C1, no bidi or other format character.
func inert(t *testing.T, what string, out []byte) {
	t.Helper()
	for _, r := range string(out) {
		if r == '\n' || r == '\r' && what == "csv" {
			continue
		}
		if r < 0x20 || r == 0x7f || data.IsUnsafeRune(r) {
			t.Fatalf("%s output holds %U: %q", what, r, out)
		}
	}
}

func TestDDBRoundTripExact(t *testing.T) {
	want := items()
	out := writeAll(t, DDB, recsOf(want), nil)
	inert(t, "ddb", out)
	got, err := ReadDDB(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d items, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("item %d differs after the round trip:\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
	if !bytes.Contains(out, []byte(`"expiresAt":{"N":"1795424793"}`)) {
		t.Errorf("ddb line not in DynamoDB JSON form: %s", out)
	}
	if !bytes.HasPrefix(out, []byte(`{"Item":{`)) {
		t.Errorf("ddb line does not start with {\"Item\": (DynamoDB's export form): %.40s", out)
	}
}

func TestJSONLReadsBackPlain(t *testing.T) {
	its := items()
	out := writeAll(t, JSONL, recsOf(its), nil)
	inert(t, "jsonl", out)
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(its) {
		t.Fatalf("%d lines, want %d", len(lines), len(its))
	}
	dec := json.NewDecoder(strings.NewReader(lines[0]))
	dec.UseNumber()
	var first map[string]any
	if err := dec.Decode(&first); err != nil {
		t.Fatal(err)
	}
	if first["big"] != json.Number("123456789012345678901234567890.000000001") {
		t.Errorf("big = %v, want the exact digits", first["big"])
	}
	if first["status"] != "RUNNING" || first["flag"] != true || first["gone"] != nil {
		t.Errorf("plain values wrong: %v", first)
	}
	if first["blob"] != "AP8bWzJK" {
		t.Errorf("blob = %v, want base64", first["blob"])
	}
	nested := first["nested"].(map[string]any)["deep"].(map[string]any)["v"]
	if nested != "w" {
		t.Errorf("nested = %v", nested)
	}
	var second map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if second["sessionId"] != "s-\x1b[2J\u202eevil\u009b\U000E0041" {
		t.Errorf("hostile id not exact after decoding: %q", second["sessionId"])
	}
}

func TestSecretsMaskedUnlessRevealed(t *testing.T) {
	it := data.Item{"id": s("k-1"), "signingKey": s("sk_live_SECRET"), "connectUrl": s("wss://u:hunter2@h/x?token=abc")}
	for _, f := range []Format{JSONL, DDB} {
		out := writeAll(t, f, recsOf([]data.Item{it}), secret.Default)
		for _, leak := range []string{"sk_live_SECRET", "hunter2"} {
			if bytes.Contains(out, []byte(leak)) {
				t.Errorf("%s export leaks %q: %s", f, leak, out)
			}
		}
		if !bytes.Contains(out, []byte(secret.Mask)) {
			t.Errorf("%s export shows no mask: %s", f, out)
		}
		revealed := writeAll(t, f, recsOf([]data.Item{it}), nil)
		if !bytes.Contains(revealed, []byte("sk_live_SECRET")) {
			t.Errorf("%s export with reveal lacks the secret", f)
		}
	}
}

func TestCSVColumnsAsShown(t *testing.T) {
	recs := []Record{
		{Cells: []string{"s-1", "RUNNING"}},
		{Cells: []string{"s-\x1b[2J\u202e", "=HYPERLINK(\"x\")"}},
		{Cells: []string{"-", "-12.5"}},
		{Cells: []string{"a,b", "+cmd"}},
	}
	out := writeAll(t, CSV, recs, secret.Default)
	inert(t, "csv", out)
	got, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"SESSION", "STATUS"},
		{"s-1", "RUNNING"},
		{`s-\x1b[2J\u202e`, `'=HYPERLINK("x")`},
		{"-", "-12.5"},
		{"a,b", "'+cmd"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("csv read back\n got %q\nwant %q", got, want)
	}
}

func TestCreateRefusesOverwriteAndIs0600(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, false); !errors.As(err, new(*ExistsError)) {
		t.Fatalf("Create over an existing file: err %v, want *ExistsError", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Fatalf("existing file changed: %q", b)
	}

	f, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Fatalf("file replaced before Commit: %q", b)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("after overwrite: %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}

	fresh := filepath.Join(dir, "fresh.jsonl")
	f, err = Create(fresh, false)
	if err != nil {
		t.Fatal(err)
	}
	// Someone takes the name while the export runs: not replaced.
	os.WriteFile(fresh, []byte("theirs"), 0o644)
	f.WriteString("ours")
	if err := f.Commit(); !errors.As(err, new(*ExistsError)) {
		t.Fatalf("Commit onto a name taken meanwhile: %v, want *ExistsError", err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "theirs" {
		t.Errorf("file taken meanwhile was replaced: %q", b)
	}

	aborted := filepath.Join(dir, "aborted.ddb")
	f, err = Create(aborted, false)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("partial")
	f.Abort()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "aborted") || strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestFormats(t *testing.T) {
	for path, want := range map[string]Format{"a.csv": CSV, "A.CSV": CSV, "x.ddb": DDB, "x.ddb.json": DDB, "x.jsonl": JSONL, "x": JSONL} {
		if got := FormatFor(path); got != want {
			t.Errorf("FormatFor(%q) = %s, want %s", path, got, want)
		}
	}
	if f, ok := ParseFormat("CSV"); !ok || f != CSV {
		t.Errorf("ParseFormat(CSV) = %v %v", f, ok)
	}
	if _, ok := ParseFormat("xml"); ok {
		t.Error("ParseFormat(xml) ok")
	}
	if Text(l(s("a"), n("1"))) != `["a",1]` || Text(bo(true)) != "true" || Text(null()) != "" {
		t.Errorf("Text: %q %q %q", Text(l(s("a"), n("1"))), Text(bo(true)), Text(null()))
	}
}
