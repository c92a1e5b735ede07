package ui

// Completion of the command line: verbs, arguments and options from the
// command specs, ids from the panes and the seen index, quoted so the
// tokenizer reads back what was offered.

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"opsdeck/views"
)

// Complete returns the completions of the last word of line (the whole
// line with that word replaced), sorted, for the tab key. ids supplies
// candidate values of the command's first or second (arg 1, 2) positional
// argument (ids seen on screen) and may be nil.
func Complete(line string, ids func(v Verb, arg int) []string) []string {
	return complete(line, ids, nil)
}

// complete is Complete with optIDs, the values offered for an option
// (key=…) beside its documented ones; nil offers none.
func complete(line string, ids func(v Verb, arg int) []string, optIDs func(v Verb, key string) []string) []string {
	// Keep everything up to the last word as typed.
	cut := strings.LastIndexFunc(line, unicode.IsSpace) + 1
	head, word := line[:cut], line[cut:]
	fields := strings.Fields(head)
	var cands []string
	if len(fields) == 0 {
		cands = verbNames()
	} else {
		spec, ok := specFor(fields[0])
		if !ok {
			return nil
		}
		if k, _, isOpt := strings.Cut(word, "="); isOpt {
			for _, o := range spec.Opts {
				if o.Key == strings.ToLower(k) {
					for _, v := range o.Values {
						cands = append(cands, k+"="+v)
					}
					if optIDs != nil {
						for _, v := range optIDs(Verb(spec.Name), o.Key) {
							cands = append(cands, k+"="+quoteArg(v))
						}
					}
				}
			}
		} else if len(fields) >= 2 && len(spec.Words) > 0 {
			// The argument is given: what follows are keywords.
			cands = append(cands, spec.Words...)
		} else {
			for _, o := range spec.Opts {
				cands = append(cands, o.Key+"=")
			}
			if spec.TableArg {
				cands = append(cands, tableNames()...)
			} else if spec.Arg != views.ArgNone && ids != nil {
				// The second positional, for a command that takes one,
				// once the first is given.
				arg := 1
				if spec.Arg2 != views.ArgNone && slices.ContainsFunc(fields[1:], func(f string) bool {
					k, _, isOpt := strings.Cut(f, "=")
					return !isOpt || !isOptKey(k)
				}) {
					arg = 2
				}
				// Tenant ids go in exactly as stored; one the tokenizer
				// would split (a space, a newline, a quote) is quoted.
				for _, id := range ids(Verb(spec.Name), arg) {
					cands = append(cands, quoteArg(id))
				}
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	w := strings.ToLower(word)
	for _, c := range cands {
		lc := strings.ToLower(c)
		if (strings.HasPrefix(lc, w) || strings.HasPrefix(lc, `"`+w)) && !seen[c] {
			seen[c] = true
			out = append(out, head+c)
		}
	}
	sort.Strings(out)
	return out
}

// quoteArg writes an argument so that tokenize gives it back unchanged:
// bare when it holds no space and no quote, else in double quotes with
// each quote escaped.
func quoteArg(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '"' }) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
