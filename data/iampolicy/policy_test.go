package iampolicy

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"opsdeck/data"
	"opsdeck/data/action"
)

func mustTables(t *testing.T, env string, over map[string]string) data.Tables {
	t.Helper()
	tb, err := data.ResolveTables(env, over)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// The JSON is what IAM reads: Version, and statements with Sid, Effect,
// Action and Resource lists, in the env's names.
func TestPolicyJSONShape(t *testing.T) {
	tables := mustTables(t, "prod", map[string]string{"sessions": "wc-sessions-blue"})
	doc, err := Build(Options{Level: Operator, Tables: tables, Region: "eu-west-1", Account: "123456789012", Cluster: "browsers"})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version   string
		Statement []map[string]any
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != "2012-10-17" {
		t.Errorf("Version %q", got.Version)
	}
	bySid := map[string][]string{}
	actions := map[string][]string{}
	for _, st := range got.Statement {
		if len(st) != 4 || st["Effect"] != "Allow" {
			t.Errorf("statement %v: want exactly Sid, Effect Allow, Action, Resource", st)
		}
		sid, _ := st["Sid"].(string)
		for _, r := range st["Resource"].([]any) {
			bySid[sid] = append(bySid[sid], r.(string))
		}
		for _, a := range st["Action"].([]any) {
			actions[sid] = append(actions[sid], a.(string))
		}
	}
	wantSids := []string{"ReadTables", "QueryIndexes", "ReadStreams", "ListTables", "GuardedTransitions", "StopReleasedSessionTask"}
	var sids []string
	for _, st := range got.Statement {
		sids = append(sids, st["Sid"].(string))
	}
	if !reflect.DeepEqual(sids, wantSids) {
		t.Errorf("statements %v, want %v (no ScanTables without --scan)", sids, wantSids)
	}
	arn := "arn:aws:dynamodb:eu-west-1:123456789012:table/"
	if r := bySid["ReadTables"]; len(r) != len(data.Schemas()) || r[0] != arn+"wc-sessions-blue" {
		t.Errorf("ReadTables resources %v: want every table, the override first", r)
	}
	if !contains(bySid["ReadTables"], arn+"zapier-triggers-api-prod-events") {
		t.Errorf("{env} not filled: %v", bySid["ReadTables"])
	}
	if !contains(bySid["QueryIndexes"], arn+"wc-sessions-blue/index/status-expiresAt-index") || contains(bySid["QueryIndexes"], arn+"wallcrawler-projects/index/*") {
		t.Errorf("QueryIndexes resources %v", bySid["QueryIndexes"])
	}
	if !contains(bySid["ReadStreams"], arn+"wc-sessions-blue/stream/*") {
		t.Errorf("ReadStreams resources %v", bySid["ReadStreams"])
	}
	var written []string
	seen := map[string]bool{}
	for _, sp := range action.Specs() {
		if n := arn + tables.Name(sp.Table); !seen[n] {
			seen[n] = true
			written = append(written, n)
		}
	}
	if len(bySid["GuardedTransitions"]) != len(written) {
		t.Errorf("UpdateItem on %v, want the action tables %v", bySid["GuardedTransitions"], written)
	}
	for _, w := range written {
		if !contains(bySid["GuardedTransitions"], w) {
			t.Errorf("UpdateItem lacks %s", w)
		}
	}
	if contains(bySid["GuardedTransitions"], arn+"wallcrawler-contexts") {
		t.Error("UpdateItem granted on a table no action writes")
	}
	if r := bySid["StopReleasedSessionTask"]; !reflect.DeepEqual(r, []string{"arn:aws:ecs:eu-west-1:123456789012:task/browsers/*"}) {
		t.Errorf("StopTask resource %v", r)
	}
	if a := actions["GuardedTransitions"]; !reflect.DeepEqual(a, []string{"dynamodb:UpdateItem"}) {
		t.Errorf("write actions %v", a)
	}
}

func TestReadOnlyHasNoWritesAndScanOnlyWhenAsked(t *testing.T) {
	tables := mustTables(t, "dev", nil)
	ro, err := Build(Options{Level: ReadOnly, Tables: tables})
	if err != nil {
		t.Fatal(err)
	}
	scan, err := Build(Options{Level: ReadOnly, Tables: tables, Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	// "*" is allowed only for ListTables, which has no other resource.
	var scoped Document
	scoped.Statement = slices.DeleteFunc(slices.Clone(ro.Statement), func(st Statement) bool {
		return st.Sid == "ListTables" && slices.Equal(st.Action, []string{"dynamodb:ListTables"}) && slices.Equal(st.Resource, []string{"*"})
	})
	if len(scoped.Statement) != len(ro.Statement)-1 {
		t.Errorf("read-only policy lacks ListTables on *: %+v", ro.Statement)
	}
	raw, _ := json.Marshal(scoped)
	for _, bad := range []string{"UpdateItem", "PutItem", "DeleteItem", "ecs:", "Scan", `"*"`, "ListTables"} {
		if strings.Contains(string(raw), bad) {
			t.Errorf("read-only policy mentions %s:\n%s", bad, raw)
		}
	}
	table := "arn:aws:dynamodb:*:*:table/wallcrawler-sessions"
	if !ro.Allows("dynamodb:Query", table) || ro.Allows("dynamodb:Scan", table) || !scan.Allows("dynamodb:Scan", table) {
		t.Error("Scan must be granted with --scan only; Query always")
	}
	if scan.Allows("dynamodb:Scan", table+"/index/projectId-createdAt-index") {
		t.Error("--scan grants Scan on indexes; only the base tables are scanned")
	}
}

// TestBrowseGrantsEveryTable: only Browse reaches a table outside the env,
// and only Browse with Scan scans it.
func TestBrowseGrantsEveryTable(t *testing.T) {
	tables := mustTables(t, "dev", nil)
	build := func(browse, scan bool) Document {
		d, err := Build(Options{Level: ReadOnly, Tables: tables, Browse: browse, Scan: scan, Region: "eu-west-1", Account: "123456789012"})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	other := "arn:aws:dynamodb:eu-west-1:123456789012:table/orders-ledger"
	plain, browse, browseScan := build(false, false), build(true, false), build(true, true)
	for _, a := range []string{"dynamodb:DescribeTable", "dynamodb:DescribeTimeToLive", "dynamodb:Query", "dynamodb:GetItem"} {
		if plain.Allows(a, other) || !browse.Allows(a, other) {
			t.Errorf("%s on another table: plain %v, browse %v", a, plain.Allows(a, other), browse.Allows(a, other))
		}
	}
	if !browse.Allows("dynamodb:Query", other+"/index/by-state") || !browse.Allows("dynamodb:GetRecords", other+"/stream/2026-11-27T00:00:00.000") {
		t.Error("browse lacks the index query or the stream read")
	}
	if browse.Allows("dynamodb:Scan", other) || !browseScan.Allows("dynamodb:Scan", other) || browseScan.Allows("dynamodb:UpdateItem", other) {
		t.Error("Scan on another table must need Browse and Scan; no write ever")
	}
	if !plain.Allows("dynamodb:ListTables", "*") {
		t.Error("ListTables must be granted without Browse (:tables)")
	}
}

func TestBuildRefusesBadInput(t *testing.T) {
	tables := mustTables(t, "dev", nil)
	for _, o := range []Options{
		{Level: "admin", Tables: tables},
		{Level: ReadOnly, Tables: tables, Account: "12345"},
		{Level: ReadOnly, Tables: tables, Account: "arn:aws:iam::1"},
		{Level: Operator, Tables: tables, Cluster: "a/b"},
		{Level: ReadOnly, Tables: tables, Region: "eu-west-1:x"},
	} {
		if _, err := Build(o); err == nil {
			t.Errorf("Build(%+v) accepted", o)
		}
	}
	d, err := Build(Options{Level: ReadOnly, Tables: tables, Region: "cn-north-1"})
	if err != nil || !strings.HasPrefix(d.Statement[0].Resource[0], "arn:aws-cn:dynamodb:cn-north-1:*:table/") {
		t.Errorf("China region ARN: %v %v", d.Statement[0].Resource[0], err)
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
