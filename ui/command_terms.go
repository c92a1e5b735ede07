package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"opsdeck/data"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// Comparison terms on the command line (`:table orders status=open
// total>100`, `:inbox user-1 ttl<now`): a command that declares Terms
// takes them after its argument. They are validated here, with the
// command's usage in the error, and kept as typed; the command's Run reads
// them (data.ParseTerms) against its own clock.

// addTerm takes word t as a comparison term of spec when it is one: after
// the argument (ids may hold '=' or '<'; a term never stands first), and
// not one of the command's own key=value options. isTerm false: the word
// is for the rest of the parser.
func addTerm(spec views.CommandSpec, a *views.Args, n *int, t string) (isTerm bool, err error) {
	if !spec.Terms || (a.Arg == "" && spec.Arg != views.ArgNone) || ownOpt(spec, t) {
		return false, nil
	}
	// Parsed at the wall clock only to validate: what "now" stands for is
	// settled when the command runs.
	term, perr := data.ParseTerm(t, time.Now())
	switch {
	case errors.Is(perr, data.ErrNotTerm):
		return false, nil
	case perr != nil:
		return true, errors.New(inert.String(perr.Error()))
	case !documented(spec.TermsTable, term):
		return true, fmt.Errorf("unknown attribute \"%s\" of %s%s", inert.String(term.Attr), spec.TermsTable, optsHint(spec))
	case *n == len(a.Terms):
		return true, fmt.Errorf("at most %d terms", len(a.Terms))
	}
	a.Terms[*n] = t
	*n++
	return true, nil
}

// ownOpt: t is key=value with key one of spec's options (exactly '=': a
// key<=value is a term).
func ownOpt(spec views.CommandSpec, t string) bool {
	k, _, ok := strings.Cut(t, "=")
	if !ok || strings.ContainsAny(k, "!<>^") {
		return false
	}
	k = strings.ToLower(k)
	return slices.ContainsFunc(spec.Opts, func(o views.OptSpec) bool { return o.Key == k })
}

// documented: term's attribute is one table t documents (any attribute
// when t is ""; index= is the planner's to judge).
func documented(t data.TableID, term data.Term) bool {
	if t == "" || term.Op == data.OpIndex {
		return true
	}
	s, ok := data.Schema(t)
	if !ok {
		return true
	}
	_, doc := s.Attrs[term.Attr]
	return doc || slices.Contains(s.KeyNames(), term.Attr)
}

// optsHint names the command's own options, which a mistyped term may
// have meant.
func optsHint(spec views.CommandSpec) string {
	if len(spec.Opts) == 0 {
		return ""
	}
	var keys []string
	for _, o := range spec.Opts {
		keys = append(keys, o.Key+"=")
	}
	return " (options: " + strings.Join(keys, ", ") + ")"
}

// physicalName: s can be a DynamoDB table name (3 to 255 of a-z, A-Z,
// 0-9, '_', '-', '.'), so a command may take it for a table no pane
// models.
func physicalName(s string) bool {
	if len(s) < 3 || len(s) > 255 {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
