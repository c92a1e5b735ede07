package action

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// docs/ACTIONS.md quotes every expression; this keeps the quotes true.
// Whitespace is normalised because the doc wraps long expressions.
func TestActionsDocQuotesTheExactExpressions(t *testing.T) {
	raw, err := os.ReadFile("../../docs/ACTIONS.md")
	if err != nil {
		t.Fatalf("docs/ACTIONS.md: %v", err)
	}
	space := regexp.MustCompile(`\s+`)
	doc := space.ReplaceAllString(string(raw), " ")
	now := time.Now().Truncate(time.Second)
	items := map[Kind]func() (Plan, error){
		ReleaseSession:      func() (Plan, error) { return PlanFor(ReleaseSession, runningSession("s"), now, Options{}) },
		RetryEvent:          func() (Plan, error) { return PlanFor(RetryEvent, failedEvent("e", 1), now, Options{}) },
		MarkSandboxDeletion: func() (Plan, error) { return PlanFor(MarkSandboxDeletion, allocatedSandbox("b", now), now, Options{}) },
		RetrySandboxDeletion: func() (Plan, error) {
			return PlanFor(RetrySandboxDeletion, deletionFailedSandbox("b", now), now, Options{})
		},
		MarkRunFailed: func() (Plan, error) {
			return PlanFor(MarkRunFailed, stuckRun("r", now.Add(-time.Hour)), now, Options{})
		},
	}
	for _, k := range Kinds() {
		p, err := items[k]()
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if !strings.Contains(doc, "(`"+string(k)+"`") {
			t.Errorf("docs/ACTIONS.md has no section for %s", k)
		}
		for _, expr := range []string{p.UpdateExpression, p.ConditionExpression} {
			if !strings.Contains(doc, space.ReplaceAllString(expr, " ")) {
				t.Errorf("docs/ACTIONS.md does not quote the %s expression:\n%s", k, expr)
			}
		}
	}
}
