package action

import (
	"strconv"
	"strings"
)

// NeedsTypedConfirmation reports whether an action in env must be confirmed
// by typing a phrase instead of pressing y: always for "prod", and for any
// environment the config lists as protected. Names compare without regard
// to case or surrounding space, so "Prod " is protected too.
func NeedsTypedConfirmation(env string, protected []string) bool {
	env = strings.ToLower(strings.TrimSpace(env))
	if env == "prod" {
		return true
	}
	for _, p := range protected {
		if strings.ToLower(strings.TrimSpace(p)) == env && env != "" {
			return true
		}
	}
	return false
}

// ConfirmPhrase is what the operator types to confirm: the item's id for a
// single plan, the number of rows for a bulk action. Typing a count proves
// the operator read how many rows are about to change.
func ConfirmPhrase(plans []Plan) string {
	if len(plans) == 1 {
		if t := plans[0].Target; t != "" {
			return t
		}
	}
	return strconv.Itoa(len(plans))
}

// PhraseMatches compares what was typed with the phrase. Surrounding space
// is forgiven; anything else must match exactly.
func PhraseMatches(typed, phrase string) bool {
	return phrase != "" && strings.TrimSpace(typed) == phrase
}
