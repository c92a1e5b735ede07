package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"opsdeck/data"
)

// TestQuotaCountsTheProjectsOwnSessions: the Sessions header's count of a
// project's RUNNING sessions is one paginated COUNT on the project's own
// index (projectId-createdAt-index, status = RUNNING as a filter) — never
// a read of the fleet's RUNNING partition of status-expiresAt-index — and
// the number it shows is the project's, not the fleet's.
func TestQuotaCountsTheProjectsOwnSessions(t *testing.T) {
	w := seeded(t)
	log := &queryLog{}
	o := w.withClient(t, log)
	project := w.rep.Defaults.SessionsProject

	// What the header must say, read another way: every session of the
	// project (Page, whole items), RUNNING ones counted here; and the
	// fleet's RUNNING sessions, which must be more, or the test could not
	// tell the two apart.
	st := data.NewStore(w.conn, w.tables)
	want, fleet := 0, 0
	for _, sc := range []data.Scope{data.SessionsByProject(project), data.SessionsByStatus(data.SessionRunning)} {
		var cur data.Cursor
		for {
			p, err := st.Page(context.Background(), sc, data.PageRequest{Cursor: cur})
			if err != nil {
				t.Fatal(data.Describe(err))
			}
			for _, r := range p.Items {
				if s := r.(data.Session); s.Status == data.SessionRunning {
					if sc.Index == data.IndexSessionsByProject {
						want++
					} else {
						fleet++
					}
				}
			}
			if cur = p.Next; cur == nil {
				break
			}
		}
	}
	if want == 0 || fleet <= want {
		t.Fatalf("the demo world cannot tell the counts apart: project %s has %d RUNNING, the fleet %d", project, want, fleet)
	}

	m := start(t, o, 120, 30)
	out := screen(m, w.prefix)
	if head := fmt.Sprintf("project %s · %d running / quota", project, want); !strings.Contains(out, head) {
		t.Fatalf("header does not say %q:\n%s", head, out)
	}
	counts := 0
	for _, q := range log.take() {
		if q["IndexName"] == data.IndexSessionsByStatus {
			t.Errorf("the console read the fleet's status index: %v", q)
		}
		if q["Select"] != "COUNT" {
			continue
		}
		counts++
		vals := fmt.Sprint(q["ExpressionAttributeValues"])
		if q["IndexName"] != data.IndexSessionsByProject || !strings.Contains(vals, project) || !strings.Contains(vals, data.SessionRunning) {
			t.Errorf("the quota count is not the project's index filtered on RUNNING: %v", q)
		}
		if f, _ := q["FilterExpression"].(string); f == "" {
			t.Errorf("the quota count has no status filter: %v", q)
		}
	}
	if counts == 0 {
		t.Fatal("no COUNT query was sent for the quota")
	}
}
