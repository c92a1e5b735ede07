package streamview

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data/secret"
	"opsdeck/data/stream"
)

// TestFilterGrammar: the Stream pane takes the same expressions as the
// lists — fields are its columns or the records' attributes (masked).
func TestFilterGrammar(t *testing.T) {
	m := newModel(0)
	m.mask = secret.Default
	withKey := insert("gamma", "RUNNING", 3)
	withKey.New["signingKey"] = &types.AttributeValueMemberS{Value: "sk_live_PROBE"}
	m.Append([]stream.Record{insert("alpha", "RUNNING", 1), insert("beta", "FAILED", 2), withKey})
	for expr, want := range map[string]int{
		"status=running":              2,
		"status!=running":             1,
		"EVENT=INSERT sessionId~^b":   1,
		"!alpha !beta":                1,
		"~^(alpha|beta)$":             2, // ^ and $ hold to one cell (KEY)
		"~alpha|beta":                 2,
		"signingKey=sk_live_PROBE":    0, // a secret cannot be probed
		"projectId=proj-1 table=sess": 0, // table= compares the whole cell
	} {
		if err := m.SetFilter(expr); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got := len(rows(t, m)); got != want {
			t.Errorf("%s: %d rows, want %d", expr, got, want)
		}
	}
	_ = m.SetFilter("status=running")
	if err := m.SetFilter("~(unclosed"); err == nil || !strings.Contains(err.Error(), "bad regular expression") {
		t.Fatalf("bad regex: %v", err)
	}
	if m.Filter() != "status=running" || len(rows(t, m)) != 2 {
		t.Errorf("a bad expression changed the filter to %q", m.Filter())
	}
}
