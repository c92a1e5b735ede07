package action

import (
	"strings"
	"testing"
	"time"

	"opsdeck/data"
)

func apiKey(id, status string) data.Item {
	return data.Item{
		"apiKeyHash": S("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" + id),
		"keyId":      S(id), "projectId": S("project_default"), "name": S("ci key"),
		"status": S(status), "createdAt": S("2026-01-02T03:04:05Z"), "lastUsedAt": S("2026-11-21T10:00:00Z"),
	}
}

func apiKeyKey(id string) data.Item {
	return data.Item{"apiKeyHash": apiKey(id, "")["apiKeyHash"]}
}

func project(id, status string) data.Item {
	return data.Item{
		"projectId": S(id), "name": S("Default"), "concurrency": N(5), "defaultTimeout": N(3600),
		"status": S(status), "createdAt": S("2026-01-02T03:04:05Z"), "updatedAt": S("2026-11-01T00:00:00Z"),
	}
}

func TestKillSwitchTogglesAKeyAndAProject(t *testing.T) {
	w := newWorld(t, data.TableAPIKeys, data.TableProjects)
	w.put(data.TableAPIKeys, apiKey("k1", "ACTIVE"))
	w.put(data.TableProjects, project("p1", "ACTIVE"))

	// Off, then on again: each write pins what the one before it left.
	for _, step := range []struct {
		kind      Kind
		table     data.TableID
		key       data.Item
		want, msg string
	}{
		{DeactivateAPIKey, data.TableAPIKeys, apiKeyKey("k1"), "INACTIVE", "deactivated k1"},
		{ReactivateAPIKey, data.TableAPIKeys, apiKeyKey("k1"), "ACTIVE", "reactivated k1"},
		{DeactivateProject, data.TableProjects, data.Item{"projectId": S("p1")}, "INACTIVE", "deactivated p1"},
		{ReactivateProject, data.TableProjects, data.Item{"projectId": S("p1")}, "ACTIVE", "reactivated p1"},
	} {
		before := w.get(step.table, step.key)
		r := w.exec.Execute(w.ctx, w.plan(step.kind, step.key, Options{}))
		if !r.OK || r.Message != step.msg {
			t.Fatalf("%s: %s", step.kind, r.Message)
		}
		got := w.get(step.table, step.key)
		if attrS(t, got, "status") != step.want {
			t.Errorf("%s: status %s", step.kind, attrS(t, got, "status"))
		}
		// Nothing else the authorizer reads moves; a project's updatedAt
		// is stamped, a key gains no attribute the service does not know
		// beyond opsdeck's attempt token.
		for attr, v := range before {
			switch attr {
			case "status", AttemptAttr:
				continue
			case "updatedAt":
				if step.table == data.TableProjects {
					if attrS(t, got, "updatedAt") != w.now.UTC().Format(time.RFC3339) {
						t.Errorf("%s: updatedAt %s", step.kind, attrS(t, got, "updatedAt"))
					}
					continue
				}
			}
			if !data.EqualValues(v, got[attr]) {
				t.Errorf("%s: %s changed", step.kind, attr)
			}
		}
		if len(got) != len(before)+boolInt(before[AttemptAttr] == nil) {
			t.Errorf("%s: attributes %d → %d", step.kind, len(before), len(got))
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestKillSwitchGuardClauses(t *testing.T) {
	w := newWorld(t, data.TableAPIKeys, data.TableProjects)
	cases := []struct {
		name   string
		table  data.TableID
		item   data.Item
		key    data.Item
		kind   Kind
		expr   string
		values data.Item
		clause string
		why    Failure
		msg    string
	}{
		{"key deactivated by someone", data.TableAPIKeys, apiKey("g1", "ACTIVE"), apiKeyKey("g1"), DeactivateAPIKey, "SET #s = :v", data.Item{":v": S("INACTIVE")},
			"status is still ACTIVE", FailAlreadyDone, "not deactivated: already INACTIVE: status is INACTIVE"},
		{"key status rewritten", data.TableAPIKeys, apiKey("g2", "ACTIVE"), apiKeyKey("g2"), DeactivateAPIKey, "SET #s = :v", data.Item{":v": S("REVOKED")},
			"status is still ACTIVE", FailWrongState, "not deactivated: status is REVOKED"},
		{"key toggled off and on by another operator", data.TableAPIKeys, apiKey("g3", "ACTIVE"), apiKeyKey("g3"), DeactivateAPIKey, "SET opsdeck_attempt = :v", data.Item{":v": S("other-attempt")},
			"opsdeck_attempt is still absent, as seen", FailChangedSinceSeen, "changed since seen: opsdeck_attempt was absent, is now other-attempt"},
		{"key deleted", data.TableAPIKeys, apiKey("g4", "INACTIVE"), apiKeyKey("g4"), ReactivateAPIKey, "",
			nil, "the API key still exists", FailGone, "not reactivated: the item no longer exists"},
		{"project reactivated by someone", data.TableProjects, project("gp1", "INACTIVE"), data.Item{"projectId": S("gp1")}, ReactivateProject, "SET #s = :v", data.Item{":v": S("ACTIVE")},
			"status is still INACTIVE", FailAlreadyDone, "not reactivated: already ACTIVE: status is ACTIVE"},
		{"project reconfigured", data.TableProjects, project("gp2", "ACTIVE"), data.Item{"projectId": S("gp2")}, DeactivateProject, "SET updatedAt = :v", data.Item{":v": S("2026-11-22T00:00:00Z")},
			"updatedAt is still 2026-11-01T00:00:00Z, as seen", FailChangedSinceSeen, "changed since seen: updatedAt was 2026-11-01T00:00:00Z, is now 2026-11-22T00:00:00Z"},
		{"project deleted", data.TableProjects, project("gp3", "ACTIVE"), data.Item{"projectId": S("gp3")}, DeactivateProject, "",
			nil, "the project still exists", FailGone, "not deactivated: the item no longer exists"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w.t = t
			w.put(tc.table, tc.item)
			p := w.plan(tc.kind, tc.key, Options{})
			if tc.expr == "" {
				w.del(tc.table, tc.key)
			} else {
				var names map[string]string
				if strings.HasPrefix(tc.expr, "SET #s ") {
					names = map[string]string{"#s": "status"}
				}
				w.update(tc.table, tc.key, tc.expr, names, tc.values)
			}
			before := w.get(tc.table, tc.key)
			expectGuardFailure(t, w.exec.Execute(w.ctx, p), tc.clause, tc.why, tc.msg)
			if after := w.get(tc.table, tc.key); !sameItem(before, after) {
				t.Errorf("a failed guard changed the item")
			}
		})
	}
}

func TestKillSwitchNotApplicable(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		kind Kind
		it   data.Item
		want string
	}{
		{DeactivateAPIKey, apiKey("k", "INACTIVE"), "this API key is already INACTIVE"},
		{ReactivateAPIKey, apiKey("k", "ACTIVE"), "this API key is already ACTIVE"},
		{DeactivateAPIKey, apiKey("k", "active"), "status is active; the authorizer knows ACTIVE and INACTIVE only"},
		{DeactivateProject, func() data.Item { p := project("p", "ACTIVE"); delete(p, "status"); return p }(), "this project has no readable status"},
	} {
		_, err := PlanFor(tc.kind, tc.it, now, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.kind, err, tc.want)
		}
	}
}
