package action

import (
	"regexp"
	"testing"

	"opsdeck/data"
)

// Every declaration is complete, and actions that share a key agree on it.
func TestSpecsAreComplete(t *testing.T) {
	name := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	kinds := map[Kind]bool{}
	keyOf := map[string]string{}
	for _, s := range Specs() {
		if kinds[s.Kind] || s.Kind == "" {
			t.Errorf("kind %q declared twice or empty", s.Kind)
		}
		kinds[s.Kind] = true
		if _, ok := data.Schema(s.Table); !ok {
			t.Errorf("%s writes to %q, which is no table", s.Kind, s.Table)
		}
		if NoActionReason(s.Table) != "" {
			t.Errorf("%s writes to %s, which is declared to have no action", s.Kind, s.Table)
		}
		if !name.MatchString(s.Key) || s.DefaultKey == "" {
			t.Errorf("%s: key %q (default %q): a snake_case keymap name and a default key", s.Kind, s.Key, s.DefaultKey)
		}
		if k, ok := keyOf[s.Key]; ok && k != s.DefaultKey {
			t.Errorf("%s: key %q defaults to %q here and to %q for another action", s.Kind, s.Key, s.DefaultKey, k)
		}
		keyOf[s.Key] = s.DefaultKey
		if s.Title == "" || s.Verb == "" || s.Done == "" || s.Note == "" {
			t.Errorf("%s: Title, Verb, Done and Note are all shown; one is empty: %+v", s.Kind, s)
		}
		if s.target == nil || s.check == nil || s.build == nil {
			t.Errorf("%s: no plan (target, check, build)", s.Kind)
		}
		if s.Then != nil && (s.Then.Name == "" || s.Then.Title == "" || s.Then.Run == nil) {
			t.Errorf("%s: a step needs a Name, a Title and Run", s.Kind)
		}
		if got, ok := s.Kind.Spec(); !ok || got.Title != s.Title {
			t.Errorf("%s: Kind.Spec does not find its declaration", s.Kind)
		}
	}
}
