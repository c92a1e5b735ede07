package ui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/views"
)

// A project's API keys are listed through projectId-index, which holds a
// key's primary projectId only; the demo's acme CI key reaches
// proj_legacy_crawler through its projectIds list and is in no index. The
// API keys view says so and names the explicit scan; that scan (cost asked
// first, filter contains(projectIds, p)) finds it, against DynamoDB Local.
func TestProjectKeysThroughProjectIDsNeedTheCostedScan(t *testing.T) {
	w := seeded(t)
	gate := &scanGate{pass: -1}
	m := start(t, w.withClient(t, gate), 160, 40)
	const legacy = "proj_legacy_crawler"

	m, _ = runLine(t, m, "sessions "+legacy)
	m, _ = press(t, m, "v")
	p := m.slotOf(views.PaneSessions)
	if !strings.HasPrefix(paneTitle(p), "API keys · project "+legacy) {
		t.Fatalf("title %q", paneTitle(p))
	}
	out := screen(m, w.prefix)
	checkFrame(t, out, 160, 40)
	note := "keys reaching " + legacy + " through projectIds are not listed (no index; only a Scan finds them): :scan api-keys projectIds=" + legacy
	if !strings.Contains(out, note) {
		t.Fatalf("the API keys view does not say what it cannot list:\n%s", out)
	}
	listed := p.Status().Rows
	if listed == 0 {
		t.Fatalf("projectId-index lists no keys of %s:\n%s", legacy, out)
	}
	if n := len(gate.scanCalls()); n != 0 {
		t.Fatalf("%d Scan requests before the operator asked", n)
	}

	// projectIds= belongs to api-keys only.
	m, _ = runLine(t, m, "scan sandboxes projectIds="+legacy)
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "projectIds= filters api-keys only") {
		t.Fatalf("projectIds= on sandboxes: mode %s, flash %q", m.Mode(), m.Flash())
	}

	m, _ = runLine(t, m, "scan api-keys projectIds="+legacy)
	out = screen(m, w.prefix)
	if m.Mode() != "dialog" || !strings.Contains(out, "contains(projectIds, "+legacy+")") ||
		!strings.Contains(out, "DynamoDB reads and bills every item of the table") || !strings.Contains(out, "Read cost") {
		t.Fatalf("the scan dialog does not show the filter and the whole table's cost:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if len(gate.scanCalls()) == 0 {
		t.Fatal("y sent no Scan")
	}
	out = screen(m, w.prefix)
	rows := p.Status().Rows
	// Every key listing the project: its own (whose projectIds name it)
	// and the acme CI key.
	if rows != listed+1 || !strings.Contains(out, "scan of api-keys (all items read, "+itoa(rows)+" where projectIds contains "+legacy+")") {
		t.Fatalf("scan found %d keys (index: %d); want the project's own and the acme key:\n%s", rows, listed, out)
	}
	if !strings.Contains(m.Flash(), "scan of api-keys") {
		t.Fatalf("flash %q", m.Flash())
	}
	// r asks again, with the same filter.
	m, _ = press(t, m, "r")
	if m.Mode() != "dialog" || !strings.Contains(screen(m, w.prefix), "contains(projectIds, "+legacy+")") {
		t.Fatalf("r on the filtered scan:\n%s", screen(m, w.prefix))
	}
	_, _ = press(t, m, "n")
}

func itoa(n int) string { return strconv.Itoa(n) }

// The filter term is DynamoDB's contains(): the live tail keeps a scanned
// row only while its list still names the project.
func TestScanFilterContainsMatchesAsDynamoDB(t *testing.T) {
	c := data.Cond{Attr: "projectIds", Value: "p1", Contains: true}
	sc := data.Scope{Table: data.TableAPIKeys, Filter: [2]data.Cond{c}}
	key := func(ids data.Item) data.Item {
		it := data.Item{"apiKeyHash": data.S("h")}
		for k, v := range ids {
			it[k] = v
		}
		return it
	}
	list := func(xs ...string) data.Item {
		l := &types.AttributeValueMemberL{}
		for _, x := range xs {
			l.Value = append(l.Value, data.S(x))
		}
		return data.Item{"projectIds": l}
	}
	for _, tc := range []struct {
		it   data.Item
		want bool
	}{
		{key(list("p0", "p1")), true},
		{key(list("p10")), false},
		{key(list()), false},
		{key(nil), false},
	} {
		if got := sc.Matches(tc.it); got != tc.want {
			t.Errorf("Matches(%v) = %v, want %v", tc.it, got, tc.want)
		}
	}
}
