package ui

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/views/inert"
)

// Verb is a command-mode verb, in its canonical spelling.
type Verb string

const (
	VerbSessions      Verb = "sessions"
	VerbSession       Verb = "session"
	VerbRuns          Verb = "runs"
	VerbRun           Verb = "run"
	VerbInbox         Verb = "inbox"
	VerbDelegations   Verb = "delegations"
	VerbSubscriptions Verb = "subscriptions"
	VerbConsumers     Verb = "consumers"
	VerbSandboxes     Verb = "sandboxes"
	VerbStream        Verb = "stream"
	VerbAudit         Verb = "audit"
	VerbScan          Verb = "scan"
	VerbSort          Verb = "sort"
	VerbExport        Verb = "export"
	VerbQuit          Verb = "q"
)

// Command is one parsed and validated command line. Only the fields that the
// verb accepts are ever set, so the router can switch on Verb and trust them.
type Command struct {
	Verb Verb
	// Arg is the positional argument: a project id, session id, user id,
	// run id, audience, customer, consumer or table id.
	Arg string
	// Opt and Value hold the key=value option a verb was given (status=,
	// track=, key=): sessions and sandboxes take at most one, because each
	// option selects one index.
	Opt, Value string
	// Type and Status are the prefixes of :inbox. Both may be given: the
	// type prefix selects EventTypeIndex and the status prefix then becomes
	// a server-side filter on status#timestamp.
	Type, Status string
	// Segments is :scan's parallelism (segments=N), 1 when not given.
	Segments int
	// Args are the words of a verb that takes several (:sort, :export),
	// checked by the verb's own parser.
	Args []string
}

// verbSpec describes what a verb accepts; the parser, the completion and the
// help line are all generated from this one table.
type verbSpec struct {
	verb    Verb
	aliases []string
	usage   string
	// arg: "" none, "required" or "optional" positional argument.
	arg string
	// opts lists the accepted option keys.
	opts []string
	// argIsOpt: a verb whose only argument may be either a positional or an
	// option (":sessions proj_1" or ":sessions status=RUNNING"), never both.
	argOrOpt bool
	// words: every word after the verb is kept in Command.Args for the
	// verb's own parser (no options, no count limit).
	words bool
}

var verbs = []verbSpec{
	{verb: VerbSessions, usage: ":sessions [projectId|status=S]", arg: "optional", opts: []string{"status"}, argOrOpt: true},
	{verb: VerbSession, usage: ":session <sessionId>", arg: "required"},
	{verb: VerbRuns, usage: ":runs <userId>", arg: "required"},
	{verb: VerbRun, usage: ":run <runId>", arg: "required"},
	{verb: VerbInbox, usage: ":inbox <userId> [type=<prefix>] [status=<prefix>]", arg: "required", opts: []string{"type", "status"}},
	{verb: VerbDelegations, usage: ":delegations <audience>", arg: "required"},
	{verb: VerbSubscriptions, usage: ":subscriptions <customer>", arg: "required"},
	{verb: VerbConsumers, usage: ":consumers <consumer>", arg: "required"},
	{verb: VerbSandboxes, usage: ":sandboxes [status=S|track=T|key=K]", opts: []string{"status", "track", "key"}},
	{verb: VerbStream, usage: ":stream [table]", arg: "optional"},
	{verb: VerbAudit, usage: ":audit [n]", arg: "optional"},
	{verb: VerbSort, usage: ":sort [column [asc|desc]]", arg: "optional", words: true},
	{verb: VerbExport, usage: ":export <file> [jsonl|csv|ddb] [overwrite] [reveal]", arg: "required", words: true},
	{verb: VerbQuit, aliases: []string{"quit", "q!"}, usage: ":q"},
	// Last, so that the help's command paragraph at 80×24 keeps :q in view.
	{verb: VerbScan, usage: ":scan <table> [segments=N]", arg: "required", opts: []string{"segments"}},
}

// Known enumerations, used for completion and to fix the case of a value the
// operator typed ("running" finds RUNNING) — only for these documented
// values; anything else is passed through exactly as typed.
var (
	sessionStatuses = []string{"RUNNING", "COMPLETED", "ERROR", "TIMED_OUT"}
	sandboxStatuses = []string{"available", "allocated", "pending_deletion", "deletion_failed", "stale"}
	eventStatuses   = []string{"received", "delivered", "failed", "retrying"}
)

func specFor(word string) (verbSpec, bool) {
	w := strings.ToLower(word)
	for _, s := range verbs {
		if string(s.verb) == w {
			return s, true
		}
		for _, a := range s.aliases {
			if a == w {
				return s, true
			}
		}
	}
	return verbSpec{}, false
}

// ParseCommand parses what the operator typed after ':'. Errors are one line,
// already sanitised for display, and say what would have been right.
func ParseCommand(line string) (Command, error) {
	toks, err := tokenize(line)
	if err != nil {
		return Command{}, err
	}
	if len(toks) == 0 {
		return Command{}, fmt.Errorf("empty command (try :sessions, :runs <userId>, :q)")
	}
	spec, ok := specFor(toks[0])
	if !ok {
		msg := fmt.Sprintf("unknown command \"%s\"", inert.String(toks[0]))
		if s := suggest(toks[0]); s != "" {
			msg += fmt.Sprintf(" (did you mean :%s?)", s)
		} else {
			msg += " (? lists the commands)"
		}
		return Command{}, fmt.Errorf("%s", msg)
	}
	cmd := Command{Verb: spec.verb}
	usage := func(format string, a ...any) error {
		return fmt.Errorf("%s — usage: %s", fmt.Sprintf(format, a...), spec.usage)
	}
	if spec.words {
		cmd.Args = toks[1:]
		if spec.arg == "required" && len(cmd.Args) == 0 {
			return Command{}, usage(":%s needs an argument", spec.verb)
		}
		return cmd, nil
	}
	for _, t := range toks[1:] {
		if k, v, isOpt := strings.Cut(t, "="); isOpt && isOptKey(k) {
			k = strings.ToLower(k)
			if !contains(spec.opts, k) {
				if len(spec.opts) == 0 {
					return Command{}, usage(":%s takes no options (got \"%s\")", spec.verb, inert.String(t))
				}
				return Command{}, usage("unknown option \"%s\" for :%s", inert.String(k), spec.verb)
			}
			if v == "" {
				return Command{}, usage("%s= needs a value", k)
			}
			if spec.verb == VerbInbox {
				dst := &cmd.Type
				if k == "status" {
					dst = &cmd.Status
				}
				if *dst != "" {
					return Command{}, usage("%s= given twice", k)
				}
				*dst = canonicalValue(spec.verb, k, v)
				continue
			}
			if cmd.Opt != "" {
				if cmd.Opt == k {
					return Command{}, usage("%s= given twice", k)
				}
				return Command{}, usage("give %s= or %s=, not both: each is served by its own index", cmd.Opt, k)
			}
			cmd.Opt, cmd.Value = k, canonicalValue(spec.verb, k, v)
			continue
		}
		if spec.arg == "" {
			return Command{}, usage(":%s takes no argument \"%s\"", spec.verb, inert.String(t))
		}
		if cmd.Arg != "" {
			return Command{}, usage("too many arguments (\"%s\")", inert.String(t))
		}
		cmd.Arg = t
	}
	if spec.arg == "required" && cmd.Arg == "" {
		return Command{}, usage(":%s needs an argument", spec.verb)
	}
	if spec.argOrOpt && cmd.Arg != "" && cmd.Opt != "" {
		return Command{}, usage("give a project id or %s=, not both", cmd.Opt)
	}
	if spec.verb == VerbScan {
		return scanCommand(cmd, usage)
	}
	if spec.verb == VerbStream && cmd.Arg != "" {
		id, ok := tableID(cmd.Arg)
		if !ok {
			return Command{}, fmt.Errorf("unknown table \"%s\" (tab completes table names)", inert.String(cmd.Arg))
		}
		cmd.Arg = string(id)
	}
	return cmd, nil
}

// isOptKey tells "status=RUNNING" (an option) from an id that merely contains
// '=' somewhere (base64 ids do): only the option names of some verb count.
func isOptKey(k string) bool {
	switch strings.ToLower(k) {
	case "status", "type", "track", "key", "segments":
		return true
	}
	return false
}

func canonicalValue(v Verb, opt, val string) string {
	var known []string
	switch {
	case v == VerbSessions && opt == "status":
		known = sessionStatuses
	case v == VerbSandboxes && opt == "status":
		known = sandboxStatuses
	case v == VerbInbox && opt == "status":
		known = eventStatuses
	}
	for _, k := range known {
		if strings.EqualFold(k, val) {
			return k
		}
	}
	return val
}

func tableID(s string) (data.TableID, bool) {
	for _, id := range data.TableIDs() {
		if strings.EqualFold(string(id), s) {
			return id, true
		}
	}
	return "", false
}

func tableNames() []string {
	var out []string
	for _, id := range data.TableIDs() {
		out = append(out, string(id))
	}
	return out
}

func verbNames() []string {
	out := make([]string, 0, len(verbs))
	for _, s := range verbs {
		out = append(out, string(s.verb))
	}
	return out
}

// suggest returns the verb the operator most likely meant: a unique verb
// starting with what was typed, or one edit away.
func suggest(word string) string {
	w := strings.ToLower(word)
	var best string
	bestD := 3
	for _, s := range verbs {
		name := string(s.verb)
		if len(w) >= 2 && strings.HasPrefix(name, w) {
			return name
		}
		if d := editDistance(w, name); d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// tokenize splits on spaces; double quotes group a value that contains
// spaces (tenant data can), and \" escapes a quote inside them.
func tokenize(line string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	inQuote, have := false, false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case inQuote && r == '\\' && i+1 < len(rs) && rs[i+1] == '"':
			cur.WriteRune('"')
			i++
		case r == '"':
			inQuote = !inQuote
			have = true
		case !inQuote && unicode.IsSpace(r):
			if have {
				toks = append(toks, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quote")
	}
	if have {
		toks = append(toks, cur.String())
	}
	return toks, nil
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// Complete returns the completions of the last word of line (the whole
// line with that word replaced), sorted, for the tab key. ids supplies
// candidate positional values (ids seen on screen) and may be nil.
func Complete(line string, ids func(Verb) []string) []string {
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
		if spec.words {
			cands = wordCandidates(spec.verb, len(fields), ids)
		} else if k, _, isOpt := strings.Cut(word, "="); isOpt {
			for _, v := range enumFor(spec.verb, k) {
				cands = append(cands, k+"="+v)
			}
		} else {
			for _, o := range spec.opts {
				cands = append(cands, o+"=")
			}
			if spec.verb == VerbStream || spec.verb == VerbScan {
				cands = append(cands, tableNames()...)
			} else if spec.arg != "" && ids != nil {
				// Tenant ids go in exactly as stored; one the tokenizer
				// would split (a space, a newline, a quote) is quoted.
				for _, id := range ids(spec.verb) {
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

func enumFor(v Verb, opt string) []string {
	switch {
	case v == VerbSessions && opt == "status":
		return sessionStatuses
	case v == VerbSandboxes && opt == "status":
		return sandboxStatuses
	case v == VerbInbox && opt == "status":
		return eventStatuses
	}
	return nil
}

// Usage lists every command's usage, for the help screen.
func Usage() []string {
	out := make([]string, 0, len(verbs))
	for _, s := range verbs {
		out = append(out, s.usage)
	}
	return out
}

// wordCandidates completes the n-th word (1 = first after the verb) of a
// verb that parses its own words.
func wordCandidates(v Verb, n int, ids func(Verb) []string) []string {
	switch {
	case v == VerbSort && n == 1 && ids != nil:
		var out []string
		for _, c := range ids(v) {
			out = append(out, quoteArg(c))
		}
		return out
	case v == VerbSort && n == 2:
		return []string{"asc", "desc"}
	case v == VerbExport && n >= 2:
		return append(export.Formats(), "overwrite", "reveal")
	}
	return nil
}
