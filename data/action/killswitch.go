package action

import (
	"fmt"
	"time"

	"opsdeck/data"
)

// Sessions · the kill switch. Wallcrawler's authorizer checks a key's and
// a project's status on every call ("The authorizer validates that the
// selected project is active before issuing an allow policy"), so INACTIVE
// cuts a leaked key or a runaway project off at once, and ACTIVE lets it
// back in. status holds ACTIVE or INACTIVE; any other value is refused, not
// guessed at. A project carries updatedAt (ISO 8601), which the write sets
// and the guard pins; an API key has no such attribute, so the guard pins
// opsdeck's own attempt token: a toggle by another operator in between
// makes the write fail instead of undoing theirs.

const (
	statusActive   = "ACTIVE"
	statusInactive = "INACTIVE"
)

func apiKeyTarget(seen data.Item) string {
	if id, ok := str(seen, "keyId"); ok && id != "" {
		return id
	}
	if n, ok := str(seen, "name"); ok && n != "" {
		return n
	}
	h, _ := str(seen, "apiKeyHash")
	if len(h) > 12 {
		h = h[:12] + "…"
	}
	return h
}

func projectTarget(seen data.Item) string { s, _ := str(seen, "projectId"); return s }

// checkSwitch refuses an item whose status is not exactly from.
func checkSwitch(what, from, to string) func(data.Item, time.Time, Options) error {
	return func(seen data.Item, _ time.Time, _ Options) error {
		status, ok := str(seen, "status")
		switch {
		case !ok:
			return fmt.Errorf("this %s has no readable status (%s); the authorizer reads ACTIVE or INACTIVE", what, show(seen["status"]))
		case status == to:
			return fmt.Errorf("this %s is already %s", what, to)
		case status != from:
			return fmt.Errorf("this %s's status is %s; the authorizer knows ACTIVE and INACTIVE only, so opsdeck will not guess", what, clip(status))
		}
		return requireScalar(seen, "status", "updatedAt", AttemptAttr)
	}
}

// buildSwitch writes status from → to on an API key (keyAttr apiKeyHash)
// or a project (projectId, which also gets updatedAt).
func buildSwitch(what, keyAttr, from, to string, stamped bool) func(*exprBuilder, data.Item, time.Time, Options) ([]Clause, []setOp, []Change, error) {
	return func(b *exprBuilder, seen data.Item, now time.Time, _ Options) ([]Clause, []setOp, []Change, error) {
		state := b.eq("status", "from_status", sv(from), "status is still "+from, FailWrongState)
		state.explain = func(it data.Item) string {
			s, _ := str(it, "status")
			prefix := ""
			if s == to {
				prefix = "already " + to + ": "
			}
			return prefix + "status is " + show(it["status"]) + since(it, "updatedAt", now)
		}
		state.classify = alreadyDoneWhenStatus(to)
		clauses := []Clause{
			b.exists(keyAttr, "the "+what+" still exists", FailGone),
			state,
			b.pin(seen, AttemptAttr),
		}
		sets := []setOp{{"status", b.value("to_status", sv(to))}}
		changes := []Change{{"status", show(seen["status"]), to}}
		if stamped {
			clauses = append(clauses, b.pin(seen, "updatedAt"))
			at := now.UTC().Format(sessionTime)
			sets = append(sets, setOp{"updatedAt", b.value("now", sv(at))})
			changes = append(changes, Change{"updatedAt", show(seen["updatedAt"]), at})
		}
		return clauses, sets, changes, nil
	}
}

const (
	killNoteKey     = "The authorizer checks the key's status on every call: INACTIVE refuses it at once, ACTIVE lets it in again."
	killNoteProject = "The authorizer checks the project's status before every allow: INACTIVE refuses all its keys for it, ACTIVE lets them in again."
)

var killSwitchSpecs = []Spec{
	{
		Kind: DeactivateAPIKey, Table: data.TableAPIKeys,
		Key: "kill_switch", DefaultKey: "K",
		Title: "Deactivate API key", Verb: "deactivate", Done: "deactivated",
		Dangerous: true, Note: killNoteKey,
		target: apiKeyTarget,
		check:  checkSwitch("API key", statusActive, statusInactive),
		build:  buildSwitch("API key", "apiKeyHash", statusActive, statusInactive, false),
	},
	{
		Kind: ReactivateAPIKey, Table: data.TableAPIKeys,
		Key: "kill_switch", DefaultKey: "K",
		Title: "Reactivate API key", Verb: "reactivate", Done: "reactivated",
		Dangerous: true, Note: killNoteKey,
		target: apiKeyTarget,
		check:  checkSwitch("API key", statusInactive, statusActive),
		build:  buildSwitch("API key", "apiKeyHash", statusInactive, statusActive, false),
	},
	{
		Kind: DeactivateProject, Table: data.TableProjects,
		Key: "kill_switch", DefaultKey: "K",
		Title: "Deactivate project", Verb: "deactivate", Done: "deactivated",
		Dangerous: true, Note: killNoteProject,
		target: projectTarget,
		check:  checkSwitch("project", statusActive, statusInactive),
		build:  buildSwitch("project", "projectId", statusActive, statusInactive, true),
	},
	{
		Kind: ReactivateProject, Table: data.TableProjects,
		Key: "kill_switch", DefaultKey: "K",
		Title: "Reactivate project", Verb: "reactivate", Done: "reactivated",
		Dangerous: true, Note: killNoteProject,
		target: projectTarget,
		check:  checkSwitch("project", statusInactive, statusActive),
		build:  buildSwitch("project", "projectId", statusInactive, statusActive, true),
	},
}
