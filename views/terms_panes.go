package views

import (
	"strings"

	"opsdeck/data"
)

// Comparison terms on a modeled pane's command (`:inbox user-1 ttl<now`,
// `:runs u-1 environment=prod`): they narrow the pane's own scope with a
// server-side filter (data.Scope.Where), so the query reads no more than
// before and the live tail's Matches agrees with it. A term the scope
// cannot take (a key of the index it reads, index=) is refused and the
// pane keeps what it showed.

// withTerms is sc narrowed by the terms typed, with "now" read from the
// pane's clock.
func withTerms(sc data.Scope, words []string, c *Context) (data.Scope, error) {
	if len(words) == 0 {
		return sc, nil
	}
	terms, rest, err := data.ParseTerms(words, c.now())
	if err != nil {
		return sc, err
	}
	if len(rest) > 0 {
		return sc, &termError{word: rest[0]}
	}
	return sc.Where(terms...)
}

type termError struct{ word string }

func (e *termError) Error() string {
	return "\"" + e.word + "\" is not a comparison (field=value, field<value, field^=prefix, field=a..b)"
}

// termsLabel is the terms for a title: " · where ttl<now".
func termsLabel(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return " · where " + strings.Join(words, " ")
}

// refuseTerms keeps the pane as it was and says why the terms were
// refused (the status bar, and :messages).
func (b *base) refuseTerms(cmd string, err error) {
	b.active().note = cmd + ": " + err.Error() + " — the list is unchanged"
}
