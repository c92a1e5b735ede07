package action

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"opsdeck/data"
)

// docs/ACTIONS.md has a section for every declared action and quotes every
// expression; this keeps it true. Whitespace is normalised because the doc
// wraps long expressions.
func TestActionsDocQuotesTheExactExpressions(t *testing.T) {
	raw, err := os.ReadFile("../../docs/ACTIONS.md")
	if err != nil {
		t.Fatalf("docs/ACTIONS.md: %v", err)
	}
	space := regexp.MustCompile(`\s+`)
	doc := space.ReplaceAllString(string(raw), " ")
	now := time.Now().Truncate(time.Second)
	for _, spec := range Specs() {
		k := spec.Kind
		item, ok := docSamples(now)[k]
		if !ok {
			t.Errorf("%s: no sample item in docSamples; add one the action applies to", k)
			continue
		}
		p, err := PlanFor(k, item, now, Options{})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		heading := sectionHeading(string(raw), k)
		switch {
		case heading == "":
			t.Errorf("docs/ACTIONS.md has no section \"## … (`%s`, …)\"", k)
		case !strings.Contains(heading, "`"+spec.DefaultKey+"`"):
			t.Errorf("docs/ACTIONS.md: the section of %s does not name its key `%s`: %q", k, spec.DefaultKey, heading)
		}
		if !strings.Contains(doc, "`"+spec.NotDone("")) {
			t.Errorf("docs/ACTIONS.md does not list the message prefix `%s`", spec.NotDone(""))
		}
		for _, expr := range []string{p.UpdateExpression, p.ConditionExpression} {
			if !strings.Contains(doc, space.ReplaceAllString(expr, " ")) {
				t.Errorf("docs/ACTIONS.md does not quote the %s expression:\n%s", k, expr)
			}
		}
	}
}

// docSamples are items each action applies to, one per declared action.
func docSamples(now time.Time) map[Kind]data.Item {
	out := map[Kind]data.Item{}
	for _, spec := range Specs() {
		if it := sampleItem(spec.Kind, "s", now); it != nil {
			out[spec.Kind] = it
		}
	}
	return out
}

// sampleItem is an item with id id that action k applies to (nil for an
// action with no sample yet).
func sampleItem(k Kind, id string, now time.Time) data.Item {
	switch k {
	case ReleaseSession:
		return sessionWithTask(id)
	case RequeueEvent:
		return failedEvent(id, 3)
	case MarkEventDelivered:
		return failedEvent(id, 1)
	case UnstickEvent:
		return eventIn("retrying", 1)(id)
	case MarkSandboxDeletion:
		return allocatedSandbox(id, now)
	case ExpireSandbox:
		return expiredSandbox(id, now)
	case MarkRunFailed:
		return stuckRun(id, now.Add(-time.Hour))
	case DeactivateAPIKey:
		return apiKey(id, "ACTIVE")
	case ReactivateAPIKey:
		return apiKey(id, "INACTIVE")
	case DeactivateProject:
		return project(id, "ACTIVE")
	case ReactivateProject:
		return project(id, "INACTIVE")
	}
	return nil
}

// sectionHeading is the "## " line that names the action in parentheses.
func sectionHeading(doc string, k Kind) string {
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "## ") && strings.Contains(l, "(`"+string(k)+"`") {
			return l
		}
	}
	return ""
}
